// SPDX-License-Identifier: Apache-2.0
// tests/fuzz/input_checks.hpp: what the fuzzers (and the corpus replay) check for one arbitrary input.
//
// Each check takes any bytes as an input file and compares three answers to it:
//   1. the scalar reference (tests/reference/), the oracle;
//   2. the shared parser (line_format.hpp / row_format.hpp) run line by line on the host;
//   3. the whole library pipeline (stations::summarize / lineitem::summarize) at several chunk sizes.
// They must agree on the answer, byte for byte, or on the first bad line and its byte offset. Then the
// pipeline runs again with skip_invalid, and must give the reference's answer over the valid lines, its
// count of skipped lines and their first five positions (or the error of a line too long to skip).
// A check returns "" when they all agree, and otherwise a description of the first disagreement.
#pragma once

#include <string>
#include <string_view>

namespace fuzz {

/// `rowscan stations` on text: reference, parse_line loop and summarize (chunk sizes 128, 128 + a
/// size-derived amount with 1-bit keys, and 4096) all agree.
std::string check_stations_input(std::string_view text);

/// `rowscan lineitem` on text for a fixed set of thresholds: reference, parse_row loop and summarize
/// (chunk sizes 256, 256 + a size-derived amount, 4096) all agree. A line longer than a chunk is an
/// error of its own, at the line's start, for that chunk size.
std::string check_lineitem_input(std::string_view text);

/// `rowscan group` on text as a quoted CSV (key column 1, value column 2): the quote-parity records and
/// summarize at two chunk sizes agree with the reference (group_checks.cu).
std::string check_group_input(std::string_view text);

}  // namespace fuzz
