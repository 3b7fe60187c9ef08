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
/// `[{"name": ..., "min": -1.5, "mean": ..., "max": ..., "count": N}, ...]` and a newline.
void write_json(std::ostream& out, std::vector<station_summary> const& stations);
/// `station,min,mean,max,count` then one row per station (RFC 4180 quoting).
void write_csv(std::ostream& out, std::vector<station_summary> const& stations);

void write(std::ostream& out, std::vector<station_summary> const& stations, output_format format);

}  // namespace rowscan::stations
