// SPDX-License-Identifier: Apache-2.0
// `rowscan group FILE... --key K --value V`: exact count, missing, min, mean, max and sum of value
// columns by key, for any delimited file, quoted CSV (RFC 4180) included.
#include "commands.hpp"
#include "rowscan/explain/arrays.hpp"
#include "rowscan/group/format.hpp"
#include "rowscan/group/record_status.hpp"
#include "rowscan/group/summary.hpp"
#include "rowscan/inputs/fold_piece.hpp"
#include "rowscan/inputs/workloads.hpp"
#include "rowscan/io/input_file.hpp"
#include "rowscan/job/timeline.hpp"

#include "command_line.hpp"
#include "devices.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "ranks.hpp"
#include "scale_out.hpp"
#include "stats.hpp"

#include <cxxopts.hpp>

#include <chrono>
#include <cstdio>
#include <iomanip>
#include <sstream>

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

/// The fields of a header record (its '\n' and a CR before it dropped), unquoted.
std::vector<std::string> header_fields(std::string record, char delimiter, char quote) {
  if (!record.empty() && record.back() == '\n') record.pop_back();
  if (!record.empty() && record.back() == '\r') record.pop_back();
  std::vector<std::string> fields(1);
  bool inside = false;
  for (std::size_t i = 0; i < record.size(); ++i) {
    char const c = record[i];
    if (quote != 0 && c == quote) {
      if (inside && i + 1 < record.size() && record[i + 1] == quote) {
        fields.back() += c;
        ++i;
      } else {
        inside = !inside;
      }
    } else if (c == delimiter && !inside) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

/// The header record of the first input (--header), read as the run will read past it. Standard input
/// is read once, by the run: its header names nothing, and a column named (`names`) is a usage error.
std::vector<std::string> first_header(std::vector<std::string> const& operands, group::text_format const& format,
                                      bool names) {
  inputs::input_settings settings;
  settings.header = true;
  auto const sources = inputs::resolve_inputs(operands, settings).sources;
  if (sources.front().path == "-") {
    if (!names) return {};
    throw usage_error("column names need the header of a FILE, not of standard input; give positions (from 1)");
  }
  io::input_file input(sources.front().path, io::text_options{false});
  std::string record;
  bool inside = false;
  char c = 0;
  while (::read(input.fd(), &c, 1) == 1) {
    record += c;
    if (format.quote != 0 && c == format.quote)
      inside = !inside;
    else if (c == '\n' && !inside)
      break;
  }
  return header_fields(record, format.delimiter, format.quote);
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

/// A byte as --explain shows it.
std::string shown_byte(char c) {
  if (c == '\n') return "\\n";
  if (c == '\r') return "\\r";
  if (c == '\t') return "\\t";
  if (c == ' ') return "sp";
  if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(c));
    return hex;
  }
  return std::string(1, c);
}

/// --explain: the quote-parity scan at every byte, the records, their fields, then the answer.
void write_explained(std::ostream& out, std::string const& text, group::explained_group const& e,
                     group::summarize_options const& options, std::vector<std::string> const& value_names,
                     group::output_format format) {
  out << "stage 1, find records: exclusive_scan(quote_interval_plus) over 32-byte words (docs/group.md)\n";
  out << "  word  first  quote bits / newline bits (byte 0 first)  own parity  records ended entered even / odd"
         "  entered: parity  records  start\n";
  auto const bit_string = [](std::uint32_t bits) {
    std::string s(32, '.');
    for (int j = 0; j < 32; ++j)
      if ((bits >> j) & 1u) s[static_cast<std::size_t>(j)] = '1';
    return s;
  };
  for (std::size_t w = 0; w < e.word_first.size(); ++w) {
    out << "  " << std::setw(4) << w << "  " << std::setw(5) << e.word_first[w] << "  " << bit_string(e.word_quotes[w])
        << " / " << bit_string(e.word_newlines[w]) << "  " << std::setw(10) << static_cast<int>(e.own_parity[w]) << "  "
        << std::setw(18) << e.own_ends[0][w] << " / " << e.own_ends[1][w] << "  " << std::setw(15)
        << static_cast<int>(e.entry_parity[w]) << "  " << std::setw(7) << e.records_before[w] << "  " << std::setw(5)
        << e.start_before[w] << '\n';
  }
  out << "\n  each byte, from its word's entry state:\n";
  out << "  position  byte  quote parity  record  record start  lines before it  ends a record\n";
  for (std::size_t i = 0; i < text.size(); ++i) {
    bool const ends = i + 1 == text.size() || (text[i] == '\n' && e.parity[i] == 0);
    out << "  " << std::setw(8) << i << "  " << std::setw(4) << shown_byte(text[i]) << "  " << std::setw(12)
        << static_cast<int>(e.parity[i]) << "  " << std::setw(6) << e.record_of[i] << "  " << std::setw(12)
        << e.starts[i] << "  " << std::setw(15) << e.lines[i] << "  " << (ends ? "*" : "") << '\n';
  }
  std::size_t const nk = options.format.keys.size();
  std::size_t const nv = options.format.values.size();
  out << "\nstage 2, find fields: one walk per record (RFC 4180), key fields and values\n";
  out << "  record  [begin, end)  line  status";
  for (std::size_t k = 0; k < nk; ++k) out << "  key " << k + 1 << " [begin, +size)";
  for (std::size_t j = 0; j < nv; ++j) out << "  value " << j + 1 << " (mantissa, digits)";
  out << '\n';
  for (std::size_t r = 0; r < e.begins.size(); ++r) {
    auto const status = static_cast<group::record_status>(e.statuses[r]);
    out << "  " << std::setw(6) << r << "  [" << e.begins[r] << ", " << e.ends[r] << ")  " << e.record_lines[r] << "  "
        << (status == group::record_status::ok      ? "ok"
            : status == group::record_status::blank ? "blank"
                                                    : "bad");
    if (status == group::record_status::ok) {
      for (std::size_t k = 0; k < nk; ++k)
        out << "  [" << e.key_begin[r * nk + k] << ", +" << e.key_size[r * nk + k] << ")";
      for (std::size_t j = 0; j < nv; ++j) {
        if (e.missing[r * nv + j])
          out << "  missing";
        else
          out << "  (" << e.mantissas[r * nv + j] << ", " << static_cast<int>(e.digits[r * nv + j]) << ")";
      }
    }
    out << '\n';
  }
  out << "\nstage 3, group: sort_by_key(hash of the key's bytes) -> reduce_by_key(stats_plus); the answer in key "
         "order\n\n";
  group::write(out, e.answer, nk, value_names, format);
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
      format.header ? first_header(file_operands(args), format, named("key") || named("value"))
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
    use_chosen_gpu(args, on);
    io::input_file input(single_file_operand(args), io::text_options{false});
    std::string text = explain::read_small_input(input.fd(), input.label());
    if (format.header) {  // the header is not data: --explain shows the records after it
      bool inside = false;
      std::size_t end = text.size();
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (format.quote != 0 && text[i] == format.quote)
          inside = !inside;
        else if (text[i] == '\n' && !inside) {
          end = i + 1;
          break;
        }
      }
      text.erase(0, end);
    }
    std::ostringstream out;
    write_explained(out, text, on.explain_group(text, input.label(), opts), opts, value_names, output);
    write_standard_output(out.str());
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

  auto const start = std::chrono::steady_clock::now();
  scale_out_report ranks_report;
  auto answer = run_operands(args, on, operands, settings, opts, inputs::group_workload(on), ranks_report);
  job::timeline_mark("run returned");
  if (!answer) return success;  // not rank 0: rank 0 writes the answer
  auto& result = *answer;

  deliver_answer(
      "group", result, [&](std::ostream& out) { group::write(out, result, format.keys.size(), value_names, output); },
      [&](group::summary const& s) { return headline(s, on.on_gpu()); }, opts.time_stages, start, ranks_report);
  return success;
}

}  // namespace rowscan::app
