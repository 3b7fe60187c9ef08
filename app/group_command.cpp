// SPDX-License-Identifier: Apache-2.0
// `rowscan group FILE... --key K --value V`: exact count, missing, min, mean, max and sum of value
// columns by key, for any delimited file, quoted CSV (RFC 4180) included.
#include "commands.hpp"
#include "run_operands.hpp"
#include "rowscan/explain/write.hpp"
#include "rowscan/group/format.hpp"
#include "rowscan/group/workload.hpp"
#include "rowscan/inputs/header.hpp"

#include <cxxopts.hpp>

#include <algorithm>
#include <cstdio>

namespace rowscan::app {
namespace {

/// --delimiter or --quote: one byte, `\t` spelled so.
char single_byte(char const* option, std::string const& text) {
  if (text == "\\t") return '\t';
  if (text.size() != 1)
    throw usage_error(std::string("--") + option + ": '" + text + "' is not a single byte (`\\t` for a tab)");
  if (text[0] == '\n' || text[0] == '\r') throw usage_error(std::string("--") + option + " cannot be a line ending");
  return text[0];
}

/// --key or --value: a list of columns, each a position from 1 or (with --header) a header name.
std::vector<std::uint32_t> columns_of(char const* option, std::string const& text,
                                      std::vector<std::string> const& header, std::size_t most,
                                      std::vector<std::string>* names) {
  std::vector<std::uint32_t> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t const comma = std::min(text.find(',', at), text.size());
    std::string const part = text.substr(at, comma - at);
    at = comma + 1;
    bool const number = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
    if (number) {
      std::uint64_t const column = parse_whole_number(option, part, 1, 1u << 20);
      out.push_back(static_cast<std::uint32_t>(column - 1));
      if (names != nullptr) names->push_back(column - 1 < header.size() ? header[column - 1] : part);
    } else {
      if (header.empty()) {
        throw usage_error(std::string("--") + option + ": '" + part +
                          "' is not a column position (from 1); names need --header");
      }
      auto const found = std::find(header.begin(), header.end(), part);
      if (found == header.end()) {
        throw usage_error(std::string("--") + option + ": no column '" + part + "' in the header" +
                          did_you_mean(part, header, ""));
      }
      out.push_back(static_cast<std::uint32_t>(found - header.begin()));
      if (names != nullptr) names->push_back(part);
    }
  }
  if (out.size() > most) {
    throw usage_error(std::string("--") + option + ": at most " + std::to_string(most) + " columns");
  }
  return out;
}

/// The --stats headline.
std::string headline(group::summary const& s, bool on_gpu) {
  char text[256];
  std::snprintf(text, sizeof text,
                "%llu bytes, %llu lines, %llu records, %zu keys, %zu chunk(s) of %zu bytes, %.1f MiB of %s memory",
                static_cast<unsigned long long>(s.bytes), static_cast<unsigned long long>(s.lines),
                static_cast<unsigned long long>(s.records), s.rows.size(), s.chunks, s.chunk_size,
                static_cast<double>(s.device_bytes) / (1 << 20), on_gpu ? "device" : "host");
  return text;
}

}  // namespace

int group_command(int argc, char** argv) {
  cxxopts::Options options(
      "rowscan group",
      "Exact count, missing, min, mean, max and sum of value columns by key, for any delimited file, "
      "quoted CSV (RFC 4180) included.");
  add_file_operand(options, "delimited text file, or - for standard input");
  options.add_options()("key", "the key column(s): positions from 1, or header names with --header; several as K1,K2",
                        cxxopts::value<std::string>(), "K")(
      "value", "the value column(s), decimals -?digits(.digits)?; several as V1,V2", cxxopts::value<std::string>(),
      "V")("delimiter", "the field delimiter, one byte (default ','; `\\t` for a tab)", cxxopts::value<std::string>(),
           "C")("header", "every file's first record names the columns (it is not data)")(
      "quote", "the quote byte of quoted fields (default '\"')", cxxopts::value<std::string>(), "C")(
      "no-quote", "no quoting: every '\\n' ends a record and quotes are data")(
      "scale",
      "digits after the point of every figure, 0 to 18 (default: the most any value of the column has); "
      "a value with more is an error",
      cxxopts::value<std::string>(),
      "N")("format", "output format: csv (the default), json or 1brc", cxxopts::value<std::string>(), "FORMAT")(
      "explain", "print every stage's arrays for a small input (at most 4096 bytes and 64 lines), then the answer");
  add_job_options(options, group::min_chunk_size);
  options.add_options(testing_group)(
      "key-bits",
      "bits of the key hash sorted on (testing aid: fewer bits force the exact byte-comparing fallback), "
      "0 to 64 (default: 64)",
      cxxopts::value<std::string>(), "N");
  auto const parsed = parse_command_line(
      options, argc, argv, {{"key", "missing --key"}, {"value", "missing --value"}},
      "FILE holds records of delimited fields; records end with LF or CR LF, and a quoted field may hold the\n"
      "delimiter, line endings and doubled quotes. An empty value is missing: counted apart, and a key whose\n"
      "values are all missing has count 0 and empty min, mean, max and sum. The mean is rounded half up at the\n"
      "column's scale. The answer goes to stdout in key byte order, errors and --stats to stderr. --explain takes\n"
      "only the format options, --no-progress and --devices besides FILE.\n" +
          job_inputs_help());
  if (!parsed) return success;
  auto const& args = *parsed;

  reject_with_explain(args,
                      {"recursive", "chunk-size", "stats", "threads", "key-bits", "skip-invalid", "gpu-joins-after"});
  group::summarize_options opts;
  group::text_format& format = opts.format;
  if (auto const d = option_text(args, "delimiter")) format.delimiter = single_byte("delimiter", *d);
  if (args.count("no-quote") && args.count("quote")) throw usage_error("--quote and --no-quote cannot be combined");
  format.quote = args.count("no-quote") ? '\0' : single_byte("quote", option_text(args, "quote").value_or("\""));
  if (format.quote == format.delimiter) throw usage_error("--quote and --delimiter must differ");
  format.header = args.count("header") > 0;
  if (auto const s = option_text(args, "scale"))
    format.scale = static_cast<int>(parse_whole_number("scale", *s, 0, group::max_value_digits));
  auto const named = [&](char const* option) {  // a column given by name rather than position
    return option_text(args, option).value().find_first_not_of("0123456789,") != std::string::npos;
  };
  std::vector<std::string> const header =
      format.header
          ? inputs::first_header(file_operands(args), format.delimiter, format.quote, named("key") || named("value"))
          : std::vector<std::string>{};
  std::vector<std::string> value_names;
  format.keys = columns_of("key", option_text(args, "key").value(), header, group::max_key_columns, nullptr);
  format.values =
      columns_of("value", option_text(args, "value").value(), header, group::max_value_columns, &value_names);
  auto const output = group::parse_output_format(
      parse_choice("format", option_text(args, "format").value_or("csv"), {"csv", "json", "1brc"}));

  apply_threads_option(args);
  auto const operands = file_operands(args);  // named: the engine chosen outlives it, gcc 13 cannot tell
  engine const& on = choose_engine(args, operands, args.count("stats") > 0);
  if (args.count("explain")) {
    // --explain's arrays are text for a reader: a JSON document cannot hold them as they are printed.
    if (output == group::output_format::json) throw usage_error("--explain prints text; it cannot be combined with --format json");
    print_explained(args, on, false, [&](std::ostream& out, io::input_file const& in, std::string text) {
      if (format.header) text.erase(0, inputs::header_bytes(text, format.quote));  // it shows the records after it
      group::explained_group const e = group::workload::explain(on, text, in.label(), opts);
      explain::write_explained(out, text, e, opts, value_names, output);
    });
    return success;
  }

  read_job_options(args, group::min_chunk_size, opts);
  if (auto const text = option_text(args, "key-bits")) {
    opts.key_bits = static_cast<unsigned>(parse_whole_number("key-bits", *text, 0, 64));
  }
  inputs::input_settings settings = input_settings_of(args);
  settings.whole_files = format.quote != 0;  // a byte range cannot tell where its quoted records start
  settings.header = format.header;
  settings.quote = format.quote;

  answer_operands<group::workload>(
      "group", args, on, operands, settings, opts,
      [&](std::ostream& out, group::summary const& s) {
        group::write(out, s, format.keys.size(), value_names, output);
      },
      [&](group::summary const& s) { return headline(s, on.on_gpu()); });
  return success;
}

}  // namespace rowscan::app
