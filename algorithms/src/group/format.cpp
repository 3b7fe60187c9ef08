// SPDX-License-Identifier: Apache-2.0
// The `rowscan group` answer as text (rowscan/group/format.hpp) and its records' error words.
#include "rowscan/group/format.hpp"

#include "rowscan/error.hpp"
#include "rowscan/group/record_status.hpp"
#include "rowscan/stations/format.hpp"

#include <algorithm>
#include <cstdio>

namespace rowscan::group {

std::string describe(record_status status, text_format const& format) {
  switch (status) {
    case record_status::ok:
    case record_status::blank:
      return "no error";
    case record_status::too_few_fields: {
      std::uint32_t columns = 0;
      for (std::uint32_t c : format.keys) columns = std::max(columns, c + 1);
      for (std::uint32_t c : format.values) columns = std::max(columns, c + 1);
      return "fewer than " + std::to_string(columns) + " fields";
    }
    case record_status::quote_in_field:
      return "a quote inside an unquoted field (quote the field, and double the quotes in it)";
    case record_status::after_closing_quote:
      return "text after a quoted field's closing quote";
    case record_status::open_quote:
      return "a quoted field that does not end";
    case record_status::not_a_number:
      return "a value that is not a decimal number (-?digits(.digits)?)";
    case record_status::too_many_digits:
      return "a value of more than " + std::to_string(max_value_digits) + " digits";
    case record_status::beyond_scale:
      return "more digits after the point than --scale " + std::to_string(format.scale);
  }
  return "bad record";
}

output_format parse_output_format(std::string const& name) {
  if (name == "csv") return output_format::csv;
  if (name == "json") return output_format::json;
  if (name == "1brc") return output_format::onebrc;
  throw usage_error("--format: '" + name + "' is not one of csv, json, 1brc");
}

namespace {

/// The key's fields (split at key_field_separator when there are several).
std::vector<std::string> key_fields(std::string const& key, std::size_t columns) {
  if (columns <= 1) return {key};
  std::vector<std::string> fields;
  std::size_t at = 0;
  for (std::size_t k = 0; k + 1 < columns; ++k) {
    std::size_t const end = key.find(key_field_separator, at);
    fields.push_back(key.substr(at, end - at));
    at = end == std::string::npos ? key.size() : end + 1;
  }
  fields.push_back(key.substr(std::min(at, key.size())));
  return fields;
}

/// A CSV field: as it is, or quoted (its quotes doubled) when it holds a comma, quote, CR or LF, or
/// starts or ends with a space.
std::string csv_field(std::string const& s) {
  bool const quoted =
      s.find_first_of(",\"\r\n") != std::string::npos || (!s.empty() && (s.front() == ' ' || s.back() == ' '));
  if (!quoted) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

struct figures {
  std::string min, mean, max, sum;  // empty when no value is present
};

figures figures_of(value_stats const& s, unsigned scale) {
  if (s.count == 0) return {};
  return {decimal_text(s.min, scale), decimal_text(rounded_mean(s), scale), decimal_text(s.max, scale),
          decimal_text(s.sum, scale)};
}

std::string json_or_null(std::string const& figure) { return figure.empty() ? "null" : figure; }

/// The key's bytes in hexadecimal where a key field is not UTF-8 (each field's hex, '.' between them),
/// else "": with the fields written as text (stations::text_of_name), it keeps any
/// key without loss in outputs that must be UTF-8 (docs/input-rules.md, "Names that are not UTF-8").
std::string key_hex(std::vector<std::string> const& fields) {
  bool const all_text = std::all_of(fields.begin(), fields.end(), [](std::string const& f) { return is_utf8(f); });
  if (all_text) return "";
  std::string out;
  for (std::size_t k = 0; k < fields.size(); ++k) out += (k > 0 ? "." : "") + stations::hex_of(fields[k]);
  return out;
}

}  // namespace

void write(std::ostream& out, summary const& answer, std::size_t key_columns,
           std::vector<std::string> const& value_names, output_format format) {
  std::size_t const values = value_names.size();
  auto scale = [&](std::size_t j) { return j < answer.scales.size() ? answer.scales[j] : 0u; };
  auto stats = [&](group_row const& row, std::size_t j) {
    return j < row.values.size() ? row.values[j] : value_stats{};
  };
  if (format == output_format::onebrc) {
    out << '{';
    for (std::size_t i = 0; i < answer.rows.size(); ++i) {
      std::vector<std::string> const fields = key_fields(answer.rows[i].key, key_columns);
      std::string name;
      for (std::size_t k = 0; k < fields.size(); ++k) name += (k > 0 ? ";" : "") + fields[k];
      figures const f = figures_of(stats(answer.rows[i], 0), scale(0));
      out << (i > 0 ? ", " : "") << name << '=' << f.min << '/' << f.mean << '/' << f.max;
    }
    out << "}\n";
    return;
  }
  if (format == output_format::csv) {
    if (key_columns == 1) {
      out << "key";
    } else {
      for (std::size_t k = 0; k < key_columns; ++k) out << (k > 0 ? "," : "") << "key" << k + 1;
    }
    out << (values > 1 ? ",value" : "") << ",count,missing,min,mean,max,sum,key_hex\n";
    for (group_row const& row : answer.rows) {
      std::string keys;
      std::vector<std::string> const fields = key_fields(row.key, key_columns);
      for (std::size_t k = 0; k < fields.size(); ++k) keys += (k > 0 ? "," : "") + csv_field(stations::text_of_name(fields[k]));
      std::string const hex = key_hex(fields);
      for (std::size_t j = 0; j < values; ++j) {
        value_stats const s = stats(row, j);
        figures const f = figures_of(s, scale(j));
        out << keys;
        if (values > 1) out << ',' << csv_field(stations::text_of_name(value_names[j]));
        out << ',' << s.count << ',' << s.missing << ',' << f.min << ',' << f.mean << ',' << f.max << ',' << f.sum
            << ',' << hex << '\n';
      }
    }
    return;
  }
  out << '[';
  bool first = true;
  for (group_row const& row : answer.rows) {
    std::vector<std::string> const fields = key_fields(row.key, key_columns);
    std::string key;
    if (key_columns == 1) {
      key = stations::json_string(stations::text_of_name(fields[0]));
    } else {
      key = "[";
      for (std::size_t k = 0; k < fields.size(); ++k) {
        key += (k > 0 ? ", " : "") + stations::json_string(stations::text_of_name(fields[k]));
      }
      key += "]";
    }
    std::string const hex = key_hex(fields);
    for (std::size_t j = 0; j < values; ++j) {
      value_stats const s = stats(row, j);
      figures const f = figures_of(s, scale(j));
      out << (first ? "\n  " : ",\n  ") << "{\"key\": " << key;
      if (values > 1) out << ", \"value\": " << stations::json_string(stations::text_of_name(value_names[j]));
      out << ", \"count\": " << s.count << ", \"missing\": " << s.missing << ", \"min\": " << json_or_null(f.min)
          << ", \"mean\": " << json_or_null(f.mean) << ", \"max\": " << json_or_null(f.max)
          << ", \"sum\": " << json_or_null(f.sum) << ", \"key_hex\": " << (hex.empty() ? "null" : "\"" + hex + "\"")
          << '}';
      first = false;
    }
  }
  out << (first ? "]\n" : "\n]\n");
}

}  // namespace rowscan::group
