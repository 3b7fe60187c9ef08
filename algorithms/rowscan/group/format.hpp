// SPDX-License-Identifier: Apache-2.0
// rowscan/group/format.hpp: the `rowscan group` answer as text (compiled once).
//
//   csv (default)  key,count,missing,min,mean,max,sum   one row per key, figures as exact decimals;
//                  a key with no value present has count 0 and empty min, mean, max and sum
//   json           [{"key": ..., "count": N, "missing": N, "min": ..., "mean": ..., "max": ..., "sum": ...}]
//                  (null where csv is empty)
//   1brc           {key=min/mean/max, ...} of the first value column, the One Billion Row Challenge's form
//
// Several key columns: csv has key1,key2,..., json a list of strings, 1brc the fields joined by ';'.
// Several value columns: csv and json have a `value` column (the column's name) and a row per key and
// value column; 1brc shows the first.
#pragma once

#include "rowscan/group/summary.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace rowscan::group {

enum class output_format { csv, json, onebrc };

/// "csv", "json" or "1brc"; throws rowscan::usage_error otherwise.
output_format parse_output_format(std::string const& name);

/// Writes the answer. value_names: each value column's name in the output (its header name or position).
void write(std::ostream& out, summary const& answer, std::size_t key_columns,
           std::vector<std::string> const& value_names, output_format format);

}  // namespace rowscan::group
