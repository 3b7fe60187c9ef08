// `rowscan stations` (summarize + format) against the std::map reference, on random and edge-case inputs.
#include "reference/stations_reference.hpp"
#include "rowscan/error.hpp"
#include "rowscan/stations/format.hpp"
#include "rowscan/stations/summarize.hpp"

#include "support/temp_input.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

namespace {

using rowscan::stations::summarize_options;

using support::temp_input;

std::string answer(std::string const& text, std::size_t chunk_size = 0, unsigned key_bits = 64) {
  temp_input input(text);
  summarize_options options;
  options.chunk_size = chunk_size;
  options.key_bits = key_bits;
  auto const result = rowscan::stations::summarize(input.fd(), "input.txt", options);
  std::ostringstream out;
  rowscan::stations::write_onebrc(out, result.stations);
  return out.str();
}

/// Every chunk size and key width gives the reference's answer, byte for byte.
void expect_reference_answer(std::string const& text, std::vector<std::size_t> chunk_sizes = {0, 128, 4096},
                             std::vector<unsigned> key_bits = {64, 3}) {
  std::string const expected = reference::stations_answer(text);
  for (std::size_t chunk : chunk_sizes) {
    for (unsigned bits : key_bits) {
      SCOPED_TRACE("chunk_size=" + std::to_string(chunk) + " key_bits=" + std::to_string(bits));
      EXPECT_EQ(answer(text, chunk, bits), expected);
    }
  }
}

// ---- random inputs -------------------------------------------------------------------------------------

/// A UTF-8 name of 1..max_bytes bytes mixing 1-, 2-, 3- and 4-byte characters, including the bytes the
/// output format uses (' ', '=', ',', '{', '}', '/', '"').
std::string random_name(std::mt19937& rng, std::size_t max_bytes) {
  static std::vector<std::string> const alphabet = {"a", "Z", " ", "=", ",", "{", "}", "/", "\"", "'", "-", "0",
                                                    "é", "ß", "Ж", "λ", "東", "京", "서", "😀", "\x7f", "\t"};
  std::size_t const target = 1 + rng() % max_bytes;
  std::string name;
  while (name.size() < target) {
    std::string const& c = alphabet[rng() % alphabet.size()];
    if (name.size() + c.size() > max_bytes) break;
    name += c;
  }
  return name.empty() ? "x" : name;
}

std::string tenths_text(int tenths) {
  std::string s = tenths < 0 ? "-" : "";
  int const m = tenths < 0 ? -tenths : tenths;
  return s + std::to_string(m / 10) + "." + std::to_string(m % 10);
}

std::string random_measurements(std::uint32_t seed, std::size_t stations, std::size_t rows, std::size_t max_name_bytes,
                                bool final_newline = true) {
  std::mt19937 rng(seed);
  std::set<std::string> unique;
  while (unique.size() < stations) unique.insert(random_name(rng, max_name_bytes));
  std::vector<std::string> const names(unique.begin(), unique.end());
  std::string text;
  for (std::size_t r = 0; r < rows; ++r) {
    std::size_t const s = rng() % names.size();
    bool const negative_station = s % 7 == 0;  // some stations only ever read below zero
    int const tenths = negative_station ? -static_cast<int>(rng() % 1000) : static_cast<int>(rng() % 1999) - 999;
    text += names[s] + ";" + tenths_text(tenths) + "\n";
  }
  if (!final_newline && !text.empty()) text.pop_back();
  return text;
}

TEST(Stations, RandomInputsMatchReference) {
  struct shape { std::size_t stations, rows, max_name, smallest_chunk; };
  for (shape s : {shape{1, 50, 10, 128}, shape{13, 5000, 100, 1024}, shape{400, 20000, 30, 1024},
                  shape{2000, 30000, 100, 16384}}) {
    for (std::uint32_t seed : {1u, 2u}) {
      SCOPED_TRACE("stations=" + std::to_string(s.stations) + " rows=" + std::to_string(s.rows) +
                   " seed=" + std::to_string(seed));
      expect_reference_answer(random_measurements(seed, s.stations, s.rows, s.max_name), {0, s.smallest_chunk, 65536});
    }
  }
}

TEST(Stations, TenThousandStations) {
  expect_reference_answer(random_measurements(10000, 10000, 40000, 100), {0, 65536}, {64, 8});
}

TEST(Stations, TenThousandOneRowStations) {
  expect_reference_answer(random_measurements(10001, 10000, 10000, 100), {0, 8192}, {64});
}

TEST(Stations, EveryTemperatureValue) {
  std::string text;
  for (int t = -999; t <= 999; ++t) text += "s" + std::to_string((t + 1000) % 17) + ";" + tenths_text(t) + "\n";
  expect_reference_answer(text);
}

// ---- edge cases ----------------------------------------------------------------------------------------

TEST(Stations, EmptyInputPrintsEmptyBraces) { EXPECT_EQ(answer(""), "{}\n"); }

TEST(Stations, OneLine) {
  EXPECT_EQ(answer("Hamburg;12.0\n"), "{Hamburg=12.0/12.0/12.0}\n");
  EXPECT_EQ(answer("Hamburg;12.0"), "{Hamburg=12.0/12.0/12.0}\n");
}

TEST(Stations, NoFinalNewline) { expect_reference_answer(random_measurements(5, 20, 500, 40, false)); }

TEST(Stations, NegativeZeroIsZero) {
  EXPECT_EQ(answer("a;-0.0\n"), "{a=0.0/0.0/0.0}\n");
  EXPECT_EQ(answer("a;-0.0\na;0.0\n"), "{a=0.0/0.0/0.0}\n");
}

TEST(Stations, MeanRoundsHalfUpForBothSigns) {
  EXPECT_EQ(answer("a;0.1\na;0.2\n"), "{a=0.1/0.2/0.2}\n");        // 0.15 -> 0.2
  EXPECT_EQ(answer("a;-0.1\na;-0.2\n"), "{a=-0.2/-0.1/-0.1}\n");   // -0.15 -> -0.1
  EXPECT_EQ(answer("a;-1.2\na;-1.3\n"), "{a=-1.3/-1.2/-1.2}\n");   // -1.25 -> -1.2
  EXPECT_EQ(answer("a;1.2\na;1.3\n"), "{a=1.2/1.3/1.3}\n");        // 1.25 -> 1.3
  EXPECT_EQ(answer("a;0.0\na;0.0\na;-0.1\n"), "{a=-0.1/0.0/0.0}\n");  // -0.033 -> 0.0, never -0.0
  EXPECT_EQ(answer("a;-0.1\na;-0.1\na;0.1\n"), "{a=-0.1/0.0/0.1}\n");  // -0.033 -> 0.0
}

TEST(Stations, ExtremesAndAllNegative) {
  EXPECT_EQ(answer("n;-99.9\nn;-99.9\nx;99.9\n"), "{n=-99.9/-99.9/-99.9, x=99.9/99.9/99.9}\n");
  expect_reference_answer("cold;-5.5\ncold;-0.1\ncold;-45.0\ncold;-99.9\n");
}

TEST(Stations, RecordsStraddlingChunkBoundaries) {
  std::string const text = random_measurements(9, 50, 3000, 100);
  expect_reference_answer(text, {128, 129, 130, 200, 255, 1000, 1021, 4096}, {64});
}

TEST(Stations, LongCommonPrefixes) {
  std::string const prefix(99, 'p');
  std::string text;
  for (int i = 0; i < 300; ++i) {
    text += prefix + static_cast<char>('<' + i % 60) + ";" + tenths_text(i % 1999 - 999) + "\n";
    text += prefix.substr(0, static_cast<std::size_t>(i % 99) + 1) + ";" + tenths_text(i) + "\n";
  }
  expect_reference_answer(text, {0, 128, 1000}, {64, 0, 1});
}

TEST(Stations, NamesUseEveryByteButSemicolonAndNewline) {
  std::string text;
  for (int b = 1; b < 256; ++b) {
    if (b == ';' || b == '\n') continue;
    text += std::string(1, static_cast<char>(b)) + "x;1.0\n";
  }
  text += std::string(1, '\0') + ";2.0\n";
  expect_reference_answer(text);
}

TEST(Stations, NameOfExactly100Bytes) {
  std::string const name(100, 'n');
  EXPECT_EQ(answer(name + ";1.0\n" + name + ";2.0\n"), "{" + name + "=1.0/1.5/2.0}\n");
  EXPECT_EQ(answer(name + ";1.0\n" + name + ";2.0\n", 128), "{" + name + "=1.0/1.5/2.0}\n");
}

TEST(Stations, SharedKeysFallBackToNamesAndStayExact) {
  std::string const text = random_measurements(33, 300, 6000, 20);
  temp_input input(text);
  summarize_options options;
  options.key_bits = 2;
  auto const result = rowscan::stations::summarize(input.fd(), "input.txt", options);
  EXPECT_TRUE(result.names_compared);
  EXPECT_EQ(result.stations.size(), 300u);
  expect_reference_answer(text, {0, 512}, {0, 1, 2, 16, 64});
}

TEST(Stations, CountsBytesLinesAndChunks) {
  std::string const text = random_measurements(4, 10, 1000, 10);
  temp_input input(text);
  summarize_options options;
  options.chunk_size = 1024;
  auto const result = rowscan::stations::summarize(input.fd(), "input.txt", options);
  EXPECT_EQ(result.bytes, text.size());
  EXPECT_EQ(result.lines, 1000u);
  EXPECT_GE(result.chunks, text.size() / 1024);
  EXPECT_EQ(result.fast_chunks + result.general_chunks, result.chunks);
  EXPECT_EQ(result.general_chunks, 1u);  // only the first: it holds all ten stations
}

TEST(Stations, PortableAndFastPathsAgree) {
  // On CUDA builds the fast path sorts with CUB; the portable Thrust sort must give the same answer.
  std::string const text = random_measurements(21, 500, 40000, 40);
  std::string answers[2];
  for (bool portable : {false, true}) {
    temp_input input(text);
    summarize_options options;
    options.chunk_size = 65536;
    options.portable_only = portable;
    auto const result = rowscan::stations::summarize(input.fd(), "input.txt", options);
    EXPECT_GT(result.fast_chunks, 0u);
    std::ostringstream out;
    rowscan::stations::write_onebrc(out, result.stations);
    answers[portable] = out.str();
  }
  EXPECT_EQ(answers[0], reference::stations_answer(text));
  EXPECT_EQ(answers[1], answers[0]);
}

TEST(Stations, NewStationsInLaterChunksTakeTheGeneralPath) {
  // Stations 0..9 first, then every 500 rows a new one: the fast path must hand those chunks over.
  std::string text;
  for (int r = 0; r < 6000; ++r) {
    int const station = r < 1000 ? r % 10 : (r % 3 == 0 ? 10 + r / 500 : r % 10);
    text += "station " + std::to_string(station) + ";" + std::to_string(r % 100 - 50) + ".5\n";
  }
  temp_input input(text);
  summarize_options options;
  options.chunk_size = 2048;
  auto const result = rowscan::stations::summarize(input.fd(), "input.txt", options);
  EXPECT_GT(result.fast_chunks, 0u);
  EXPECT_GT(result.general_chunks, 1u);
  expect_reference_answer(text, {0, 128, 2048, 8192});
}

// ---- bad input -------------------------------------------------------------------------------------------

/// The first bad line is reported with the reference's line number and byte offset, for every chunk size.
void expect_reference_error(std::string const& text, std::vector<std::size_t> chunk_sizes = {0, 128, 300}) {
  std::uint64_t line = 0, offset = 0;
  try {
    reference::stations_answer(text);
    FAIL() << "the reference accepted the input";
  } catch (reference::bad_input const& e) {
    line = e.line;
    offset = e.byte_offset;
  }
  for (std::size_t chunk : chunk_sizes) {
    SCOPED_TRACE("chunk_size=" + std::to_string(chunk));
    try {
      answer(text, chunk);
      ADD_FAILURE() << "accepted bad input";
    } catch (rowscan::input_error const& e) {
      EXPECT_EQ(e.line(), line) << e.what();
      EXPECT_EQ(e.byte_offset(), offset) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("input.txt:" + std::to_string(line) + ": byte " + std::to_string(offset) + ": ", 0),
                0u) << e.what();
    }
  }
}

TEST(StationsErrors, EachRuleIsEnforced) {
  std::string const good = "Hamburg;12.0\nBulawayo;8.9\n";
  for (std::string bad : {"no separator", "", ";12.0", "x;", "x;1", "x;1.", "x;.5", "x;+1.0", "x;--1.0", "x;100.0",
                          "x;1.23", "x;1.0;2.0", "x;1,0", "x; 1.0", "x;1.0 ", "x;1.0\r", "x;-", "x;-.1", "x;a.b",
                          "x;123", "x;-100.0", "x;0.0x"}) {
    SCOPED_TRACE("bad line: '" + bad + "'");
    expect_reference_error(good + bad + "\n" + good);
    if (!bad.empty()) expect_reference_error(good + bad);  // as the last line, without newline
  }
}

TEST(StationsErrors, CrLfLineEndingIsNamedAtTheCarriageReturn) {
  std::string const text = "a;1.0\nbb;-12.5\r\nc;2.0\r\n";
  expect_reference_error(text);
  try {
    answer(text);
    FAIL() << "accepted a CR LF line";
  } catch (rowscan::input_error const& e) {
    EXPECT_EQ(e.line(), 2u);
    EXPECT_EQ(e.byte_offset(), 6u + 8u);  // "bb;-12.5" is 8 bytes, then the '\r'
    EXPECT_NE(std::string(e.what()).find("CR LF"), std::string::npos) << e.what();
  }
  // A '\r' after a bad temperature is not the only fault: that line is a bad temperature, at the field.
  expect_reference_error("a;1.23\r\n");
  try {
    answer("a;1.23\r\n");
    FAIL();
  } catch (rowscan::input_error const& e) {
    EXPECT_EQ(e.byte_offset(), 2u);
    EXPECT_NE(std::string(e.what()).find("temperature"), std::string::npos) << e.what();
  }
}

TEST(StationsErrors, NameLengthLimit) {
  expect_reference_error(std::string(101, 'n') + ";1.0\n");
  expect_reference_error("ok;1.0\n" + std::string(150, 'n') + "\n");
  expect_reference_error("ok;1.0\n" + std::string(5000, 'n') + ";1.0\n", {0, 128, 1024});
  expect_reference_error("ok;1.0\n" + std::string(60, 'n') + ";" + std::string(4000, '1') + "\n", {0, 128, 1024});
}

TEST(StationsErrors, BadLineDeepInsideLaterChunks) {
  std::string text = random_measurements(12, 30, 5000, 60);
  std::size_t const pos = text.find('\n', text.size() / 2) + 1;
  text.insert(pos, "broken line\n");
  expect_reference_error(text, {0, 128, 1000, 4096});
}

TEST(StationsErrors, MoreLinesThanAValidChunkCanHold) {
  // After the first chunk, a chunk of empty lines has more lines than bytes / 6: the fast path cannot
  // store them all, and the general path must still name the first one.
  std::string text = random_measurements(13, 5, 2000, 8);
  text += std::string(3000, '\n');
  expect_reference_error(text, {0, 128, 1024, 4096});
  expect_reference_error(random_measurements(14, 5, 2000, 8) + "a\nb\n" + std::string(100, '\n'), {128, 1024});
}

TEST(StationsErrors, ChunkSizeLimits) {
  EXPECT_THROW(answer("a;1.0\n", 127), rowscan::error);
  EXPECT_NO_THROW(answer("a;1.0\n", 128));
}

}  // namespace
