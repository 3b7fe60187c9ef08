// SPDX-License-Identifier: Apache-2.0
// app/command_line.hpp: the option handling every subcommand shares.
#pragma once

#include "rowscan/job/driver.hpp"
#include "rowscan/skipped_lines.hpp"

#include "devices.hpp"
#include "option_values.hpp"
#include "output.hpp"

#include <cxxopts.hpp>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>
#include <unistd.h>

namespace rowscan::app {

/// The most reader threads --threads may ask for.
constexpr std::uint64_t max_reader_threads = 64;

/// The text given to an option, if it was given.
inline std::optional<std::string> option_text(cxxopts::ParseResult const& args, char const* name) {
  if (args.count(name) == 0) return std::nullopt;
  return args[name].as<std::string>();
}

/// --chunk-size: 0 (the default, sized from free memory) or a size from min to max.
inline std::size_t chunk_size_option(cxxopts::ParseResult const& args, std::size_t min, std::size_t max) {
  auto const text = option_text(args, "chunk-size");
  if (!text) return 0;
  std::uint64_t const bytes = parse_size("chunk-size", *text, 0, ~std::uint64_t{0});
  if (bytes != 0 && (bytes < min || bytes > max)) {
    throw usage_error("--chunk-size: '" + *text + "' is out of range (" + format_size(min) + " to " + format_size(max) +
                      " bytes, or 0 for the default)");
  }
  return static_cast<std::size_t>(bytes);
}

/// A required option and the usage error given when it is missing.
using required_option = std::pair<char const*, char const*>;

/// Option groups that --help leaves out: the positional FILE (the usage line names it) and switches
/// that exist for the tests (--key-bits, --portable; CONTRIBUTING.md lists them).
constexpr char const* positional_group = "positional";
constexpr char const* testing_group = "testing";

/// What every command's help ends with, after its own notes.
constexpr char const* help_footer =
    "Exit codes: 0 the answer, 1 bad input or a runtime error (a missing file, a failed write), 2 a usage error.\n";

/// Adds -h/--help, parses, and prints the help (returning nothing) when asked: the options of the
/// default group, then notes (a paragraph or empty) and help_footer. Throws usage_error for a missing
/// required option or a stray argument.
inline std::optional<cxxopts::ParseResult> parse_command_line(cxxopts::Options& options, int argc, char** argv,
                                                              std::initializer_list<required_option> required,
                                                              std::string const& notes = "") {
  options.add_options()("h,help", "print this help to standard output");
  auto args = options.parse(argc, argv);
  if (args.count("help")) {
    write_standard_output(options.help({""}) + "\n" + notes + help_footer);
    return std::nullopt;
  }
  for (auto const& [name, message] : required) {
    if (!args.count(name)) throw usage_error(message);
  }
  if (!args.unmatched().empty()) {
    throw usage_error("unexpected argument '" + args.unmatched()[0] + "'");
  }
  return args;
}

/// --explain runs its own small, single-chunk pipeline; options that tune or report the streamed run
/// would do nothing there, so naming one with it is a usage error rather than silently ignored.
inline void reject_with_explain(cxxopts::ParseResult const& args, std::initializer_list<char const*> streamed_only) {
  if (!args.count("explain")) return;
  for (char const* name : streamed_only) {
    if (args.count(name)) {
      throw usage_error("--explain cannot be combined with --" + std::string(name));
    }
  }
}

/// The input operands both workloads share, in the hidden positional group: FILE... (files,
/// directories, or - for standard input; app/inputs.hpp).
inline void add_file_operand(cxxopts::Options& options, char const* what) {
  options.positional_help("FILE...").show_positional_help();
  options.add_options(positional_group)("file", what, cxxopts::value<std::vector<std::string>>());
  options.parse_positional({"file"});
}

/// The FILE operands as given.
inline std::vector<std::string> file_operands(cxxopts::ParseResult const& args) {
  return args["file"].as<std::vector<std::string>>();
}

/// The one FILE that --explain reads; a usage error if several were given.
inline std::string single_file_operand(cxxopts::ParseResult const& args) {
  auto const files = file_operands(args);
  if (files.size() != 1) throw usage_error("--explain reads one FILE, not " + std::to_string(files.size()));
  return files.front();
}

/// After the answer: the one stderr line saying what --skip-invalid left out (nothing if nothing was).
inline void report_skipped(skipped_lines const& skipped) {
  if (skipped.count() > 0) std::cerr << "rowscan: " << skipped.summary() << '\n';
}

/// Testing aid: ROWSCAN_FAIL_ALLOC_ABOVE=BYTES makes chunk-sized device arrays above BYTES fail as on
/// a full device (summarize_options::fail_allocations_above). Unset, empty or 0: never.
inline std::size_t fail_allocations_above_from_environment() {
  char const* value = std::getenv("ROWSCAN_FAIL_ALLOC_ABOVE");
  if (value == nullptr || *value == '\0') return 0;
  std::string_view const text(value);
  std::size_t bytes = 0;
  auto const [end, failure] = std::from_chars(text.data(), text.data() + text.size(), bytes);
  if (failure != std::errc{} || end != text.data() + text.size()) {
    throw usage_error("ROWSCAN_FAIL_ALLOC_ABOVE must be a number of bytes, not '" + std::string(value) + "'");
  }
  return bytes;
}

/// The options of the job driver (rowscan/job/driver.hpp), the same for every workload; min_chunk is
/// the workload's smallest chunk.
inline void add_job_options(cxxopts::Options& options, std::size_t min_chunk) {
  options.add_options()
      ("chunk-size", "bytes of text processed at once, " + format_size(min_chunk) + " to " +
                     format_size(job::max_chunk_size) + ", with K, M or G for KiB, MiB or GiB (default, or 0: " +
                     "chosen for the system: from free device memory on a GPU, a few MiB per worker on the CPU build)", cxxopts::value<std::string>(),
       "BYTES")
      ("threads", "threads reading a regular file, 1 to 64 (default: one per core, up to 16)",
       cxxopts::value<std::string>(), "N")
      ("stats", "print to stderr where the job ran, the time of each stage, and each worker's share")
      ("skip-invalid", "skip bad lines instead of stopping at the first; the answer covers the valid lines, and "
                       "stderr gets one line with the count and the first 5")
      ("no-progress", "no progress bar (it is shown only when stderr is a terminal and the run lasts over a second)");
  add_devices_option(options);
}

/// The job driver's options as given, checked (progress is the caller's: see progress_meter).
inline void read_job_options(cxxopts::ParseResult const& args, std::size_t min_chunk, job::job_options& out) {
  out.chunk_size = chunk_size_option(args, min_chunk, job::max_chunk_size);
  if (auto const text = option_text(args, "threads")) {
    out.reader_threads = static_cast<unsigned>(parse_whole_number("threads", *text, 1, max_reader_threads));
  }
  out.time_stages = args.count("stats") > 0;
  out.skip_invalid = args.count("skip-invalid") > 0;
  out.fail_allocations_above = fail_allocations_above_from_environment();
}

/// Whether to draw a progress bar: not asked away, and stderr is a terminal.
inline bool wants_progress(cxxopts::ParseResult const& args) {
  return args.count("no-progress") == 0 && ::isatty(STDERR_FILENO);
}

}  // namespace rowscan::app
