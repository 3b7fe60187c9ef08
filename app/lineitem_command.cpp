// SPDX-License-Identifier: Apache-2.0
// `rowscan lineitem FILE --suppkey-below Z`: SUM(l_quantity * l_extendedprice) WHERE l_suppkey < Z, exactly.
#include "commands.hpp"
#include "rowscan/error.hpp"
#include "rowscan/explain/arrays.hpp"
#include "rowscan/io/input_file.hpp"
#include "rowscan/lineitem/summarize.hpp"

#include "command_line.hpp"
#include "explain.hpp"
#include "output.hpp"

#include <cxxopts.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace rowscan::app {
namespace {

void print_stage_times(lineitem::summary const& s, double total_seconds) {
  auto const& t = s.times;
  auto line = [](char const* stage, double seconds) { std::fprintf(stderr, "  %-13s %9.3f ms\n", stage, seconds * 1e3); };
  auto rate = [](double bytes, double seconds) { return seconds > 0 ? bytes / seconds / 1e9 : 0.0; };
  std::fprintf(stderr, "rowscan lineitem: %llu bytes, %llu rows, %zu chunk(s) of %zu bytes\n",
               static_cast<unsigned long long>(s.bytes), static_cast<unsigned long long>(s.rows), s.chunks,
               s.chunk_size);
  line("read", t.read);
  line("copy", t.copy);
  line("find records", t.find_records);
  line("find fields", t.find_fields);
  line("parse", t.parse);
  std::fprintf(stderr, "  %-13s %9.3f ms  (%.2f GB/s of text)\n", "load", t.load * 1e3,
               rate(static_cast<double>(s.bytes), t.load));
  std::fprintf(stderr, "  %-13s %9.3f ms  (%.2f GB/s of columns, %zu threshold(s))\n", "query", t.query * 1e3,
               rate(static_cast<double>(s.rows) * 12.0, t.query), s.answers.size());
  line("total", total_seconds);
}

}  // namespace

int lineitem_command(int argc, char** argv) {
  cxxopts::Options options("rowscan lineitem",
                           "SELECT SUM(l_quantity * l_extendedprice) FROM lineitem WHERE l_suppkey < Z, exactly, "
                           "for a TPC-H lineitem.tbl as dbgen writes it.");
  add_file_operand(options, "lineitem.tbl, or - for standard input");
  options.add_options()
      ("suppkey-below", "the threshold Z, or several as Z1,Z2,... (one pass, one line each, in this order)",
       cxxopts::value<std::string>(), "Z")
      ("format", "output format: text (the default) or json (json adds matched row counts; with --stats, timings)",
       cxxopts::value<std::string>(), "FORMAT")
      ("chunk-size", "bytes of text processed at once, 256 to 2G, with K, M or G for KiB, MiB or GiB "
                     "(default, or 0: sized from free device memory)", cxxopts::value<std::string>(), "BYTES")
      ("stats", "print load and query times to stderr")
      ("explain", "print every stage's arrays for a small input (at most 4096 bytes and 64 lines), then the "
                  "answer");
  add_skip_invalid_option(options);
  auto const parsed = parse_command_line(
      options, argc, argv, {{"file", "missing FILE"}, {"suppkey-below", "missing --suppkey-below Z"}},
      "FILE is a TPC-H lineitem.tbl as dbgen writes it (16 fields, each followed by '|'); FILE may be - for\n"
      "standard input. --suppkey-below is required. --explain takes only --suppkey-below besides FILE.\n"
      "On the CPU build, OMP_NUM_THREADS sets the number of compute threads (default: one per core).\n"
      "Sizes take binary suffixes: 1K is 1024 bytes, 64M is 64 MiB, 1G is 1 GiB.\n");
  if (!parsed) return success;
  auto const& args = *parsed;
  reject_with_explain(args, {"chunk-size", "stats", "skip-invalid", "format"});
  std::string const format = parse_choice("format", option_text(args, "format").value_or("text"), {"text", "json"});

  lineitem::summarize_options opts;
  try {
    opts.suppkey_below = lineitem::parse_thresholds(args["suppkey-below"].as<std::string>());
  } catch (error const& e) {
    throw usage_error(e.what());  // a malformed option is a usage error
  }
  if (args.count("explain")) {
    io::input_file input(args["file"].as<std::string>());
    std::string const text = explain::read_small_input(input.fd(), input.label());
    std::ostringstream out;  // all of it, or nothing on stdout if the input is bad
    write_explained(out, lineitem::explain(text, input.label(), opts.suppkey_below));
    write_standard_output(out.str());
    return success;
  }
  opts.chunk_size = chunk_size_option(args, lineitem::min_chunk_size, lineitem::max_chunk_size);
  opts.time_stages = args.count("stats") > 0;
  opts.skip_invalid = args.count("skip-invalid") > 0;
  opts.fail_allocations_above = fail_allocations_above_from_environment();

  auto const start = std::chrono::steady_clock::now();
  io::input_file input(args["file"].as<std::string>());
  lineitem::summary const result = lineitem::summarize(input.fd(), input.label(), opts);

  // The whole answer is formatted before anything reaches stdout: an error prints nothing there.
  std::string const text = format == "json" ? lineitem::format_json(result, opts.time_stages) : lineitem::format_text(result);
  write_standard_output(text);
  report_skipped(result.skipped);
  if (opts.time_stages) {
    print_stage_times(result, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return success;
}

}  // namespace rowscan::app
