// SPDX-License-Identifier: Apache-2.0
// The command line of the rowscan tool (commands.hpp): parses the subcommand, dispatches, and reports
// errors in one place.
#include "command_line.hpp"
#include "commands.hpp"
#include "devices.hpp"
#include "option_values.hpp"
#include "rowscan/io/output.hpp"
#include "rowscan/process/ranks.hpp"
#include "rowscan/engine.hpp"
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
    "  rowscan stations [FILE...] [--format 1brc|json|csv] [--chunk-size BYTES] [--threads N] [--devices WHERE] [--stats] [--skip-invalid] [--no-progress] [--recursive] [--crlf]\n"
    "  rowscan stations FILE --explain [--format 1brc|csv] [--devices WHERE] [--no-progress] [--crlf]\n"
    "  rowscan lineitem [FILE...] --suppkey-below Z[,Z2,...] [--format text|json] [--chunk-size BYTES] [--threads N] [--devices WHERE] [--stats] [--skip-invalid] [--no-progress] [--recursive] [--crlf]\n"
    "  rowscan lineitem FILE --suppkey-below Z[,Z2,...] --explain [--devices WHERE] [--crlf]\n"
    "  rowscan group [FILE...] --key K[,K2,...] --value V[,V2,...] [--delimiter C] [--header] [--quote C|--no-quote] [--scale N] [--format csv|json|1brc] [--chunk-size BYTES] [--threads N] [--devices WHERE] [--stats] [--skip-invalid] [--no-progress] [--recursive]\n"
    "  rowscan group FILE --key K[,K2,...] --value V[,V2,...] --explain [--delimiter C] [--header] [--quote C|--no-quote] [--scale N] [--format csv|1brc] [--devices WHERE]\n"
    "  rowscan generate measurements --rows N [--stations K] [--seed S] [-o FILE]\n"
    "  rowscan generate lineitem --scale SF [--seed S] [-o FILE]\n"
    "  rowscan generate sales --rows N [--keys K] [--seed S] [-o FILE]\n"
    "  rowscan COMMAND --help | rowscan help COMMAND\n"
    "  rowscan --help | --version | -V\n"
    "\n"
    "commands:\n"
    "  stations  per-station min/mean/max of `name;temperature` lines, exactly (the One Billion Row Challenge)\n"
    "  lineitem  SUM(l_quantity * l_extendedprice) WHERE l_suppkey < Z of a TPC-H lineitem.tbl, exactly\n"
    "  group     exact count, missing, min, mean, max and sum of value columns by key, for any delimited file\n"
    "            (quoted CSV included)\n"
    "  generate  write a realistic measurements file, a dbgen-format lineitem.tbl of about SF x 6,000,000 rows,\n"
    "            or a sales CSV with quoted fields\n"
    "\n"
    "options (`rowscan COMMAND --help` describes a command's own in full):\n"
    "  --format FORMAT        stations: 1brc (the default), json or csv; lineitem: text (the default) or json;\n"
    "                         group: csv (the default), json or 1brc\n"
    "  --chunk-size BYTES     text processed at once: 128 (lineitem: 256) to 2G, or 0 for the default, sized\n"
    "                         for the system (free device memory on a GPU, a few MiB per worker on the host)\n"
    "  --threads N            every thread that reads or computes, 1 to 64 (default: ROWSCAN_THREADS, or one per core)\n"
    "  --devices WHERE        auto (the default), cpu, gpu, gpu:N, gpu:N,M,..., gpu:all or cpu+gpu: the processors\n"
    "                         that run the job\n"
    "  --stats                per-stage times to stderr (and, for lineitem --format json, in the JSON)\n"
    "  --skip-invalid         skip bad lines; stderr gets how many and where the first 5 were\n"
    "  --no-progress          no progress bar (shown only on a terminal, after a second)\n"
    "  --recursive            read the subdirectories of a directory FILE too (else named in a warning)\n"
    "  --crlf                 lines end with CR LF (Windows line endings): read them with the LF file's answer\n"
    "  --explain              every stage's arrays for a small input (4096 bytes, 64 lines at most), then the answer\n"
    "  --suppkey-below Z      lineitem: the threshold, or several as Z1,Z2,... (one answer line each)\n"
    "  --key K, --value V     group: the key and value columns, positions from 1 or header names; several as K1,K2\n"
    "  --delimiter C          group: the field delimiter, one byte (default ','; `\\t` for a tab)\n"
    "  --header               group: every file's first record names the columns\n"
    "  --quote C, --no-quote  group: the quote byte of quoted fields (default '\"'), or no quoting\n"
    "  --rows N               generate measurements and sales: the number of lines (records), such as 1e9\n"
    "  --stations K           generate measurements: distinct stations, 1 to 1000000 (default: 413)\n"
    "  --scale SF             generate lineitem: TPC-H scale factor, 0.0001 to 100000; group: digits after the point\n"
    "  --keys K               generate sales: distinct customers, 1 to 10000000 (default: 100000)\n"
    "  --seed S               generate: the random seed (default: 1)\n"
    "  -o, --output FILE      generate: the output file, or - for standard output (the default, not a terminal)\n"
    "  -h, --help             this help, or a command's\n"
    "  -V, --version          the version and the Thrust device system\n"
    "\n"
    "FILE may be - for standard input (once), which is also read when no FILE is given and it is not a terminal.\n"
    "FILE... is several files or directories (their files in name order, without names that start with '.';\n"
    "subdirectories with --recursive, else named in a warning),\n"
    "answered as one input; no file at all is an error. Under `mpirun -np N` each rank reads a share\n"
    "(docs/scale-out.md). A UTF-8 byte order mark at the start of a file is skipped. Errors name FILE:LINE:COLUMN,\n"
    "1-based; the column is the byte where the field that breaks a rule starts (where the line ends, for a\n"
    "missing field).\n"
    "Sizes take binary suffixes: 1K = 1KiB = 1KB is 1024 bytes, 64M = 64MiB = 64MB is 64 x 2^20 bytes.\n"
    "Exit codes: 0 the answer, 1 bad input or a runtime error (a missing file, a failed write), 2 a usage error.\n"
    "Threads: --threads N, else ROWSCAN_THREADS=N, sets N reader and N compute threads (host workers, OpenMP);\n"
    "without either, OMP_NUM_THREADS sets the compute threads on the CPU build (default: one per core, less one\n"
    "from 16 cores). A bad value of any of the three is a usage error.\n";

/// The engines of this build, as --version names them: "CUDA, and OMP on the host", or "OMP".
std::string engines_built() {
  rowscan::engine const* gpu = rowscan::gpu_engine();
  rowscan::engine const* host = rowscan::host_engine();
  if (gpu == nullptr) return host->system_name();
  if (host == nullptr) return gpu->system_name();
  return std::string(gpu->system_name()) + ", and " + host->system_name() + " on the host";
}

int dispatch(int argc, char** argv) {
  using namespace rowscan::app;
  if (argc < 2) {
    std::cerr << usage_text;
    return usage;
  }
  std::string const command = argv[1];
  if (command == "help" && argc >= 3) {
    // `rowscan help COMMAND` is `rowscan COMMAND --help`.
    std::string const topic = argv[2];
    if (topic != "stations" && topic != "lineitem" && topic != "group" && topic != "generate") {
      throw usage_error("help: unknown command '" + topic + "'" +
                        did_you_mean(topic, {"stations", "lineitem", "group", "generate"}));
    }
    if (argc > 3) throw usage_error("help takes one COMMAND, not " + std::to_string(argc - 2) + " words");
    char help_flag[] = "--help";
    char* help_argv[] = {argv[2], help_flag, nullptr};
    return topic == "stations" ? stations_command(2, help_argv)
           : topic == "lineitem" ? lineitem_command(2, help_argv)
           : topic == "group"    ? group_command(2, help_argv)
                                 : generate_command(2, help_argv);
  }
  if (command == "--help" || command == "-h" || command == "help") {
    rowscan::io::write_standard_output(usage_text);
    return success;
  }
  if (command == "--version" || command == "-V") {
    std::string const ranks_built = rowscan::ranks::built_with();
    rowscan::io::write_standard_output("rowscan " ROWSCAN_VERSION " (" + engines_built() +
                                       (ranks_built.empty() ? "" : "; " + ranks_built) + ")\n");
    return success;
  }
  int code = usage;
  bool const known = command == "stations" || command == "generate" || command == "lineitem" || command == "group";
  if (known) apply_thread_environment();  // ROWSCAN_THREADS, OMP_NUM_THREADS: checked for every command
  if (command == "stations") {
    code = stations_command(argc - 1, argv + 1);
  } else if (command == "generate") {
    code = generate_command(argc - 1, argv + 1);
  } else if (command == "lineitem") {
    code = lineitem_command(argc - 1, argv + 1);
  } else if (command == "group") {
    code = group_command(argc - 1, argv + 1);
  } else {
    std::string const options_given = command.rfind('-', 0) == 0 ? " (options come after the command)" : "";
    throw usage_error("unknown command '" + command + "'" +
                      did_you_mean(command, {"stations", "lineitem", "group", "generate", "help", "--help", "--version"}) +
                      options_given);
  }
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
              << (chosen_engine() != nullptr && chosen_engine()->on_gpu() ? "host and device" : "host")
              << "); a smaller --chunk-size needs less\n";
  } catch (std::exception const& e) {
    std::cerr << "rowscan: error: " << cause(e.what()) << '\n';
  }
  return rowscan::app::failure;
}

}  // namespace rowscan::app
