// SPDX-License-Identifier: Apache-2.0
// `rowscan lineitem FILE --suppkey-below Z`: SUM(l_quantity * l_extendedprice) WHERE l_suppkey < Z, exactly.
#include "commands.hpp"
#include "run_operands.hpp"
#include "rowscan/error.hpp"
#include "rowscan/explain/write.hpp"
#include "rowscan/lineitem/format.hpp"
#include "rowscan/lineitem/workload.hpp"

#include <cxxopts.hpp>

#include <cstdio>

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
    bool const crlf = args.count("crlf") > 0;
    print_explained(args, on, crlf, [&](std::ostream& out, io::input_file const& in, std::string const& text) {
      auto const e = explained(in, [&] { return lineitem::workload::explain(on, text, in.label(), opts); });
      explain::write_explained(out, e);
    });
    return success;
  }
  read_job_options(args, lineitem::min_chunk_size, opts);

  answer_operands<lineitem::workload>(
      "lineitem", args, on, operands, input_settings_of(args), opts,
      [&](std::ostream& out, lineitem::summary const& s) {
        out << (format == "json" ? lineitem::format_json(s, opts.time_stages) : lineitem::format_text(s));
      },
      [](lineitem::summary const& s) { return headline(s); });
  return success;
}

}  // namespace rowscan::app
