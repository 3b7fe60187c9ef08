// rowscan: the command-line tool. Parses the subcommand, dispatches, and reports errors in one place.
#include "commands.hpp"
#include "rowscan/error.hpp"

#include <cxxopts.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <string>

namespace {

constexpr char const* usage_text =
    "usage: rowscan <command> [options]\n"
    "\n"
    "commands:\n"
    "  stations FILE [--skip-invalid] [--explain]\n"
    "                      per-station min/mean/max of `name;temperature` lines (One Billion Row Challenge)\n"
    "  generate measurements --rows N --stations K [--seed S] -o FILE\n"
    "                      write a realistic measurements file\n"
    "  lineitem FILE --suppkey-below Z[,Z2...] [--format text|json] [--stats] [--chunk-size BYTES] [--skip-invalid] [--explain]\n"
    "                      SUM(l_quantity * l_extendedprice) WHERE l_suppkey < Z of a TPC-H lineitem.tbl\n"
    "  generate lineitem --scale SF [--seed S] -o FILE\n"
    "                      write a dbgen-format lineitem.tbl of about SF x 6,000,000 rows\n"
    "\n"
    "--explain prints every stage's arrays of the pipeline for a small input (4096 bytes, 64 lines at most).\n"
    "FILE may be - for standard input. `rowscan <command> --help` describes a command's options.\n"
    "  --help     this text\n"
    "  --version  the version and the Thrust device system\n";

int dispatch(int argc, char** argv) {
  using namespace rowscan::app;
  if (argc < 2) {
    std::cerr << usage_text;
    return usage;
  }
  std::string const command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << usage_text;
    return success;
  }
  if (command == "--version") {
    std::cout << "rowscan " ROWSCAN_VERSION " (" << ROWSCAN_DEVICE_SYSTEM << ")\n";
    return success;
  }
  if (command == "stations") return stations_command(argc - 1, argv + 1);
  if (command == "generate") return generate_command(argc - 1, argv + 1);
  if (command == "lineitem") return lineitem_command(argc - 1, argv + 1);
  std::cerr << "rowscan: error: unknown command '" << command << "'\n" << usage_text;
  return usage;
}

int run(int argc, char** argv) {
  using namespace rowscan::app;
  try {
    return dispatch(argc, argv);
  } catch (cxxopts::exceptions::exception const& e) {
    std::cerr << "rowscan: error: " << e.what() << " (see --help)\n";
    return usage;
  } catch (rowscan::error const& e) {
    std::cerr << "rowscan: error: " << e.what() << '\n';
  } catch (std::bad_alloc const&) {
    // Not while a block is folded (the driver words those, after its retry in halves) nor while the
    // station table is written out (stations words those): what is left scales with the chunk size.
    std::cerr << "rowscan: error: out of memory for the input's buffers (3 bytes per --chunk-size byte, "
                 "host and device); a smaller --chunk-size needs less\n";
  } catch (std::exception const& e) {
    std::cerr << "rowscan: error: " << e.what() << '\n';
  }
  return rowscan::app::failure;
}

}  // namespace

int main(int argc, char** argv) {
  int const code = run(argc, argv);
  // Everything is written and flushed; skip the teardown of the device runtime at exit (about 0.1 s
  // on an H100), which the operating system does anyway when the process ends.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(std::cout ? code : rowscan::app::failure);
}
