// SPDX-License-Identifier: Apache-2.0
// app/command_line.hpp: the option handling every subcommand shares.
#pragma once

#include "rowscan/job/devices.hpp"
#include "rowscan/job/run_report.hpp"
#include "rowscan/skipped_lines.hpp"

#include "rowscan/error.hpp"
#include "rowscan/io/input_file.hpp"

#include "devices.hpp"
#include "rowscan/inputs/sources.hpp"
#include "omp_environment.hpp"
#include "option_values.hpp"
#include "rowscan/io/output.hpp"

#include <cxxopts.hpp>

#include <algorithm>
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

/// The text between cxxopts' quotes (U+2018, U+2019) in one of its messages.
inline std::string quoted_by_cxxopts(std::string const& message) {
  std::size_t const open = message.find("\xE2\x80\x98");
  std::size_t const close = message.find("\xE2\x80\x99");
  if (open == std::string::npos || close == std::string::npos || close < open) return message;
  return message.substr(open + 3, close - open - 3);
}

/// rowscan's wording for an option the command does not have, with the closest of the command's
/// (documented) options: `unknown option '--fromat'; did you mean '--format'?`.
inline std::string unknown_option_message(cxxopts::Options const& options, std::string const& cxxopts_message) {
  std::string const name = quoted_by_cxxopts(cxxopts_message);
  std::vector<std::string> known;
  for (std::string const& group : options.groups()) {
    if (group == positional_group || group == testing_group) continue;
    for (auto const& option : options.group_help(group).options) {
      for (std::string const& long_name : option.l) known.push_back(long_name);
    }
  }
  std::string const dashes = name.size() == 1 ? "-" : "--";
  return "unknown option '" + dashes + name + "'" + (name.size() == 1 ? "" : did_you_mean(name, known, "--"));
}

/// Adds -h/--help, parses, and prints the help (returning nothing) when asked: the options of the
/// default group, then notes (a paragraph or empty) and help_footer. Throws usage_error for a missing
/// required option or a stray argument.
/// The --help notes every job command shares: its inputs, its threads and its sizes.
inline std::string job_inputs_help() {
  return "FILE... may name directories: their files in name order, without names that start with '.'; their\n"
         "subdirectories with --recursive (else named in a warning). No file at all is an error. A UTF-8 byte order\n"
         "mark at the start of a file is skipped (byte offsets in errors still count it).\n"
         "--threads N, else ROWSCAN_THREADS=N, sets N reader and N compute threads; without either, OMP_NUM_THREADS\n"
         "sets the compute threads on the CPU build (default: one per core, less one from 16 cores).\n"
         "Sizes take binary suffixes: 1K = 1KiB = 1KB is 1024 bytes, 64M = 64MB is 64 MiB, 1G = 1GB is 1 GiB.\n";
}

inline std::optional<cxxopts::ParseResult> parse_command_line(cxxopts::Options& options, int argc, char** argv,
                                                              std::initializer_list<required_option> required,
                                                              std::string const& notes = "") {
  options.add_options()("h,help", "print this help to standard output");
  cxxopts::ParseResult args;
  try {
    args = options.parse(argc, argv);
  } catch (cxxopts::exceptions::no_such_option const& e) {
    throw usage_error(unknown_option_message(options, e.what()));
  } catch (cxxopts::exceptions::missing_argument const& e) {
    std::string const name = quoted_by_cxxopts(e.what());
    throw usage_error((name.size() == 1 ? "-" : "--") + name + " needs a value");
  } catch (cxxopts::exceptions::option_requires_argument const& e) {
    std::string const name = quoted_by_cxxopts(e.what());
    throw usage_error((name.size() == 1 ? "-" : "--") + name + " needs a value");
  }
  if (args.count("help")) {
    io::write_standard_output(options.help({""}) + "\n" + notes + help_footer);
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

/// The FILE operands as given; without any, standard input ("-") unless it is a terminal, as grep and
/// jq read it.
inline std::vector<std::string> file_operands(cxxopts::ParseResult const& args) {
  if (args.count("file") == 0) {
    if (::isatty(STDIN_FILENO)) throw usage_error("missing FILE (standard input is a terminal; give - to read it anyway)");
    return {"-"};
  }
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
      ("threads", "N threads compute (host workers, OpenMP) and N read a regular file (host workers alone: one "
                  "reader per four), 1 to 64 (default: ROWSCAN_THREADS, else OMP_NUM_THREADS compute and one reader "
                  "per core up to 16, else one per core; from 16 cores one compute thread fewer)",
       cxxopts::value<std::string>(), "N")
      ("stats", "print to stderr where the job ran, the time of each stage, and each worker's share")
      ("skip-invalid", "skip bad lines instead of stopping at the first; the answer covers the valid lines, and "
                       "stderr gets one line with the count and the first 5")
      ("no-progress", "no progress bar (it is shown only when stderr is a terminal and the run lasts over a second)")
      ("recursive", "read a directory's subdirectories too (without it they are skipped, and named in one warning "
                    "line on stderr); names that start with '.' are always skipped")
      ("crlf", "lines end with CR LF (Windows line endings): each CR before LF is dropped as the file is read; the "
               "file is then read as one stream");
  add_devices_option(options);
}

/// How the FILE operands are read (--recursive, --crlf).
inline inputs::input_settings input_settings_of(cxxopts::ParseResult const& args) {
  return {args.count("recursive") > 0, args.count("crlf") > 0};
}

/// The --explain input: the one FILE, opened as --crlf says. explained() runs an explanation of its
/// text and places any input_error in the file (past a byte order mark).
template <class Explain>
auto explained(io::input_file const& input, Explain&& explain) {
  try {
    return explain();
  } catch (input_error const& e) {
    std::uint64_t const shift = input.bom_bytes() + input.dropped_before_line(e.line() - 1);  // the mark, --crlf's CRs
    if (shift == 0) throw;
    throw input_error(input.label(), e.line(), e.byte_offset() + shift, e.why(), e.column(), e.quote());
  }
}

/// Without --threads N or ROWSCAN_THREADS=N, an OMP_NUM_THREADS that libgomp was not given
/// (omp_environment.hpp: not whole numbers from 1 to 64) is a usage error that names it; with either,
/// it is overridden, as the help says. Call it once the thread options are applied.
inline void reject_withheld_omp_num_threads() {
  char const* const value = withheld_omp_num_threads();
  if (value == nullptr || job::host_thread_limit() != 0) return;
  throw usage_error("OMP_NUM_THREADS: '" + std::string(value) + "' is not a number of threads from 1 to " +
                    std::to_string(max_reader_threads) + " (or a list such as 4,2); --threads N overrides it");
}

/// --threads N: N reader threads and N compute threads (job::limit_host_threads), in place of
/// ROWSCAN_THREADS, OMP_NUM_THREADS and one per core. Call it before anything asks how many.
inline void apply_threads_option(cxxopts::ParseResult const& args) {
  if (auto const text = option_text(args, "threads")) {
    job::limit_host_threads(static_cast<unsigned>(parse_whole_number("threads", *text, 1, max_reader_threads)));
  }
  reject_withheld_omp_num_threads();
}

/// ROWSCAN_THREADS=N, checked before anything runs: --threads N for every command (a bad value is a
/// usage error, as the option's is). --threads wins over it, and it over OMP_NUM_THREADS (whose
/// unusable values libgomp never sees: omp_environment.hpp).
inline void apply_thread_environment() {
  auto trimmed = [](char const* value) {
    std::string text(value);
    text.erase(0, text.find_first_not_of(" \t"));
    text.erase(text.find_last_not_of(" \t") + 1);
    return text;
  };
  if (char const* value = std::getenv("ROWSCAN_THREADS"); value != nullptr && *value != '\0') {
    std::string const text = trimmed(value);
    std::uint64_t n = 0;
    bool const digits = !text.empty() && text.size() <= 6 && text.find_first_not_of("0123456789") == std::string::npos;
    if (digits) n = std::stoull(text);
    if (!digits || n < 1 || n > max_reader_threads) {
      throw usage_error("ROWSCAN_THREADS: '" + std::string(value) + "' is not a number of threads from 1 to " +
                        std::to_string(max_reader_threads));
    }
    job::limit_host_threads(static_cast<unsigned>(n));
  }
}

/// The job driver's options as given, checked (progress is the caller's: see progress_meter).
inline void read_job_options(cxxopts::ParseResult const& args, std::size_t min_chunk, job::job_options& out) {
  out.chunk_size = chunk_size_option(args, min_chunk, job::max_chunk_size);
  apply_threads_option(args);
  if (unsigned const threads = job::host_thread_limit()) {
    out.reader_threads = threads;  // --threads N or ROWSCAN_THREADS=N: N readers, N host workers
    out.workers = threads;
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
