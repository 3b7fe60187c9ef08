// SPDX-License-Identifier: Apache-2.0
#include "rowscan/stations/format.hpp"
#include "rowscan/error.hpp"

#include <cstdio>

namespace rowscan::stations {

output_format parse_output_format(std::string const& name) {
  if (name == "1brc") return output_format::onebrc;
  if (name == "json") return output_format::json;
  if (name == "csv") return output_format::csv;
  throw error("unknown output format '" + name + "' (expected 1brc, json or csv)");
}

std::string format_tenths(std::int64_t tenths) {
  std::uint64_t const magnitude = tenths < 0 ? 0 - static_cast<std::uint64_t>(tenths) : static_cast<std::uint64_t>(tenths);
  std::string text = tenths < 0 ? "-" : "";
  text += std::to_string(magnitude / 10);
  text += '.';
  text += static_cast<char>('0' + magnitude % 10);
  return text;
}

namespace {

std::string min_mean_max(station_summary const& s, char separator) {
  return format_tenths(s.min) + separator + format_tenths(mean_tenths(s)) + separator + format_tenths(s.max);
}

/// The length of the well-formed UTF-8 sequence that starts at s[i] (RFC 3629, table 3-7 of the Unicode
/// standard: no overlong forms, no surrogates, nothing above U+10FFFF), or 0 if none starts there.
std::size_t utf8_sequence_length(std::string const& s, std::size_t i) {
  auto byte = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  auto in = [](unsigned b, unsigned lo, unsigned hi) { return b >= lo && b <= hi; };
  unsigned const b0 = byte(0);
  if (b0 < 0x80) return 1;
  if (in(b0, 0xC2, 0xDF)) return in(byte(1), 0x80, 0xBF) ? 2 : 0;
  if (in(b0, 0xE0, 0xEF)) {
    unsigned const lo = b0 == 0xE0 ? 0xA0 : 0x80;
    unsigned const hi = b0 == 0xED ? 0x9F : 0xBF;
    return in(byte(1), lo, hi) && in(byte(2), 0x80, 0xBF) ? 3 : 0;
  }
  if (in(b0, 0xF0, 0xF4)) {
    unsigned const lo = b0 == 0xF0 ? 0x90 : 0x80;
    unsigned const hi = b0 == 0xF4 ? 0x8F : 0xBF;
    return in(byte(1), lo, hi) && in(byte(2), 0x80, 0xBF) && in(byte(3), 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

}  // namespace

std::string json_string(std::string const& s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    char const c = s[i];
    auto const u = static_cast<unsigned char>(c);
    std::size_t const length = utf8_sequence_length(s, i);
    char escaped[8];
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
      out += escaped;
    } else if (length == 0) {  // not UTF-8: the byte as a lone low surrogate, as Python's surrogateescape
      std::snprintf(escaped, sizeof escaped, "\\udc%02x", u);
      out += escaped;
    } else {
      out.append(s, i, length);
      i += length;
      continue;
    }
    ++i;
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
  out << '{';
  for (std::size_t i = 0; i < stations.size(); ++i) {
    if (i > 0) out << ", ";
    out << stations[i].name << '=' << min_mean_max(stations[i], '/');
  }
  out << "}\n";
}

void write_json(std::ostream& out, std::vector<station_summary> const& stations) {
  out << '[';
  for (std::size_t i = 0; i < stations.size(); ++i) {
    auto const& s = stations[i];
    out << (i > 0 ? ",\n " : "") << "{\"name\": " << json_string(s.name) << ", \"min\": " << format_tenths(s.min)
        << ", \"mean\": " << format_tenths(mean_tenths(s)) << ", \"max\": " << format_tenths(s.max)
        << ", \"count\": " << s.count << '}';
  }
  out << "]\n";
}

void write_csv(std::ostream& out, std::vector<station_summary> const& stations) {
  out << "name,min,mean,max,count\n";
  for (auto const& s : stations) {
    out << csv_field(s.name) << ',' << min_mean_max(s, ',') << ',' << s.count << '\n';
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
