// SPDX-License-Identifier: Apache-2.0
#include "input_checks.hpp"

#include "reference/lineitem_reference.hpp"
#include "reference/stations_reference.hpp"
#include "rowscan/error.hpp"
#include "rowscan/lineitem/row_format.hpp"
#include "rowscan/lineitem/summarize.hpp"
#include "rowscan/stations/format.hpp"
#include "rowscan/stations/line_format.hpp"
#include "rowscan/stations/summarize.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace fuzz {
namespace {

constexpr char const* label = "input";

/// What an input comes to: an answer, or the first bad line and the byte offset of its fault.
struct outcome {
  bool ok = true;
  std::string answer;  ///< formatted, when ok
  std::uint64_t line = 0, byte = 0;

  static outcome error(std::uint64_t line, std::uint64_t byte) { return {false, "", line, byte}; }
  std::string text() const {
    return ok ? "answer " + answer : "error at line " + std::to_string(line) + ", byte " + std::to_string(byte);
  }
};

std::string compare(char const* who, outcome const& expected, outcome const& got) {
  if (expected.ok == got.ok && expected.answer == got.answer && expected.line == got.line &&
      expected.byte == got.byte) {
    return "";
  }
  return std::string(who) + ": expected " + expected.text() + "\n  got " + got.text();
}

/// One anonymous in-memory file, reused for every input: summarize reads it like any file.
class memory_file {
 public:
  memory_file() : fd_(::memfd_create("rowscan-fuzz", MFD_CLOEXEC)) {
    if (fd_ < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
  }
  ~memory_file() { ::close(fd_); }
  memory_file(memory_file const&) = delete;
  memory_file& operator=(memory_file const&) = delete;

  /// Makes text the file's whole content and rewinds it; returns the descriptor.
  int hold(std::string_view text) {
    if (::ftruncate(fd_, 0) != 0) throw std::runtime_error("ftruncate failed");
    std::size_t done = 0;
    while (done < text.size()) {
      ssize_t const n = ::pwrite(fd_, text.data() + done, text.size() - done, static_cast<off_t>(done));
      if (n <= 0) throw std::runtime_error("pwrite failed");
      done += static_cast<std::size_t>(n);
    }
    ::lseek(fd_, 0, SEEK_SET);
    return fd_;
  }

 private:
  int fd_;
};

memory_file& shared_file() {
  static memory_file file;
  return file;
}

/// The lines of text, each without its '\n'; the last may lack one.
struct line_view {
  std::size_t begin;
  std::string_view bytes;
  bool has_newline;
};

std::vector<line_view> lines_of(std::string_view text) {
  std::vector<line_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t const end = std::min(text.find('\n', start), text.size());
    lines.push_back({start, text.substr(start, end - start), end < text.size()});
    start = end + 1;
  }
  return lines;
}

/// The checks after "FILE:LINE:COLUMN: " that every input error message passes: a column, one line, a
/// reason (the offset itself, got.byte, is the exception's byte_offset(), checked against the reference).
std::string check_message(std::string const& what, outcome const& got) {
  std::string const head = std::string(label) + ":" + std::to_string(got.line) + ":";
  if (what.rfind(head, 0) != 0) return "message does not start with '" + head + "': " + what;
  std::size_t const digits = what.find_first_not_of("0123456789", head.size());
  if (digits == head.size() || digits == std::string::npos || what.compare(digits, 2, ": ") != 0) {
    return "message has no column after '" + head + "': " + what;
  }
  std::string const prefix = what.substr(0, digits + 2);
  if (what.size() == prefix.size()) return "message gives no reason: " + what;
  if (what.find('\n') != std::string::npos) return "message is more than one line: " + what;
  return "";
}

// ---- stations -----------------------------------------------------------------------------------------

outcome stations_reference(std::string_view text) {
  try {
    return {true, reference::stations_answer(text), 0, 0};
  } catch (reference::bad_input const& e) {
    return outcome::error(e.line, e.byte_offset);
  }
}

/// The answer in the challenge's format, which the reference also prints. The JSON and CSV writers
/// run too, so that the sanitizers see them handle every name the parser accepts.
std::string format_stations(std::vector<rowscan::stations::station_summary> const& stations) {
  std::ostringstream other;
  rowscan::stations::write_json(other, stations);
  rowscan::stations::write_csv(other, stations);
  std::ostringstream out;
  rowscan::stations::write_onebrc(out, stations);
  return out.str();
}

/// parse_line on every line, a std::map for the grouping, the library's formatter for the text.
std::string stations_by_lines(std::string_view text, outcome& got) {
  using namespace rowscan::stations;
  std::map<std::string, station_summary> table;
  std::uint64_t number = 0;
  for (line_view const& line : lines_of(text)) {
    ++number;
    auto const size = static_cast<std::uint32_t>(line.bytes.size());
    parsed_line const p = parse_line(line.bytes.data(), size);
    if (p.status != line_status::ok) {
      got = outcome::error(number, line.begin + p.error_at);
      if (describe(p.status) == nullptr || std::string(describe(p.status)).empty()) return "no description";
      return "";
    }
    if (p.name_size == 0 || p.name_size > max_name_bytes || line.bytes[p.name_size] != ';') {
      return "parse_line: name size " + std::to_string(p.name_size) + " does not end at the ';'";
    }
    if (p.key != name_hash(line.bytes.data(), p.name_size)) return "parse_line: key is not the name's hash";
    if (p.tenths < -999 || p.tenths > 999) return "parse_line: tenths out of range";
    std::string name(line.bytes.substr(0, p.name_size));
    auto [it, fresh] = table.try_emplace(name, station_summary{name, p.tenths, p.tenths, 0, 0});
    it->second.min = std::min<std::int32_t>(it->second.min, p.tenths);
    it->second.max = std::max<std::int32_t>(it->second.max, p.tenths);
    it->second.sum += p.tenths;
    it->second.count += 1;
  }
  std::vector<station_summary> stations;
  for (auto& entry : table) stations.push_back(std::move(entry.second));
  got = {true, format_stations(stations), 0, 0};
  return "";
}

/// Runs a pipeline; an input_error becomes got's error outcome (its message checked), any other
/// exception a problem. run() sets got for an answer and returns a problem or "".
template <class Run>
std::string run_pipeline(outcome& got, Run run) {
  try {
    return run();
  } catch (rowscan::input_error const& e) {
    got = outcome::error(e.line(), e.byte_offset());
    return check_message(e.what(), got);
  } catch (std::exception const& e) {
    return std::string("summarize threw something other than an input_error: ") + e.what();
  }
}

std::string stations_pipeline(std::string_view text, std::size_t chunk_size, unsigned key_bits, outcome& got) {
  rowscan::stations::summarize_options options;
  options.chunk_size = chunk_size;
  options.key_bits = key_bits;
  return run_pipeline(got, [&]() -> std::string {
    auto const result = rowscan::stations::summarize(shared_file().hold(text), label, options);
    got = {true, format_stations(result.stations), 0, 0};
    auto const lines = static_cast<std::uint64_t>(lines_of(text).size());
    if (result.bytes != text.size()) return "summary counts " + std::to_string(result.bytes) + " bytes";
    if (result.lines != lines) return "summary counts " + std::to_string(result.lines) + " lines, not " + std::to_string(lines);
    return "";
  });
}

/// The --skip-invalid outcome: the answer over the valid lines, then the count of skipped lines and the
/// positions of the first five, as one text; or the error of a line too long to skip.
template <class Reference>
outcome skipping_reference(Reference answer) {
  std::vector<reference::skipped_line> skipped;
  try {
    std::string text = answer(&skipped);
    text += "skipped " + std::to_string(skipped.size());
    for (std::size_t i = 0; i < skipped.size() && i < rowscan::skipped_lines::kept; ++i) {
      text += " " + std::to_string(skipped[i].line) + ":" + std::to_string(skipped[i].byte_offset);
    }
    return {true, text, 0, 0};
  } catch (reference::bad_input const& e) {
    return outcome::error(e.line, e.byte_offset);
  }
}

/// The same text for what a summarize run skipped.
std::string skipped_text(rowscan::skipped_lines const& skipped) {
  std::string text = "skipped " + std::to_string(skipped.count());
  for (auto const& e : skipped.first()) text += " " + std::to_string(e.line()) + ":" + std::to_string(e.byte_offset());
  return text;
}

std::string stations_skipping_pipeline(std::string_view text, std::size_t chunk_size, outcome& got) {
  rowscan::stations::summarize_options options;
  options.chunk_size = chunk_size;
  options.skip_invalid = true;
  return run_pipeline(got, [&]() -> std::string {
    auto const result = rowscan::stations::summarize(shared_file().hold(text), label, options);
    got = {true, format_stations(result.stations) + skipped_text(result.skipped), 0, 0};
    for (auto const& e : result.skipped.first()) {
      if (std::string problem = check_message(e.what(), outcome::error(e.line(), e.byte_offset())); !problem.empty()) {
        return problem;
      }
    }
    return "";
  });
}

// ---- lineitem -----------------------------------------------------------------------------------------

std::vector<std::uint64_t> const& thresholds() {
  static std::vector<std::uint64_t> const z = {0, 1, 5, 1000, 4294967295ull, 4294967296ull, ~std::uint64_t{0}};
  return z;
}

std::string sums_text(std::vector<reference::lineitem_sum> const& sums) {
  std::string out;
  for (auto const& s : sums) out += reference::cents_text(s.sum_cents) + " " + std::to_string(s.rows) + "\n";
  return out;
}

outcome lineitem_reference(std::string_view text) {
  try {
    return {true, sums_text(reference::lineitem_sums(text, thresholds())), 0, 0};
  } catch (reference::bad_input const& e) {
    return outcome::error(e.line, e.byte_offset);
  }
}

/// parse_row on every line and a 128-bit loop.
std::string lineitem_by_lines(std::string_view text, outcome& got) {
  using namespace rowscan::lineitem;
  std::vector<reference::lineitem_sum> sums;
  for (std::uint64_t z : thresholds()) sums.push_back({z, 0, 0});
  std::uint64_t number = 0;
  for (line_view const& line : lines_of(text)) {
    ++number;
    std::uint32_t pipes = 0;
    parsed_row const p = parse_row(line.bytes.data(), static_cast<std::uint32_t>(line.bytes.size()), &pipes);
    if (p.status != row_status::ok) {
      got = outcome::error(number, line.begin + p.error_at);
      if (describe(p.status) == nullptr || std::string(describe(p.status)).empty()) return "no description";
      return "";
    }
    if (pipes != fields_per_row) return "parse_row accepted a row with " + std::to_string(pipes) + " '|'";
    for (auto& s : sums) {
      if (p.suppkey < s.suppkey_below) {
        s.sum_cents += static_cast<reference::uint128>(p.quantity) * p.price_cents;
        s.rows += 1;
      }
    }
  }
  got = {true, sums_text(sums), 0, 0};
  return "";
}

/// What summarize may say for one chunk size: the reference's outcome, unless a line too long for a
/// chunk comes first; that line is an error at its first byte.
///
/// A last line without '\n' of exactly chunk_size bytes fits the chunk.
std::vector<outcome> lineitem_expected(std::string_view text, std::size_t chunk_size) {
  std::uint64_t number = 0;
  for (line_view const& line : lines_of(text)) {
    ++number;
    // The reader fills a chunk from the line's start; without its '\n' in the buffer, it is too long.
    bool const too_long = line.has_newline ? line.bytes.size() + 1 > chunk_size : line.bytes.size() > chunk_size;
    bool const fills_chunk_exactly = !line.has_newline && line.bytes.size() == chunk_size;
    if (too_long || fills_chunk_exactly) {
      outcome const before = lineitem_reference(text.substr(0, line.begin));
      if (!before.ok) return {before};
      if (too_long) return {outcome::error(number, line.begin)};
      return {lineitem_reference(text)};
    }
  }
  return {lineitem_reference(text)};
}

std::string lineitem_pipeline(std::string_view text, std::size_t chunk_size, outcome& got, bool skip_invalid = false) {
  rowscan::lineitem::summarize_options options;
  options.chunk_size = chunk_size;
  options.suppkey_below = thresholds();
  options.skip_invalid = skip_invalid;
  return run_pipeline(got, [&]() -> std::string {
    auto const result = rowscan::lineitem::summarize(shared_file().hold(text), label, options);
    std::vector<reference::lineitem_sum> sums;
    for (auto const& a : result.answers) sums.push_back({a.suppkey_below, a.sum_cents, a.rows});
    got = {true, sums_text(sums) + (skip_invalid ? skipped_text(result.skipped) : ""), 0, 0};
    if (result.bytes != text.size()) return "summary counts " + std::to_string(result.bytes) + " bytes";
    return "";
  });
}

}  // namespace

std::string check_stations_input(std::string_view text) {
  outcome const expected = stations_reference(text);
  outcome got;
  if (std::string problem = stations_by_lines(text, got); !problem.empty()) return "parse_line loop: " + problem;
  if (std::string diff = compare("parse_line loop", expected, got); !diff.empty()) return diff;

  struct run { std::size_t chunk_size; unsigned key_bits; };
  for (run r : {run{128, 64}, run{128 + text.size() % 211, 1}, run{4096, 64}}) {
    std::string const who = "summarize(chunk_size=" + std::to_string(r.chunk_size) +
                            ", key_bits=" + std::to_string(r.key_bits) + ")";
    if (std::string problem = stations_pipeline(text, r.chunk_size, r.key_bits, got); !problem.empty()) {
      return who + ": " + problem;
    }
    if (std::string diff = compare(who.c_str(), expected, got); !diff.empty()) return diff;
  }

  // --skip-invalid: the reference's answer over the valid lines and its first skipped positions.
  outcome const skipping = skipping_reference([&](std::vector<reference::skipped_line>* skipped) {
    return reference::stations_answer(text, skipped);
  });
  for (std::size_t chunk_size : {std::size_t{128}, 128 + text.size() % 307}) {
    std::string const who = "summarize(chunk_size=" + std::to_string(chunk_size) + ", skip_invalid)";
    if (std::string problem = stations_skipping_pipeline(text, chunk_size, got); !problem.empty()) return who + ": " + problem;
    if (std::string diff = compare(who.c_str(), skipping, got); !diff.empty()) return diff;
  }
  return "";
}

std::string check_lineitem_input(std::string_view text) {
  outcome got;
  if (std::string problem = lineitem_by_lines(text, got); !problem.empty()) return "parse_row loop: " + problem;
  if (std::string diff = compare("parse_row loop", lineitem_reference(text), got); !diff.empty()) return diff;

  for (std::size_t chunk_size : {std::size_t{256}, 256 + text.size() % 211, std::size_t{4096}}) {
    std::string const who = "summarize(chunk_size=" + std::to_string(chunk_size) + ")";
    if (std::string problem = lineitem_pipeline(text, chunk_size, got); !problem.empty()) return who + ": " + problem;
    std::vector<outcome> const accepted = lineitem_expected(text, chunk_size);
    std::string diff;
    for (outcome const& expected : accepted) {
      diff = compare(who.c_str(), expected, got);
      if (diff.empty()) break;
    }
    if (!diff.empty()) return diff;
  }

  // --skip-invalid, where every line fits a chunk (a longer one is never skipped: see lineitem_expected).
  std::size_t longest = 0;
  for (line_view const& line : lines_of(text)) longest = std::max(longest, line.bytes.size() + 1);
  outcome const skipping = skipping_reference([&](std::vector<reference::skipped_line>* skipped) {
    return sums_text(reference::lineitem_sums(text, thresholds(), skipped));
  });
  for (std::size_t chunk_size : {std::size_t{256}, std::size_t{4096}}) {
    if (longest >= chunk_size) continue;
    std::string const who = "summarize(chunk_size=" + std::to_string(chunk_size) + ", skip_invalid)";
    if (std::string problem = lineitem_pipeline(text, chunk_size, got, true); !problem.empty()) return who + ": " + problem;
    if (std::string diff = compare(who.c_str(), skipping, got); !diff.empty()) return diff;
  }
  return "";
}

}  // namespace fuzz
