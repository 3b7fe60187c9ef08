// SPDX-License-Identifier: Apache-2.0
// The command line of the rowscan tool (commands.hpp): parses the subcommand, dispatches, and reports
// errors in one place. The CUDA build compiles it twice, once for each system (main.cpp).
#include "commands.hpp"
#include "option_values.hpp"
#include "output.hpp"
#include "rowscan/error.hpp"
#include "rowscan/io/input_file.hpp"

#include <cxxopts.hpp>

#include <cstring>
#include <iostream>
#include <new>
#include <string>

namespace {

// The synopsis is the README's Usage block, line for line (the cli.help test checks it).
constexpr char const* usage_text =
    "usage: rowscan COMMAND [options], as one of\n"
    "  rowscan stations FILE... [--format 1brc|json|csv] [--chunk-size BYTES] [--threads N] [--devices WHERE] [--stats] [--skip-invalid] [--no-progress]\n"
    "  rowscan stations FILE --explain [--format 1brc|json|csv] [--devices WHERE] [--no-progress]\n"
    "  rowscan lineitem FILE... --suppkey-below Z[,Z2,...] [--format text|json] [--chunk-size BYTES] [--threads N] [--devices WHERE] [--stats] [--skip-invalid] [--no-progress]\n"
    "  rowscan lineitem FILE --suppkey-below Z[,Z2,...] --explain [--devices WHERE]\n"
    "  rowscan generate measurements --rows N [--stations K] [--seed S] -o FILE\n"
    "  rowscan generate lineitem --scale SF [--seed S] -o FILE\n"
    "  rowscan COMMAND --help\n"
    "  rowscan --help | --version\n"
    "\n"
    "commands:\n"
    "  stations  per-station min/mean/max of `name;temperature` lines, exactly (the One Billion Row Challenge)\n"
    "  lineitem  SUM(l_quantity * l_extendedprice) WHERE l_suppkey < Z of a TPC-H lineitem.tbl, exactly\n"
    "  generate  write a realistic measurements file, or a dbgen-format lineitem.tbl of about SF x 6,000,000 rows\n"
    "\n"
    "options (`rowscan COMMAND --help` describes a command's own in full):\n"
    "  --format FORMAT        stations: 1brc (the default), json or csv; lineitem: text (the default) or json\n"
    "  --chunk-size BYTES     text processed at once: 128 (lineitem: 256) to 2G, or 0 for the default, sized\n"
    "                         from free device memory\n"
    "  --threads N            stations: threads reading a regular file, 1 to 64 (default: one per core, up to 16)\n"
    "  --devices WHERE        auto (the default), cpu, gpu, gpu:N or cpu+gpu: the processors that run the job\n"
    "  --stats                per-stage times to stderr (and, for lineitem --format json, in the JSON)\n"
    "  --skip-invalid         skip bad lines; stderr gets how many and where the first 5 were\n"
    "  --no-progress          stations: no progress bar (shown only on a terminal, after a second)\n"
    "  --explain              every stage's arrays for a small input (4096 bytes, 64 lines at most), then the answer\n"
    "  --suppkey-below Z      lineitem: the threshold, or several as Z1,Z2,... (one answer line each)\n"
    "  --rows N               generate measurements: the number of lines\n"
    "  --stations K           generate measurements: distinct stations, 1 to 1000000 (default: 413)\n"
    "  --scale SF             generate lineitem: TPC-H scale factor, 0.0001 to 100000\n"
    "  --seed S               generate: the random seed (default: 1)\n"
    "  -o, --output FILE      generate: the output file, or - for standard output\n"
    "  -h, --help             this help, or a command's\n"
    "  --version              the version and the Thrust device system\n"
    "\n"
    "FILE may be - for standard input. FILE... is several files or directories (their files in name order),\n"
    "answered as one input; under `mpirun -np N` each rank reads a share (docs/scale-out.md).\n"
    "Sizes take binary suffixes: 1K is 1024 bytes, 64M is 64 MiB.\n"
    "Exit codes: 0 the answer, 1 bad input or a runtime error (a missing file, a failed write), 2 a usage error.\n"
    "On the CPU build, OMP_NUM_THREADS sets the number of compute threads (default: one per core).\n";

int dispatch(int argc, char** argv) {
  using namespace rowscan::app;
  if (argc < 2) {
    std::cerr << usage_text;
    return usage;
  }
  std::string const command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    write_standard_output(usage_text);
    return success;
  }
  if (command == "--version") {
    write_standard_output("rowscan " ROWSCAN_VERSION " (" ROWSCAN_DEVICE_SYSTEM ")\n");
    return success;
  }
  int code = usage;
  if (command == "stations") {
    code = stations_command(argc - 1, argv + 1);
  } else if (command == "generate") {
    code = generate_command(argc - 1, argv + 1);
  } else if (command == "lineitem") {
    code = lineitem_command(argc - 1, argv + 1);
  } else {
    std::cerr << "rowscan: error: unknown command '" << command << "'\n" << usage_text;
    return usage;
  }
#if ROWSCAN_HOST_SYSTEM_BUILT
  // --devices sent the job to the host system's copy: it reads the same command line again.
  if (code == run_on_host_system) return rowscan_host::app::run_command_line(argc, argv);
#endif
  return code;
}
/// cxxopts quotes option names with U+2018 and U+2019; rowscan's other messages use ASCII quotes.
std::string plain_quotes(std::string text) {
  for (char const* quote : {"\xE2\x80\x98", "\xE2\x80\x99"}) {
    for (std::size_t at; (at = text.find(quote)) != std::string::npos;) text.replace(at, 3, "'");
  }
  return text;
}

/// The message of an error, unless a compressed input failed to decompress: then the text was cut short,
/// and that is the error to report (what the cut caused, such as a bad last line, is not).
std::string cause(char const* what) {
  auto const failure = rowscan::io::first_decode_failure();
  return failure ? *failure : std::string(what);
}

}  // namespace

namespace rowscan::app {

int run_command_line(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (usage_error const& e) {
    std::cerr << "rowscan: error: " << e.what() << " (see --help)\n";
    return usage;
  } catch (cxxopts::exceptions::exception const& e) {
    std::cerr << "rowscan: error: " << plain_quotes(e.what()) << " (see --help)\n";
    return usage;
  } catch (rowscan::error const& e) {
    std::cerr << "rowscan: error: " << cause(e.what()) << '\n';
  } catch (std::bad_alloc const&) {
    // Not while a block is folded (the driver words those, after its retry in halves) nor while the
    // station table is written out (stations words those): what is left scales with the chunk size.
    std::cerr << "rowscan: error: out of memory for the input's buffers (3 bytes per --chunk-size byte, "
                 "host and device); a smaller --chunk-size needs less\n";
  } catch (std::exception const& e) {
    std::cerr << "rowscan: error: " << cause(e.what()) << '\n';
  }
  return rowscan::app::failure;
}

}  // namespace rowscan::app
