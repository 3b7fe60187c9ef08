// SPDX-License-Identifier: Apache-2.0
#include "rowscan/stations/format.hpp"
#include "rowscan/error.hpp"
#include "rowscan/utf8.hpp"

#include <charconv>
#include <cstdio>

namespace rowscan::stations {

output_format parse_output_format(std::string const& name) {
  if (name == "1brc") return output_format::onebrc;
  if (name == "json") return output_format::json;
  if (name == "csv") return output_format::csv;
  throw error("unknown output format '" + name + "' (expected 1brc, json or csv)");
}

namespace {

/// The most chars tenths_chars writes: a sign, 19 digits, the point and one digit.
constexpr std::size_t max_tenths_chars = 22;

/// Tenths written at `at` as format_tenths spells them; returns the end.
char* tenths_chars(char* at, std::int64_t tenths) {
  std::uint64_t const magnitude = tenths < 0 ? 0 - static_cast<std::uint64_t>(tenths) : static_cast<std::uint64_t>(tenths);
  if (tenths < 0) *at++ = '-';
  at = std::to_chars(at, at + max_tenths_chars, magnitude / 10).ptr;
  *at++ = '.';
  *at++ = static_cast<char>('0' + magnitude % 10);
  return at;
}

}  // namespace

std::string format_tenths(std::int64_t tenths) {
  char text[max_tenths_chars];
  return std::string(text, tenths_chars(text, tenths));
}

namespace {

std::string min_mean_max(station_summary const& s, char separator) {
  return format_tenths(s.min) + separator + format_tenths(mean_tenths(s)) + separator + format_tenths(s.max);
}

}  // namespace

std::string text_of_name(std::string const& name) {
  std::string out;
  out.reserve(name.size());
  for (std::size_t i = 0; i < name.size();) {
    std::size_t const length = utf8_sequence_length(name, i);
    if (length == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    } else {
      out.append(name, i, length);
      i += length;
    }
  }
  return out;
}

std::string hex_of(std::string const& bytes) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (char c : bytes) {
    auto const u = static_cast<unsigned char>(c);
    out += hex[u >> 4];
    out += hex[u & 15];
  }
  return out;
}

std::string name_hex(std::string const& name) { return is_utf8(name) ? "" : hex_of(name); }

std::string json_string(std::string const& text) {
  std::string out = "\"";
  for (char const c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

namespace {

/// A CSV field, quoted when it holds a separator, a quote or a line break.
std::string csv_field(std::string const& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

void write_onebrc(std::ostream& out, std::vector<station_summary> const& stations) {
  // The text is made in a buffer of its own and written a MiB at a time: a stream insertion per field,
  // and a string per number, took half of the answer's stage at a million stations (docs/stations.md,
  // "A million stations"), and a buffer of the whole answer would be tens of MB of pages touched twice.
  constexpr std::size_t flush_at = std::size_t{1} << 20;
  std::string text;
  text.reserve(flush_at + 3 * max_tenths_chars + 8);
  text += '{';
  char numbers[3 * max_tenths_chars + 3];
  for (std::size_t i = 0; i < stations.size(); ++i) {
    station_summary const& s = stations[i];
    if (i > 0) text += ", ";
    if (text.size() + s.name.size() >= flush_at) {
      out.write(text.data(), static_cast<std::streamsize>(text.size()));
      text.clear();
    }
    text += s.name;
    char* end = numbers;
    *end++ = '=';
    end = tenths_chars(end, s.min);
    *end++ = '/';
    end = tenths_chars(end, mean_tenths(s));
    *end++ = '/';
    end = tenths_chars(end, s.max);
    text.append(numbers, end);
  }
  text += "}\n";
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

void write_json(std::ostream& out, std::vector<station_summary> const& stations) {
  out << '[';
  for (std::size_t i = 0; i < stations.size(); ++i) {
    auto const& s = stations[i];
    std::string const hex = name_hex(s.name);
    out << (i > 0 ? ",\n " : "") << "{\"name\": " << json_string(text_of_name(s.name))
        << ", \"min\": " << format_tenths(s.min) << ", \"mean\": " << format_tenths(mean_tenths(s))
        << ", \"max\": " << format_tenths(s.max) << ", \"count\": " << s.count << ", \"sum\": " << format_tenths(s.sum)
        << ", \"name_hex\": " << (hex.empty() ? "null" : json_string(hex)) << '}';
  }
  out << "]\n";
}

void write_csv(std::ostream& out, std::vector<station_summary> const& stations) {
  out << "name,min,mean,max,count,sum,name_hex\n";
  for (auto const& s : stations) {
    out << csv_field(text_of_name(s.name)) << ',' << min_mean_max(s, ',') << ',' << s.count << ','
        << format_tenths(s.sum) << ',' << name_hex(s.name) << '\n';
  }
}

void write(std::ostream& out, std::vector<station_summary> const& stations, output_format format) {
  switch (format) {
    case output_format::onebrc: write_onebrc(out, stations); break;
    case output_format::json: write_json(out, stations); break;
    case output_format::csv: write_csv(out, stations); break;
  }
}

}  // namespace rowscan::stations
