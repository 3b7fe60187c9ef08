// SPDX-License-Identifier: Apache-2.0
// `rowscan lineitem FILE --suppkey-below Z`: SUM(l_quantity * l_extendedprice) WHERE l_suppkey < Z, exactly.
#include "commands.hpp"
#include "rowscan/job/timeline.hpp"
#include "rowscan/error.hpp"
#include "rowscan/explain/arrays.hpp"
#include "rowscan/io/input_file.hpp"
#include "rowscan/lineitem/format.hpp"
#include "rowscan/lineitem/summary.hpp"

#include "command_line.hpp"
#include "devices.hpp"
#include "rowscan/explain/write.hpp"
#include "progress.hpp"
#include "rowscan/process/ranks.hpp"
#include "run_operands.hpp"
#include "stats.hpp"
#include "rowscan/inputs/workloads.hpp"
#include "rowscan/lineitem/workload.hpp"
#include "output.hpp"

#include <cxxopts.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace rowscan::app {
namespace {

/// The --stats headline: what was read and how it was cut, then the load's and the query's rates. The
/// query's rate counts the rows of the blocks queried as columns; a run whose blocks were all summed in
/// one pass has no such query: its query is inside the load.
std::string headline(lineitem::summary const& s) {
  char query[160];
  if (s.query_seconds > 0) {
    std::snprintf(query, sizeof query, "query %.3f ms (%s of columns, %zu threshold(s))", s.query_seconds * 1e3,
                  rate_text(static_cast<double>(s.queried_rows) * 12.0, s.query_seconds).c_str(), s.answers.size());
  } else {
    std::snprintf(query, sizeof query, "query in the one pass (%zu threshold(s))", s.answers.size());
  }
  char text[480];
  std::snprintf(text, sizeof text,
                "%llu bytes, %llu rows, %zu chunk(s) of %zu bytes; load %.3f ms (%s of text), %s, "
                "%.1f MiB pool peak",
                static_cast<unsigned long long>(s.bytes), static_cast<unsigned long long>(s.rows), s.chunks,
                s.chunk_size, s.load_seconds * 1e3, rate_text(static_cast<double>(s.bytes), s.load_seconds).c_str(), query,
                static_cast<double>(s.pool_peak_bytes) / (1 << 20));
  return text;
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
      ("explain", "print every stage's arrays for a small input (at most 4096 bytes and 64 lines), then the "
                  "answer");
  add_job_options(options, lineitem::min_chunk_size);
  auto const parsed = parse_command_line(
      options, argc, argv, {{"suppkey-below", "missing --suppkey-below Z"}},
      "FILE is a TPC-H lineitem.tbl as dbgen writes it (16 fields, each followed by '|'); FILE may be - for\n"
      "standard input. --suppkey-below is required. --explain takes only --suppkey-below, --devices\n"
      "and --crlf besides FILE.\n"
      + job_inputs_help());
  if (!parsed) return success;
  auto const& args = *parsed;
  reject_with_explain(args, {"recursive", "chunk-size", "threads", "stats", "skip-invalid", "format", "gpu-joins-after"});
  apply_threads_option(args);  // before anything asks how many host workers there are
  auto const operands = file_operands(args);  // named: the engine chosen outlives it, gcc 13 cannot tell
  engine const& on = choose_engine(args, operands, args.count("stats") > 0);
  std::string const format = parse_choice("format", option_text(args, "format").value_or("text"), {"text", "json"});

  lineitem::summarize_options opts;
  try {
    opts.suppkey_below = lineitem::parse_thresholds(args["suppkey-below"].as<std::string>());
  } catch (error const& e) {
    throw usage_error(e.what());  // a malformed option is a usage error
  }
  if (args.count("explain")) {
    use_chosen_gpu(args, on);
    io::input_file input(single_file_operand(args), io::text_options{args.count("crlf") > 0});
    std::string const text = explain::read_small_input(input.fd(), input.label());
    std::ostringstream out;  // all of it, or nothing on stdout if the input is bad
    explain::write_explained(out, explained(input, [&] { return lineitem::workload::explain(on, text, input.label(), opts); }));
    write_standard_output(out.str());
    return success;
  }
  read_job_options(args, lineitem::min_chunk_size, opts);

  auto const start = std::chrono::steady_clock::now();
  scale_out_report ranks_report;
  auto const answer = run_operands(args, on, operands, input_settings_of(args), opts,
                                   inputs::workload_of<lineitem::workload>(on, opts), ranks_report);
  job::timeline_mark("run returned");  // the engine's workers are gone: their memory freed
  if (!answer) return success;  // not rank 0: rank 0 writes the answer
  lineitem::summary const& result = *answer;

  // The whole answer is formatted before anything reaches stdout: an error prints nothing there.
  std::string const text = format == "json" ? lineitem::format_json(result, opts.time_stages) : lineitem::format_text(result);
  write_standard_output(text);
  job::timeline_mark("answer written");
  report_skipped(result.skipped);
  if (opts.time_stages) {
    print_stats("lineitem", headline(result), result,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    print_rank_figures("lineitem", ranks_report);
  }
  return success;
}

}  // namespace rowscan::app
