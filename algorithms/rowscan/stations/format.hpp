// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/format.hpp: the answer as text: the challenge's format, JSON or CSV.
#pragma once

#include "rowscan/stations/answer.hpp"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace rowscan::stations {

enum class output_format { onebrc, json, csv };

/// Parses "1brc", "json" or "csv"; throws rowscan::error otherwise.
output_format parse_output_format(std::string const& name);

/// Tenths as a decimal with one fractional digit: -123 -> "-12.3", -5 -> "-0.5", 0 -> "0.0".
std::string format_tenths(std::int64_t tenths);

/// `{name=min/mean/max, ...}` and a newline: the One Billion Row Challenge's output.
void write_onebrc(std::ostream& out, std::vector<station_summary> const& stations);
/// A JSON string literal for name bytes that may not be UTF-8. Well-formed UTF-8 passes through; `"`, `\`
/// and bytes below 0x20 are escaped; every byte that is not part of well-formed UTF-8 becomes `\udcXX`
/// (XX its value, 80 to ff): a lone low surrogate, as Python's "surrogateescape" error handler writes
/// it, so `json.loads(text)["name"].encode("utf-8", "surrogateescape")` gives back the exact bytes.
std::string json_string(std::string const& s);

/// `[{"name": ..., "min": -1.5, "mean": ..., "max": ..., "count": N}, ...]` and a newline. The
/// temperatures are JSON numbers: with one fractional digit and at most three digits, every parser's
/// double reads and prints them exactly. Names go through json_string.
void write_json(std::ostream& out, std::vector<station_summary> const& stations);
/// `name,min,mean,max,count` (the JSON field names) then one row per station (RFC 4180 quoting).
void write_csv(std::ostream& out, std::vector<station_summary> const& stations);

void write(std::ostream& out, std::vector<station_summary> const& stations, output_format format);

}  // namespace rowscan::stations
