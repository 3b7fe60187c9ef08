// `rowscan stations FILE`: the One Billion Row Challenge answer for a measurements file.
#include "commands.hpp"
#include "rowscan/explain/arrays.hpp"
#include "rowscan/io/input_file.hpp"
#include "rowscan/stations/format.hpp"
#include "rowscan/stations/summarize.hpp"

#include "command_line.hpp"
#include "explain.hpp"
#include "progress.hpp"
#include "stats.hpp"

#include <cxxopts.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace rowscan::app {
namespace {

/// The --stats headline: what was read, how it was cut, which paths the blocks took.
std::string headline(stations::summary const& s) {
  char text[256];
  std::snprintf(text, sizeof text,
                "%llu bytes, %llu lines, %zu stations, %zu chunk(s) of %zu bytes (%zu fast, %zu general), "
                "%.1f MiB of device memory, %.1f MiB pool peak",
                static_cast<unsigned long long>(s.bytes), static_cast<unsigned long long>(s.lines), s.stations.size(),
                s.chunks, s.chunk_size, s.fast_chunks, s.general_chunks, static_cast<double>(s.device_bytes) / (1 << 20),
                static_cast<double>(s.pool_peak_bytes) / (1 << 20));
  return text;
}

}  // namespace

int stations_command(int argc, char** argv) {
  cxxopts::Options options("rowscan stations",
                           "Per-station min/mean/max of `name;temperature` lines, exactly, in the One Billion Row "
                           "Challenge's format.\n\n"
                           "Memory (host RSS on the CPU; docs/performance.md): at most about\n"
                           "  14 C + 320 S + 5 N + 32 MiB\n"
                           "for C bytes of --chunk-size, S distinct stations and N bytes of their names. A smaller\n"
                           "--chunk-size shrinks only 14 C; the station table (320 S + 5 N) needs its memory at any\n"
                           "chunk size, and an error that it ran out says so.");
  options.positional_help("FILE").show_positional_help();
  options.add_options()
      ("file", "measurements file, or - for standard input", cxxopts::value<std::string>())
      ("format", "output format: 1brc, json or csv", cxxopts::value<std::string>()->default_value("1brc"))
      ("portable", "use only the portable Thrust compositions, not the CUB fast paths (for testing)")
      ("explain", "print every stage's arrays for a small input (at most 4096 bytes and 64 lines), then the "
                  "answer")
      ("key-bits", "bits of the name hash used as sort key (testing aid: fewer bits force the exact "
                   "name-comparing fallback)", cxxopts::value<unsigned>()->default_value("64"), "N");
  add_job_options(options);
  options.parse_positional({"file"});
  auto const parsed = parse_command_line(options, argc, argv, {{"file", "missing FILE"}});
  if (!parsed) return success;
  auto const& args = *parsed;

  reject_with_explain(args, {"chunk-size", "stats", "threads", "portable", "key-bits", "skip-invalid"});
  auto const format = stations::parse_output_format(args["format"].as<std::string>());
  if (args.count("explain")) {
    io::input_file input(args["file"].as<std::string>());
    std::string const text = explain::read_small_input(input.fd(), input.label());
    std::ostringstream out;  // all of it, or nothing on stdout if the input is bad
    write_explained(out, stations::explain(text, input.label()), format);
    std::cout << out.str() << std::flush;
    return std::cout ? success : failure;
  }

  stations::summarize_options opts;
  read_job_options(args, opts);
  opts.key_bits = args["key-bits"].as<unsigned>();
  opts.portable_only = args.count("portable") > 0;

  auto const start = std::chrono::steady_clock::now();
  io::input_file input(args["file"].as<std::string>());
  progress_meter progress(regular_file_bytes(input.fd()), wants_progress(args));
  opts.progress = [&progress](std::uint64_t done) { progress.update(done); };
  auto result = stations::summarize(input.fd(), input.label(), opts);
  progress.finish();

  // The whole answer is formatted before anything reaches stdout: an error prints nothing there.
  auto const output_start = std::chrono::steady_clock::now();
  std::ostringstream text;
  stations::write(text, result.stations, format);
  std::cout << text.str() << std::flush;
  report_skipped(result.skipped);
  auto const end = std::chrono::steady_clock::now();
  result.times.add("output", std::chrono::duration<double>(end - output_start).count());
  if (opts.time_stages) print_stats("stations", headline(result), result, std::chrono::duration<double>(end - start).count());
  return std::cout ? success : failure;
}

}  // namespace rowscan::app
