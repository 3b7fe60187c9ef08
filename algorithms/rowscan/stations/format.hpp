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
/// Name bytes as text every reader accepts: well-formed UTF-8 as itself, and each byte that is not part
/// of well-formed UTF-8 as U+FFFD (the replacement character). Lossy for such names: name_hex keeps them.
std::string text_of_name(std::string const& name);

/// Bytes in lowercase hexadecimal: "M\xfc" -> "4dfc".
std::string hex_of(std::string const& bytes);

/// The name's bytes in lowercase hexadecimal ("M\xfcnchen" -> "4dfc6e6368656e") where the name is not
/// well-formed UTF-8, and "" where it is (text_of_name is then the name itself). With text_of_name it
/// represents any name without loss in outputs that must be UTF-8 (docs/input-rules.md, "Names that
/// are not UTF-8").
std::string name_hex(std::string const& name);

/// A JSON string literal of UTF-8 text: `"`, `\` and bytes below 0x20 escaped, everything else as is.
std::string json_string(std::string const& text);

/// `[{"name": ..., "min": -1.5, "mean": ..., "max": ..., "count": N, "sum": -12.5, "name_hex": null}, ...]`
/// and a newline. The temperatures and sums (in degrees, one fractional digit) are JSON numbers: a double
/// holds every value of up to 15 digits exactly, so sums are exact up to 10^14 degrees. The name is
/// text_of_name; name_hex is null, or a string where the name is not UTF-8.
void write_json(std::ostream& out, std::vector<station_summary> const& stations);
/// `name,min,mean,max,count,sum,name_hex` (the JSON field names) then one row per station (RFC 4180
/// quoting); name_hex is empty where the name is UTF-8.
void write_csv(std::ostream& out, std::vector<station_summary> const& stations);

void write(std::ostream& out, std::vector<station_summary> const& stations, output_format format);

}  // namespace rowscan::stations
