// SPDX-License-Identifier: Apache-2.0
// --explain's shared stages: bytes, flags, the interval scan of find_lines, records (rowscan/explain/print.hpp).
#include "rowscan/explain/print.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace rowscan::explain {
namespace {

constexpr int cell = 4;  // the width of one byte's column in the byte grid

/// "{lines,start}" of a scanned interval.
std::string interval_text(explain::interval i) {
  return "{" + std::to_string(i.lines) + "," + std::to_string(i.start) + "}";
}

/// line without its trailing spaces (a partial last word leaves empty columns).
std::string trimmed(std::string line) {
  line.erase(line.find_last_not_of(' ') + 1);
  return line;
}

/// The word whose scan element holds text position p.
std::size_t word_of(explain::line_scan const& lines, std::uint32_t p) {
  return static_cast<std::size_t>((p - lines.words.front().first_position) / 16);
}

/// One 16-byte word of the text as three rows: positions, bytes, record-start flags.
void write_word(std::ostream& out, std::string const& text, explain::line_scan const& lines, std::size_t w) {
  std::int64_t const first = lines.words[w].first_position;
  std::string const label = "word " + std::to_string(w);
  std::string positions, bytes, starts;
  for (std::int64_t p = first; p < first + 16; ++p) {
    bool const inside = p >= 0 && p < static_cast<std::int64_t>(text.size());
    auto const i = static_cast<std::size_t>(p);
    std::ostringstream column;
    column << std::setw(cell) << (inside ? std::to_string(p) : "");
    positions += column.str();
    column.str("");
    column << std::setw(cell) << (inside ? visible(static_cast<unsigned char>(text[i])) : "");
    bytes += column.str();
    column.str("");
    column << std::setw(cell) << (inside ? std::to_string(lines.starts_record[i]) : "");
    starts += column.str();
  }
  out << trimmed("  " + (label + "         ").substr(0, 9) + positions) << '\n'
      << trimmed("    byte   " + bytes) << '\n'
      << trimmed("    starts " + starts) << '\n';
}

}  // namespace

std::string visible(unsigned char byte) {
  switch (byte) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: break;
  }
  if (byte >= 0x20 && byte < 0x7f) return std::string(1, static_cast<char>(byte));
  char hex[8];
  std::snprintf(hex, sizeof hex, "\\x%02x", byte);
  return hex;
}

std::string visible(char const* first, std::size_t size) {
  std::string out;
  for (std::size_t i = 0; i < size; ++i) out += visible(static_cast<unsigned char>(first[i]));
  return out;
}

void write_stage(std::ostream& out, int number, std::string const& what) {
  out << '\n' << number << ". " << what << '\n';
}

void write_line_stages(std::ostream& out, std::string const& command, char const* rows, std::string const& calls,
                       std::string const& text, explain::line_scan const& lines) {
  out << command << " --explain: " << text.size() << " bytes, " << lines.records.size() << ' ' << rows
      << ", one chunk. Each array below is written on the\ndevice by " << calls << ", then copied to the host.\n";
  write_stage(out, 1, "copy: the text on the device, " + std::to_string(text.size()) + " bytes");
  out << "  shown in 16-byte words: find_lines scans one word per element\n"
         "  starts: transform(starts_chunk(same_line)), 1 where a record starts (position 0, or after '\\n')\n";
  for (std::size_t w = 0; w < lines.words.size(); ++w) write_word(out, text, lines, w);

  write_stage(out, 2, "find_lines = chunk_by(same_line), one interval per word");
  out << "  transform(word_lines) -> exclusive_scan(line_interval_plus)\n"
         "  interval {lines: '\\n' bytes in the run, start: where the line after its last '\\n' starts}\n"
         "  combine(left, right) = {left.lines + right.lines, right.lines != 0 ? right.start : left.start}\n"
         "  word  bytes       word_lines  scanned: the interval of all words before it\n";
  for (std::size_t w = 0; w < lines.words.size(); ++w) {
    explain::word const& word = lines.words[w];
    std::int64_t const begin = word.first_position < 0 ? 0 : word.first_position;
    std::int64_t const end = std::min<std::int64_t>(word.first_position + 16, static_cast<std::int64_t>(text.size()));
    std::string const bytes = "[" + std::to_string(begin) + "," + std::to_string(end) + ")";
    out << "  " << std::setw(4) << w << "  " << std::left << std::setw(10) << bytes << "  " << std::setw(10)
        << interval_text(word.own) << "  " << interval_text(word.scanned) << std::right << '\n';
  }

  write_stage(out, 3, "records: emit_word_lines stores each line in the word that holds its '\\n'");
  out << "  the word's first line is number scanned.lines and starts at scanned.start\n"
         "  record  word  [begin,end)  bytes\n";
  for (std::size_t r = 0; r < lines.records.size(); ++r) {
    explain::range const rec = lines.records[r];
    std::string const span = "[" + std::to_string(rec.begin) + "," + std::to_string(rec.end) + ")";
    out << "  " << std::setw(6) << r << std::setw(6) << word_of(lines, rec.end - 1) << "  " << std::left << std::setw(11) << span << "  " << std::right
        << visible(text.data() + rec.begin, rec.end - rec.begin) << '\n';
  }
}

}  // namespace rowscan::explain
