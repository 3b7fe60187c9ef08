// SPDX-License-Identifier: Apache-2.0
// The fast path's lines read a stretch of text a thread (rowscan/stations/lines_by_stretch.hpp) against
// the scalar rules: parse_line and a std::map of the known names give every line's id (the sentinel for
// a bad line or a new station) and reading, the text's last line included when no '\n' ends it. Every
// row must hold its own line's, wherever the lines fall on the stretches and however the text is aligned.
#include "rowscan/context.hpp"
#include "rowscan/stations/dense_ids.hpp"
#include "rowscan/stations/line_format.hpp"
#include "rowscan/stations/lines_by_stretch.hpp"
#include "rowscan/stations/worker.hpp"

#include "support/known_stations.hpp"
#include "support/light_mode.hpp"

#include <gtest/gtest.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace rowscan::stations;

/// Each line's id and reading, in the order of the lines.
struct line_rows {
  std::vector<station_id> ids;
  std::vector<std::int16_t> tenths;
};

/// What the scalar rules say of every line of text.
line_rows expected_rows(std::string const& text, std::map<std::string, station_id> const& known) {
  line_rows out;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t const newline = text.find('\n', begin);
    std::size_t const stop = newline == std::string::npos ? text.size() : newline;
    parsed_line const p = parse_line(text.data() + begin, static_cast<std::uint32_t>(stop - begin));
    auto const id = p.status == line_status::ok ? known.find(text.substr(begin, p.name_size)) : known.end();
    out.ids.push_back(id == known.end() ? needs_general_path : id->second);
    out.tenths.push_back(id == known.end() ? 0 : p.tenths);
    begin = stop + 1;
  }
  return out;
}

/// Marks a row that the composition did not write.
constexpr station_id unwritten = 0xABCD;

/// read_lines_by_stretch over text placed `misalignment` bytes past an aligned address in device memory,
/// with '\n', ';' and digits around it that it must not read as the text's. The rows come back with
/// one more, which must stay unwritten.
line_rows read_by_stretch(support::known_names& known, std::string const& text, std::size_t misalignment,
                          std::uint32_t stretch_bytes) {
  std::string placed = std::string(misalignment, '\n') + text;
  for (std::size_t i = 0; i < text_padding_bytes; ++i) placed += ";\n1.0"[i % 5];
  thrust::device_vector<char> const device_text(placed.begin(), placed.end());
  std::size_t const capacity = text.size() + 1;
  thrust::device_vector<station_id> ids(capacity + 1, unwritten);
  thrust::device_vector<std::int16_t> tenths(capacity + 1, 0);
  thrust::device_vector<std::uint32_t> first_rows;
  dictionary_view const view = known.view();
  std::size_t const lines =
      read_lines_by_stretch(thrust::raw_pointer_cast(device_text.data()) + misalignment, text.size(), view,
                            stretch_bytes, first_rows, thrust::raw_pointer_cast(ids.data()),
                            thrust::raw_pointer_cast(tenths.data()), capacity, known.ctx);
  line_rows out;
  out.ids.resize(lines + 1);
  out.tenths.resize(lines + 1);
  thrust::copy(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(lines + 1), out.ids.begin());
  thrust::copy(tenths.begin(), tenths.begin() + static_cast<std::ptrdiff_t>(lines + 1), out.tenths.begin());
  return out;
}

/// Checks every row against the scalar rules, and that the row after the last was not written.
void expect_rows(support::known_names& known, std::string const& text, std::size_t misalignment,
                 std::uint32_t stretch_bytes) {
  SCOPED_TRACE("stretch_bytes=" + std::to_string(stretch_bytes) + " misalignment=" + std::to_string(misalignment) +
               " text bytes=" + std::to_string(text.size()));
  line_rows const expected = expected_rows(text, known.ids);
  line_rows const got = read_by_stretch(known, text, misalignment, stretch_bytes);
  ASSERT_EQ(got.ids.size(), expected.ids.size() + 1) << "line count";
  for (std::size_t i = 0; i < expected.ids.size(); ++i) {
    ASSERT_EQ(got.ids[i], expected.ids[i]) << "line " << i;
    if (expected.ids[i] != needs_general_path) {
      ASSERT_EQ(got.tenths[i], expected.tenths[i]) << "line " << i;
    }
  }
  EXPECT_EQ(got.ids.back(), unwritten) << "the row after the last line was written";
}

std::vector<std::uint32_t> const stretch_sizes = {line_stretch_bytes, 512, 65536, 128, 100, 7, 1};

TEST(LinesByStretch, EveryRowHoldsItsOwnLinesIdAndReading) {
  // Whole keys, and keys of 3 bits (names share buckets and keys: lookups walk them and compare names).
  for (unsigned seed : support::light(std::vector<unsigned>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
                                                            18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30},
                                      std::vector<unsigned>{1, 2, 3})) {
    std::uint64_t const key_mask = seed % 2 ? ~std::uint64_t{0} : 7;
    SCOPED_TRACE("seed=" + std::to_string(seed) + " key_mask=" + std::to_string(key_mask));
    std::mt19937 rng(seed);
    std::vector<std::string> const names = support::random_names(rng, 5 + rng() % 60);
    support::known_names known(names, key_mask);
    // Mostly valid lines (a block the fast path takes), or one bad line in four (it must name each).
    bool const mostly_valid = seed % 3 != 0;
    std::string text;
    std::size_t const lines = 100 + rng() % 500;
    for (std::size_t i = 0; i < lines; ++i) {
      std::string const line = mostly_valid && rng() % 16 != 0
                                   ? names[rng() % names.size()] + ";" + support::random_temperature(rng)
                                   : support::random_line(rng, names);
      text += line + (i + 1 < lines || rng() % 2 ? "\n" : "");
    }
    for (std::uint32_t stretch : stretch_sizes) expect_rows(known, text, rng() % 8, stretch);
    if (HasFatalFailure()) return;
  }
}

TEST(LinesByStretch, LinesOnTheStretchesEdges) {
  support::known_names known({"a", "bc", "Petropavlovsk-Kamchatsky", std::string(100, 'n')});
  // Lines of exactly 16 bytes start on every stretch's first byte at 16-byte stretches; one byte shorter
  // or longer, they start one byte before or after it, in turn.
  for (std::size_t line_bytes : {15, 16, 17}) {
    std::string const name(line_bytes - 5, 'n');
    support::known_names these({name, "a"});
    std::string text;
    for (int i = 0; i < 40; ++i) text += name + ";" + std::to_string(i % 10) + "." + std::to_string(i % 7) + "\n";
    for (std::size_t misalignment = 0; misalignment < 8; ++misalignment) {
      expect_rows(these, text, misalignment, 16);
      expect_rows(these, text, misalignment, 8);
    }
  }
  // A line longer than any valid line, over several stretches, between valid ones: the lines after it
  // keep their own rows.
  std::string const long_line = std::string(300, 'x') + ";1.0";
  for (std::string const& text :
       {"a;1.0\n" + long_line + "\nbc;-2.5\na;3.0\n", long_line + "\na;1.0\n", "a;1.0\n" + long_line,
        std::string(1000, 'y'), std::string("\n\n\n"), std::string("a;1.0\n\na;2.0\n"), std::string("a;1.0"),
        std::string("a;1.0\nbc;99.9"), std::string(100, 'n') + ";-99.9\n" + std::string(100, 'n') + ";0.0",
        std::string("a;1.0\r\na;1.0\n"), std::string()}) {
    for (std::uint32_t stretch : stretch_sizes) {
      for (std::size_t misalignment : {0, 3}) expect_rows(known, text, misalignment, stretch);
    }
  }
}

}  // namespace
