// SPDX-License-Identifier: Apache-2.0
// `rowscan stations FILE`: the One Billion Row Challenge answer for a measurements file.
#include "commands.hpp"
#include "run_operands.hpp"
#include "rowscan/explain/write.hpp"
#include "rowscan/stations/format.hpp"
#include "rowscan/stations/workload.hpp"

#include <cxxopts.hpp>

#include <cstdio>
#include <string>

namespace rowscan::app {
namespace {

/// The --stats headline: what was read, how it was cut, which paths the blocks took and why.
std::string headline(stations::summary const& s, bool on_gpu) {
  char text[256];
  std::snprintf(text, sizeof text, "%llu bytes, %llu lines, %zu stations, %zu chunk(s) of %zu bytes (%zu fast, %zu general), ",
                static_cast<unsigned long long>(s.bytes), static_cast<unsigned long long>(s.lines), s.stations.size(),
                s.chunks, s.chunk_size, s.fast_chunks, s.general_chunks);
  std::string line = text;
  if (on_gpu) {  // the device's memory held at the end beyond the start (the host's: the memory line below)
    std::snprintf(text, sizeof text, "%.1f MiB of device memory, ", static_cast<double>(s.device_bytes) / (1 << 20));
    line += text;
  }
  std::snprintf(text, sizeof text, "%.1f MiB pool peak", static_cast<double>(s.pool_peak_bytes) / (1 << 20));
  line += text;
  if (s.general_chunks == 0) return line;
  // Why the general path ran: a block that met stations its worker did not know yet (or a bad line), or
  // one that began with more stations than the fast path's ids number.
  std::snprintf(text, sizeof text,
                "\n general path: %zu chunk(s) met stations new to their worker or a bad line; %zu began with "
                "more than %zu stations, the 16-bit ids' limit",
                s.general_chunks - s.over_limit_chunks, s.over_limit_chunks, stations::max_fast_path_stations);
  line += text;
  if (on_gpu || s.over_limit_chunks == 0) return line;
  // The host's workers name up to max_wide_fold_stations stations by 32-bit ids: such a block took the
  // fast path for its known stations' lines, and the general path for the others'.
  std::snprintf(text, sizeof text,
                " (up to %zu stations a CPU worker folds the lines of known stations by 32-bit ids, and only "
                "the others take the general path)",
                stations::max_wide_fold_stations);
  return line + text;
}

}  // namespace

int stations_command(int argc, char** argv) {
  cxxopts::Options options("rowscan stations",
                           "Per-station min/mean/max of `name;temperature` lines, exactly, in the One Billion Row "
                           "Challenge's format.\n\n"
                           "Memory (host RSS on the CPU; docs/performance.md): at most about\n"
                           "  2 C + W (12 C + 640 S + 12 N) + 32 MiB\n"
                           "for C bytes of --chunk-size, W workers (1 on a GPU; the compute threads on the CPU build), S\n"
                           "distinct stations and N bytes of their names. A smaller --chunk-size shrinks only the\n"
                           "C terms; the station table (640 S + 12 N) needs its memory at any chunk size, and an\n"
                           "error that it ran out says so.\n\n"
                           "Stations: the fast path names up to " + std::to_string(stations::max_fast_path_stations) +
                           " distinct stations by 16-bit ids; CPU workers go on by 32-bit\n"
                           "ids up to " + std::to_string(stations::max_wide_fold_stations) +
                           ", folding known stations' lines by id and only the others on the general path.\n"
                           "Past that, every later block takes the general path: it sorts the block's lines by a 64-bit\n"
                           "key into a table of the block's stations, folds those the worker's table has into its rows\n"
                           "where they are, and every few blocks the tables of the others join the worker's table: one\n"
                           "sort of their rows and a pass over the table's rows (not its names); --stats counts the\n"
                           "blocks and says why. Measured on 2 cores, 1e7 rows: 65,536 stations cost 1.1 times the CPU\n"
                           "time of 65,535, and 1,000,000 stations 0.88 times DuckDB's CPU time and 0.87 times its wall\n"
                           "time (docs/stations.md, \"A million stations\").");
  add_file_operand(options, "measurements file, or - for standard input");
  options.add_options()
      ("format", "output format: 1brc (the default), json or csv", cxxopts::value<std::string>(), "FORMAT")
      ("explain", "print every stage's arrays for a small input (at most 4096 bytes and 64 lines), then the "
                  "answer");
  add_job_options(options, stations::min_chunk_size);
  options.add_options(testing_group)
      ("portable", "use only the portable Thrust compositions, not the CUB fast paths (for testing)")
      ("key-bits", "bits of the name hash used as sort key (testing aid: fewer bits force the exact "
                   "name-comparing fallback), 0 to 64 (default: 64)", cxxopts::value<std::string>(), "N");
  auto const parsed = parse_command_line(
      options, argc, argv, {},
      "FILE holds `name;temperature` lines; FILE may be - for standard input. The answer goes to stdout, errors\n"
      "and --stats to stderr. --explain takes only --format (1brc or csv), --no-progress, --devices and --crlf\n"
      "besides FILE.\n"
      + job_inputs_help());
  if (!parsed) return success;
  auto const& args = *parsed;

  reject_with_explain(args, {"recursive", "chunk-size", "stats", "threads", "portable", "key-bits", "skip-invalid", "gpu-joins-after"});
  apply_threads_option(args);  // before anything asks how many host workers there are
  auto const operands = file_operands(args);  // named: the engine chosen outlives it, gcc 13 cannot tell
  engine const& on = choose_engine(args, operands, args.count("stats") > 0);
  auto const format = stations::parse_output_format(
      parse_choice("format", option_text(args, "format").value_or("1brc"), {"1brc", "json", "csv"}));
  if (args.count("explain")) {
    // --explain's arrays are text for a reader: a JSON document cannot hold them as they are printed.
    if (format == stations::output_format::json) throw usage_error("--explain prints text; it cannot be combined with --format json");
    bool const crlf = args.count("crlf") > 0;
    print_explained(args, on, crlf, [&](std::ostream& out, io::input_file const& in, std::string const& text) {
      auto const e = explained(in, [&] { return stations::workload::explain(on, text, in.label(), {}); });
      explain::write_explained(out, e, format);
    });
    return success;
  }

  stations::summarize_options opts;
  read_job_options(args, stations::min_chunk_size, opts);
  if (auto const text = option_text(args, "key-bits")) {
    opts.key_bits = static_cast<unsigned>(parse_whole_number("key-bits", *text, 0, 64));
  }
  opts.portable_only = args.count("portable") > 0;

  answer_operands<stations::workload>(
      "stations", args, on, operands, input_settings_of(args), opts,
      [&](std::ostream& out, stations::summary const& s) { stations::write(out, s.stations, format); },
      [&](stations::summary const& s) { return headline(s, on.on_gpu()); });
  return success;
}

}  // namespace rowscan::app
