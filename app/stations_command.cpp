// SPDX-License-Identifier: Apache-2.0
// `rowscan stations FILE`: the One Billion Row Challenge answer for a measurements file.
#include "commands.hpp"
#include "rowscan/explain/arrays.hpp"
#include "rowscan/io/input_file.hpp"
#include "rowscan/stations/format.hpp"
#include "rowscan/stations/summarize.hpp"

#include "command_line.hpp"
#include "explain.hpp"
#include "output.hpp"
#include "progress.hpp"

#include <cxxopts.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace rowscan::app {
namespace {

void print_stage_times(stations::summary const& s, double total_seconds) {
  auto const& t = s.times;
  auto line = [&](char const* stage, double seconds) {
    std::fprintf(stderr, "  %-18s %9.3f ms\n", stage, seconds * 1e3);
  };
  std::fprintf(stderr, "rowscan stations: %llu bytes, %llu lines, %zu stations, %zu chunk(s) of %zu bytes "
               "(%zu fast, %zu general), %.1f MiB of device memory\n",
               static_cast<unsigned long long>(s.bytes), static_cast<unsigned long long>(s.lines), s.stations.size(),
               s.chunks, s.chunk_size, s.fast_chunks, s.general_chunks, static_cast<double>(s.device_bytes) / (1 << 20));
  line("device setup", t.device_setup);
  line("reader setup", t.reader_setup);
  line("read (waiting)", t.read);
  line("copy to device", t.copy);
  line("find + parse", t.parse);
  line("sort", t.sort);
  line("reduce", t.reduce);
  line("merge", t.merge);
  line("general path", t.general);
  line("output", t.output);
  std::fprintf(stderr, "  %-18s %9.3f ms  (%.2f GB/s of text)\n", "total", total_seconds * 1e3,
               total_seconds > 0 ? static_cast<double>(s.bytes) / total_seconds / 1e9 : 0.0);
}

}  // namespace

int stations_command(int argc, char** argv) {
  cxxopts::Options options("rowscan stations",
                           "Per-station min/mean/max of `name;temperature` lines, exactly, in the One Billion Row "
                           "Challenge's format.");
  add_file_operand(options, "measurements file, or - for standard input");
  options.add_options()
      ("chunk-size", "bytes of text processed at once, 128 to 2G, with K, M or G for KiB, MiB or GiB "
                     "(default, or 0: sized from free device memory)", cxxopts::value<std::string>(), "BYTES")
      ("format", "output format: 1brc (the default), json or csv", cxxopts::value<std::string>(), "FORMAT")
      ("stats", "print a per-stage time breakdown to stderr")
      ("threads", "threads reading a regular file, 1 to 64 (default: one per core, up to 16)",
       cxxopts::value<std::string>(), "N")
      ("explain", "print every stage's arrays for a small input (at most 4096 bytes and 64 lines), then the "
                  "answer")
      ("no-progress", "no progress bar (it is shown only when stderr is a terminal and the run lasts over a second)");
  add_skip_invalid_option(options);
  options.add_options(testing_group)
      ("portable", "use only the portable Thrust compositions, not the CUB fast paths (for testing)")
      ("key-bits", "bits of the name hash used as sort key (testing aid: fewer bits force the exact "
                   "name-comparing fallback), 0 to 64 (default: 64)", cxxopts::value<std::string>(), "N");
  auto const parsed = parse_command_line(
      options, argc, argv, {{"file", "missing FILE"}},
      "FILE holds `name;temperature` lines; FILE may be - for standard input. The answer goes to stdout, errors\n"
      "and --stats to stderr. --explain takes only --format and --no-progress besides FILE.\n"
      "On the CPU build, OMP_NUM_THREADS sets the number of compute threads (default: one per core).\n"
      "Sizes take binary suffixes: 1K is 1024 bytes, 64M is 64 MiB, 1G is 1 GiB.\n");
  if (!parsed) return success;
  auto const& args = *parsed;

  reject_with_explain(args, {"chunk-size", "stats", "threads", "portable", "key-bits", "skip-invalid"});
  auto const format = stations::parse_output_format(
      parse_choice("format", option_text(args, "format").value_or("1brc"), {"1brc", "json", "csv"}));
  if (args.count("explain")) {
    io::input_file input(args["file"].as<std::string>());
    std::string const text = explain::read_small_input(input.fd(), input.label());
    std::ostringstream out;  // all of it, or nothing on stdout if the input is bad
    write_explained(out, stations::explain(text, input.label()), format);
    write_standard_output(out.str());
    return success;
  }

  stations::summarize_options opts;
  opts.chunk_size = chunk_size_option(args, stations::min_chunk_size, stations::max_chunk_size);
  if (auto const text = option_text(args, "key-bits")) {
    opts.key_bits = static_cast<unsigned>(parse_whole_number("key-bits", *text, 0, 64));
  }
  opts.time_stages = args.count("stats") > 0;
  opts.skip_invalid = args.count("skip-invalid") > 0;
  opts.fail_allocations_above = fail_allocations_above_from_environment();
  if (auto const text = option_text(args, "threads")) {
    opts.reader_threads = static_cast<unsigned>(parse_whole_number("threads", *text, 1, max_reader_threads));
  }
  opts.portable_only = args.count("portable") > 0;

  auto const start = std::chrono::steady_clock::now();
  io::input_file input(args["file"].as<std::string>());
  progress_meter progress(regular_file_bytes(input.fd()), args.count("no-progress") == 0 && ::isatty(STDERR_FILENO));
  opts.progress = [&progress](std::uint64_t done) { progress.update(done); };
  auto result = stations::summarize(input.fd(), input.label(), opts);
  progress.finish();

  // The whole answer is formatted before anything reaches stdout: an error prints nothing there.
  auto const output_start = std::chrono::steady_clock::now();
  std::ostringstream text;
  stations::write(text, result.stations, format);
  write_standard_output(text.str());
  report_skipped(result.skipped);
  auto const end = std::chrono::steady_clock::now();
  result.times.output += std::chrono::duration<double>(end - output_start).count();
  if (opts.time_stages) print_stage_times(result, std::chrono::duration<double>(end - start).count());
  return success;
}

}  // namespace rowscan::app
