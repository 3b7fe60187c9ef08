// SPDX-License-Identifier: Apache-2.0
// `rowscan group --explain`: the quote-parity scan, the records and their fields, stage by stage
// (rowscan/explain/write.hpp).
#include "rowscan/explain/write.hpp"

#include "rowscan/group/format.hpp"
#include "rowscan/group/record_status.hpp"

#include <cstdio>
#include <iomanip>

namespace rowscan::explain {
namespace {

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

}  // namespace

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

}  // namespace rowscan::explain
