// SPDX-License-Identifier: Apache-2.0
// rowscan/explain/print.hpp: --explain's printing of what both workloads share: the bytes, the record-start
// flags, the scanned intervals and the records (rowscan/explain/arrays.hpp).
#pragma once

#include "rowscan/explain/arrays.hpp"

#include <cstddef>
#include <ostream>
#include <string>

namespace rowscan::explain {

/// A byte as a learner reads it: printable ASCII as itself, '\n' '\r' '\t' escaped, others in hex (\xc3).
std::string visible(unsigned char byte);
/// Every byte of [first, first + size) made visible, for one-line quotes.
std::string visible(char const* first, std::size_t size);

/// A numbered stage heading: "N. what".
void write_stage(std::ostream& out, int number, std::string const& what);

/// The heading ("COMMAND --explain: N bytes, M ROWS, one chunk", and that every array is written on
/// the device by CALLS), then stages 1 to 3, the same in both workloads: the bytes with positions and
/// record-start flags, word by word; the interval scan of find_lines; the records it stores.
void write_line_stages(std::ostream& out, std::string const& command, char const* rows, std::string const& calls,
                       std::string const& text, line_scan const& lines);

}  // namespace rowscan::explain
