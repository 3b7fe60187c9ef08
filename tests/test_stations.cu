// SPDX-License-Identifier: Apache-2.0
// `rowscan stations` (summarize + format) against the std::map reference, on random and edge-case inputs.
#include "reference/stations_reference.hpp"
#include "rowscan/error.hpp"
#include "rowscan/stations/worker.hpp"
#include "rowscan/stations/format.hpp"
#include "rowscan/stations/summarize.hpp"

#include "support/light_mode.hpp"
#include "support/stations_text.hpp"
#include "support/temp_input.hpp"
#include "support/workload_harness.hpp"

#include <thrust/device_vector.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

namespace {

using rowscan::stations::summarize_options;

using support::light;
using support::random_measurements;
using support::stations_workload;
using support::temp_input;
using support::tenths_text;

rowscan::stations::summary summarize_text(std::string const& text, summarize_options const& options) {
  temp_input input(text);
  return rowscan::stations::summarize(input.fd(), "input.txt", options);
}

std::string onebrc(rowscan::stations::summary const& result) {
  std::ostringstream out;
  rowscan::stations::write_onebrc(out, result.stations);
  return out.str();
}

std::string answer(std::string const& text, std::size_t chunk_size = 0, unsigned key_bits = 64) {
  summarize_options options;
  options.chunk_size = chunk_size;
  options.key_bits = key_bits;
  return onebrc(summarize_text(text, options));
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

TEST(Stations, RandomInputsMatchReference) {
  struct shape { std::size_t stations, rows, max_name, smallest_chunk; };
  // Light mode keeps every shape's stations, names and chunk sizes, over fewer rows and one seed.
  for (shape s : light<std::vector<shape>>({{1, 50, 10, 128}, {13, 5000, 100, 1024}, {400, 20000, 30, 1024},
                                            {2000, 30000, 100, 16384}},
                                           {{1, 25, 10, 128}, {13, 40, 100, 1024}, {400, 150, 30, 1024},
                                            {2000, 600, 100, 16384}})) {
    for (std::uint32_t seed : light<std::vector<std::uint32_t>>({1, 2}, {1})) {
      SCOPED_TRACE("stations=" + std::to_string(s.stations) + " rows=" + std::to_string(s.rows) +
                   " seed=" + std::to_string(seed));
      expect_reference_answer(random_measurements(seed, s.stations, s.rows, s.max_name), {0, s.smallest_chunk, 65536});
    }
  }
}

TEST(Stations, TenThousandStations) {
  // Light mode: the 10,000 names over 5,000 rows (about 3,900 of them seen).
  expect_reference_answer(random_measurements(10000, 10000, light(40000, 5000), 100), {0, 65536}, {64, 8});
}

TEST(Stations, TenThousandOneRowStations) {
  // Light mode: 1,000 rows of the 10,000 names, still nearly one row each and new names in every chunk.
  expect_reference_answer(random_measurements(10001, 10000, light(10000, 1000), 100), {0, 8192}, {64});
}

/// `stations` distinct names, each in one line of the first half, then as many lines again of names
/// drawn at random (seed): after the first half, a worker's table holds every station.
std::string every_station_then_again(std::size_t stations, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::string text;
  auto line = [&](std::size_t s) {
    int const tenths = static_cast<int>(rng() % 1999) - 999;
    text += "st" + std::to_string(s * 7919 % stations) + ";" + tenths_text(tenths) + "\n";
  };
  for (std::size_t s = 0; s < stations; ++s) line(s);
  for (std::size_t r = 0; r < stations; ++r) line(rng() % stations);
  return text;
}

/// The skipped lines a run kept (the first ones, as many as it keeps) are the reference's.
void expect_skipped_lines(rowscan::stations::summary const& result,
                          std::vector<reference::skipped_line> const& skipped) {
  for (std::size_t i = 0; i < result.skipped.first().size(); ++i) {
    EXPECT_EQ(result.skipped.first()[i].line(), skipped[i].line);
    EXPECT_EQ(result.skipped.first()[i].byte_offset(), skipped[i].byte_offset);
  }
}

/// The same run made strict (skip_invalid off) stops at `first`, the reference's first bad line.
void expect_strict_run_stops_at(std::string const& text, summarize_options options,
                                reference::skipped_line const& first) {
  options.skip_invalid = false;
  try {
    summarize_text(text, options);
    ADD_FAILURE() << "accepted a bad line";
  } catch (rowscan::input_error const& e) {
    EXPECT_EQ(e.line(), first.line);
    EXPECT_EQ(e.byte_offset(), first.byte_offset);
  }
}

/// Options of 256 KiB blocks with `workers` workers and `key_bits`-bit keys: many blocks of a text of
/// tens of thousands of stations, so that the limits on stations are crossed between blocks.
summarize_options blocks_of_256k(unsigned workers, unsigned key_bits) {
  summarize_options options;
  options.chunk_size = std::size_t{256} << 10;
  options.workers = workers;
  options.key_bits = key_bits;
  return options;
}

// The fast path names at most max_fast_path_stations stations by 16-bit ids; one more sends every later
// block of the GPU down the general path, whose merges keep the names of the running table where they
// are, and the host's workers on to 32-bit ids. Both sides of the limit
// give the reference's answer, with one worker and with two, and with 3-bit keys that make every merge
// compare names.
TEST(Stations, EitherSideOfTheFastPathLimit) {
  constexpr std::size_t limit = rowscan::stations::max_fast_path_stations;
  for (std::size_t stations : {limit, limit + 1}) {
    std::string const text = every_station_then_again(stations, static_cast<std::uint32_t>(stations));
    std::string const expected = reference::stations_answer(text);
    for (unsigned workers : {1u, 2u}) {
      for (unsigned key_bits : light<std::vector<unsigned>>({64, 3}, {64})) {
        SCOPED_TRACE("stations=" + std::to_string(stations) + " workers=" + std::to_string(workers) +
                     " key_bits=" + std::to_string(key_bits) + " seed=" + std::to_string(stations));
        summarize_options options = blocks_of_256k(workers, key_bits);
        rowscan::stations::summary const result = summarize_text(text, options);
        EXPECT_EQ(onebrc(result), expected);
        if (workers == 1) {
#if ROWSCAN_HAS_CUB
          EXPECT_EQ(result.over_limit_chunks > 0, stations > limit);  // the second half's blocks begin over it
#else
          // On the host 32-bit ids go on past the limit: the second half's blocks, every station known,
          // take the fast path.
          EXPECT_EQ(result.over_limit_chunks, 0u);
          EXPECT_GT(result.fast_chunks, 0u);
#endif
        }
      }
    }
  }
}

/// Station s as a name of 1 to 42 bytes: its number, then a letter repeated, so that names of every
/// lookup shape (at most 8, 16 and 24 bytes, and longer) come up, and long ones share their ends.
std::string varied_name(std::size_t s) {
  return std::to_string(s) + std::string(s % 37, static_cast<char>('a' + s % 26));
}

/// `lines` lines, each of a station drawn at random from `stations` (seed), so that a worker keeps
/// meeting new stations while its table grows.
std::string random_station_lines(std::size_t stations, std::size_t lines, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::string text;
  for (std::size_t i = 0; i < lines; ++i) {
    int const tenths = static_cast<int>(rng() % 1999) - 999;
    text += varied_name(rng() % stations) + ";" + tenths_text(tenths) + "\n";
  }
  return text;
}

// Past 65,535 stations a host worker names them by 32-bit ids (up to wide_fold_up_to_stations) and sets
// the lines of stations it does not know aside for the general path; past that every block is general.
// Random lines over 70,000 names (four lines a name, so that a worker meets more than 65,535 of them),
// 120,000 (two a name) and 300,000 (one a name: a worker meets more than 131,072, past the 32-bit fold),
// with bad lines mixed in, give the reference's answer and skipped lines, and strict runs stop at the
// reference's first bad line; with one worker and with two, and at 70,000 with 3-bit keys that make the
// general path compare names. At 150,000 (two a name) each of two workers passes the limit, so the
// answer's stage folds one's table into the other's where their stations are shared (find_known), with
// 64-bit keys and with 3-bit keys that send most shared stations to the merge.
TEST(Stations, PastTheSixteenBitIds) {
  struct shape {
    std::size_t stations;
    std::size_t lines_a_station;
    std::vector<unsigned> workers;
    std::vector<unsigned> key_bits;
  };
  for (shape const& s : light<std::vector<shape>>(
           {{70000, 4, {1, 2}, {64, 3}}, {120000, 2, {1}, {64}}, {300000, 1, {1}, {64}}, {150000, 2, {2}, {64, 3}}},
           {{70000, 4, {1}, {64}}})) {
    std::size_t const stations = s.stations;
    auto const seed = static_cast<std::uint32_t>(stations);
    std::string const text =
        support::with_bad_lines(seed, random_station_lines(stations, s.lines_a_station * stations, seed), 20000,
                                stations_workload::bad_lines());
    std::vector<reference::skipped_line> skipped;
    std::string const expected = reference::stations_answer(text, &skipped);
    ASSERT_FALSE(skipped.empty());
    for (unsigned workers : s.workers) {
      for (unsigned key_bits : s.key_bits) {
        SCOPED_TRACE("stations=" + std::to_string(stations) + " workers=" + std::to_string(workers) +
                     " key_bits=" + std::to_string(key_bits) + " seed=" + std::to_string(seed));
        summarize_options options = blocks_of_256k(workers, key_bits);
        options.skip_invalid = true;
        rowscan::stations::summary const result = summarize_text(text, options);
        EXPECT_EQ(onebrc(result), expected);
        EXPECT_EQ(result.lines, static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')));
        ASSERT_EQ(result.skipped.count(), skipped.size());
        expect_skipped_lines(result, skipped);
        if (workers == 1 || stations > 2 * rowscan::stations::max_fast_path_stations) {
          EXPECT_GT(result.over_limit_chunks, 0u);
        }
        expect_strict_run_stops_at(text, options, skipped.front());
      }
    }
  }
}

/// One line per temperature from `from` to `to` tenths, over 17 stations.
std::string temperature_lines(int from, int to) {
  std::string text;
  for (int t = from; t <= to; ++t) text += "s" + std::to_string((t + 1000) % 17) + ";" + tenths_text(t) + "\n";
  return text;
}

TEST(Stations, EveryTemperatureValue) {
  std::string const text = temperature_lines(-999, 999);
  if (!support::light_mode()) return expect_reference_answer(text);
  // Light mode keeps every value at the large chunk sizes; 128-byte chunks see both ends and zero.
  expect_reference_answer(text, {0, 4096});
  expect_reference_answer(temperature_lines(-999, -980) + temperature_lines(-20, 20) + temperature_lines(980, 999),
                          {128});
}

// ---- edge cases ----------------------------------------------------------------------------------------

TEST(Stations, EmptyInputPrintsEmptyBraces) { EXPECT_EQ(answer(""), "{}\n"); }

TEST(Stations, OneLine) {
  EXPECT_EQ(answer("Hamburg;12.0\n"), "{Hamburg=12.0/12.0/12.0}\n");
  EXPECT_EQ(answer("Hamburg;12.0"), "{Hamburg=12.0/12.0/12.0}\n");
}

TEST(Stations, NoFinalNewline) { expect_reference_answer(random_measurements(5, 20, light(500, 30), 40, false)); }

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
  std::string const text = random_measurements(9, 50, light(3000, 15), 100);  // light: about 10 boundaries at 128
  expect_reference_answer(text, {128, 129, 130, 200, 255, 1000, 1021, 4096}, {64});
}

TEST(Stations, LongCommonPrefixes) {
  std::string const prefix(99, 'p');
  std::string text;
  for (int i = 0; i < 300; i += light(1, 50)) {  // light: six of the lengths and last bytes
    text += prefix + static_cast<char>('<' + i % 60) + ";" + tenths_text(i % 1999 - 999) + "\n";
    text += prefix.substr(0, static_cast<std::size_t>(i % 99) + 1) + ";" + tenths_text(i) + "\n";
  }
  expect_reference_answer(text, {0, 128, 1000}, {64, 0, 1});
}

// Names over 24 bytes that share their first 16 bytes and their last 8, so that their lookup keys are
// equal, and differ only in a middle byte or in their size: only the middle words tell them apart.
TEST(Stations, LongNamesThatDifferOnlyInTheirMiddle) {
  using namespace std::string_literals;
  std::string const head = "0123456789abcdef", tail = "TAILtail";
  std::vector<std::string> names = {head + "M" + tail, head + "N" + tail, head + "middle01" + tail,
                                    head + "middle02" + tail, head + "middle01\0"s + tail, head + tail};
  for (std::size_t at : {0, 37, 75}) {  // 100-byte names, one middle byte apart
    std::string name = head + std::string(76, 'm') + tail;
    name[16 + at] = 'x';
    names.push_back(name);
  }
  names.push_back(head + std::string(76, 'm') + tail);
  std::string text;
  for (int i = 0; i < 120; ++i) text += names[static_cast<std::size_t>(i * 7 % 10)] + ";" + tenths_text(i * 37 % 1999 - 999) + "\n";
  expect_reference_answer(text, {0, 256, 4096}, {64, 3, 0});
}

/// A name of `bytes` bytes (29 to 100) that shares its first 16 bytes and its last 8 with every other
/// number's: "Weather station #12345xxx (auto)".
std::string shared_ends_name(int number, std::size_t bytes) {
  std::string const name = "Weather station #" + std::to_string(number);
  return name + std::string(bytes - name.size() - 7, 'x') + " (auto)";
}

// Names of one size that share their first 16 and last 8 bytes: every byte of a name is in the fast
// path's lookup key, so these spread over the dictionary's buckets like any names (a key of their ends
// alone gave 10,000 such names 10 keys, and each lookup compared a thousand names).
TEST(StationsLookupKey, NamesThatShareTheirEndsGetKeysOfTheirOwn) {
  using namespace rowscan::stations;
  for (std::size_t bytes : {29, 33, 64, 100}) {
    SCOPED_TRACE("names of " + std::to_string(bytes) + " bytes");
    std::set<std::uint64_t> keys;
    for (int n = 10000; n < 20000; ++n) {
      std::string const name = shared_ends_name(n, bytes);
      std::string const padded = name + std::string(text_padding_bytes, '\0');
      auto const size = static_cast<std::uint32_t>(name.size());
      name_words const read{padded.data()};
      keys.insert(lookup_key(read(0, size), read.second_word(size), read.word_at(size - 8),
                             middle_key(text_word{read}, size), size));
    }
    EXPECT_EQ(keys.size(), 10000u);
  }
}

TEST(Stations, NamesThatShareTheirEndsMatchTheReference) {
  // Light mode: 300 names of each size over 3,000 rows.
  int const stations = light(2000, 300);
  std::vector<std::string> names;
  for (int n = 0; n < stations; ++n) {
    names.push_back(shared_ends_name(10000 + n, 29));
    names.push_back(shared_ends_name(10000 + n, 100));
  }
  std::string text;
  for (int i = 0; i < light(40000, 3000); ++i) {
    text += names[static_cast<std::size_t>(i) * 7919 % names.size()] + ";" + tenths_text(i * 37 % 1999 - 999) + "\n";
  }
  expect_reference_answer(text, {0, 65536}, {64});
}

/// Names that hold every byte but ';' and '\n', `per_name` bytes before an 'x' (1: every byte starts a
/// name), and a name of the NUL byte alone.
std::string every_name_byte(std::size_t per_name) {
  std::string text, name;
  for (int b = 1; b < 256; ++b) {
    if (b == ';' || b == '\n') continue;
    name += static_cast<char>(b);
    if (name.size() == per_name || b == 255) {
      text += name + "x;1.0\n";
      name.clear();
    }
  }
  return text + std::string(1, '\0') + ";2.0\n";
}

TEST(Stations, NamesUseEveryByteButSemicolonAndNewline) {
  if (!support::light_mode()) return expect_reference_answer(every_name_byte(1));
  // Light mode: every byte starts a name at the large chunk sizes; 128-byte chunks see 8 bytes a name.
  expect_reference_answer(every_name_byte(1), {0, 4096});
  expect_reference_answer(every_name_byte(8), {128});
}

TEST(Stations, NameOfExactly100Bytes) {
  std::string const name(100, 'n');
  EXPECT_EQ(answer(name + ";1.0\n" + name + ";2.0\n"), "{" + name + "=1.0/1.5/2.0}\n");
  EXPECT_EQ(answer(name + ";1.0\n" + name + ";2.0\n", 128), "{" + name + "=1.0/1.5/2.0}\n");
}

TEST(Stations, SharedKeysFallBackToNamesAndStayExact) {
  std::size_t const stations = light(300, 20);  // light: 20 names on 4 keys, over 120 rows
  std::string const text = random_measurements(33, stations, light(6000, 120), 20);
  temp_input input(text);
  summarize_options options;
  options.key_bits = 2;
  auto const result = rowscan::stations::summarize(input.fd(), "input.txt", options);
  EXPECT_TRUE(result.names_compared);
  EXPECT_EQ(result.stations.size(), stations);
  expect_reference_answer(text, {0, 512}, {0, 1, 2, 16, 64});
}

TEST(Stations, CountsBytesLinesAndChunks) {
  std::string const text = random_measurements(4, 10, 1000, 10);
  temp_input input(text);
  summarize_options options;
  options.chunk_size = 1024;
  options.workers = 1;  // one worker learns the stations once; each further host worker learns them too
  auto const result = rowscan::stations::summarize(input.fd(), "input.txt", options);
  EXPECT_EQ(result.bytes, text.size());
  EXPECT_EQ(result.lines, 1000u);
  EXPECT_GE(result.chunks, text.size() / 1024);
  EXPECT_EQ(result.fast_chunks + result.general_chunks, result.chunks);
  EXPECT_EQ(result.general_chunks, 1u);  // only the first: it holds all ten stations
}

TEST(Stations, EveryWorkerCountGivesTheSameAnswer) {
  // Host workers fold whole blocks in parallel (one per core by default); the answer, the counts and
  // the skipped lines are those of one worker, whatever the split. (The CUDA build runs one worker.)
  std::string const text =
      support::with_bad_lines(5, random_measurements(6, 50, light(20000, 2000), 20), 40, stations_workload::bad_lines());
  std::vector<reference::skipped_line> skipped;
  std::string const expected = reference::stations_answer(text, &skipped);
  for (unsigned workers : {1u, 2u, 3u, 8u}) {
    for (std::size_t chunk : {std::size_t{1024}, std::size_t{65536}}) {
      SCOPED_TRACE("workers=" + std::to_string(workers) + " chunk_size=" + std::to_string(chunk));
      summarize_options options;
      options.chunk_size = chunk;
      options.workers = workers;
      options.skip_invalid = true;
      auto const result = summarize_text(text, options);
      EXPECT_EQ(onebrc(result), expected);
      EXPECT_EQ(result.lines, static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')));
      EXPECT_EQ(result.fast_chunks + result.general_chunks, result.chunks);
      ASSERT_EQ(result.skipped.count(), skipped.size());
      expect_skipped_lines(result, skipped);
      // strict: the first bad line in input order, whoever folds it
      expect_strict_run_stops_at(text, options, skipped.front());
    }
  }
}

TEST(Stations, PortableAndFastPathsAgree) {
  // On CUDA builds the fast path sorts with CUB; the portable Thrust sort must give the same answer.
  std::string const text = random_measurements(21, 500, light(40000, 10000), 40);  // light: 9 chunks, some fast
  std::string answers[2];
  for (bool portable : {false, true}) {
    temp_input input(text);
    summarize_options options;
    options.chunk_size = 65536;
    options.portable_only = portable;
    options.workers = 1;  // on the host build, several workers would each spend their first blocks learning
    auto const result = rowscan::stations::summarize(input.fd(), "input.txt", options);
    EXPECT_GT(result.fast_chunks, 0u);
    std::ostringstream out;
    rowscan::stations::write_onebrc(out, result.stations);
    answers[portable] = out.str();
  }
  EXPECT_EQ(answers[0], reference::stations_answer(text));
  EXPECT_EQ(answers[1], answers[0]);
}

/// `rows` rows of stations 0..9 for the first `first`, then a new station every `every` rows.
std::string new_stations_text(int rows, int first, int every) {
  std::string text;
  for (int r = 0; r < rows; ++r) {
    int const station = r < first ? r % 10 : (r % 3 == 0 ? 10 + r / every : r % 10);
    text += "station " + std::to_string(station) + ";" + std::to_string(r % 100 - 50) + ".5\n";
  }
  return text;
}

TEST(Stations, NewStationsInLaterChunksTakeTheGeneralPath) {
  // Stations 0..9 first, then every 500 rows a new one: the fast path must hand those chunks over.
  // Light mode: a new one every 100 rows of 400 (a 2 KB chunk holds about 60); 128-byte chunks see a
  // new one every 6 rows of 30.
  std::string const text = light(new_stations_text(6000, 1000, 500), new_stations_text(400, 100, 100));
  temp_input input(text);
  summarize_options options;
  options.chunk_size = 2048;
  options.workers = 1;  // the path policy of one worker, which sees every block
  auto const result = rowscan::stations::summarize(input.fd(), "input.txt", options);
  EXPECT_GT(result.fast_chunks, 0u);
  EXPECT_GT(result.general_chunks, 1u);
  if (!support::light_mode()) return expect_reference_answer(text, {0, 128, 2048, 8192});
  expect_reference_answer(text, {0, 2048});
  expect_reference_answer(new_stations_text(30, 6, 6), {128});
}

// ---- bad input -------------------------------------------------------------------------------------------

std::string answer_skipping(std::string const& text, std::size_t chunk_size);

/// The first bad line is reported with the reference's line number and byte offset, for every chunk
/// size; with skip_invalid, the first line too long to skip.
void expect_reference_error(std::string const& text, std::vector<std::size_t> chunk_sizes = {0, 128, 300},
                            bool skip_invalid = false) {
  std::uint64_t line = 0, offset = 0;
  try {
    std::vector<reference::skipped_line> skipped;
    reference::stations_answer(text, skip_invalid ? &skipped : nullptr);
    FAIL() << "the reference accepted the input";
  } catch (reference::bad_input const& e) {
    line = e.line;
    offset = e.byte_offset;
  }
  for (std::size_t chunk : chunk_sizes) {
    SCOPED_TRACE("chunk_size=" + std::to_string(chunk));
    try {
      if (skip_invalid) {
        answer_skipping(text, chunk);
      } else {
        answer(text, chunk);
      }
      ADD_FAILURE() << "accepted bad input";
    } catch (rowscan::input_error const& e) {
      EXPECT_EQ(e.line(), line) << e.what();
      EXPECT_EQ(e.byte_offset(), offset) << e.what();
      // FILE:LINE:COLUMN: why: "quote" (the offset is byte_offset(), above).
      EXPECT_EQ(std::string(e.what()).rfind(support::position_of("input.txt", line, text, offset), 0), 0u) << e.what();
      EXPECT_EQ(e.column(), support::column_of(text, offset)) << e.what();
      EXPECT_EQ(e.quote(), support::quote_of(text, offset)) << e.what();
    }
  }
}

TEST(StationsErrors, EachRuleIsEnforced) {
  std::string const good = "Hamburg;12.0\nBulawayo;8.9\n";
  std::vector<std::size_t> const chunk_sizes = {0, 128, 300};
  std::size_t turn = 0;  // light mode: every rule in both places (the last without '\n'), each at one chunk size
  for (std::string bad : {"no separator", "", ";12.0", "x;", "x;1", "x;1.", "x;.5", "x;+1.0", "x;--1.0", "x;100.0",
                          "x;1.23", "x;1.0;2.0", "x;1,0", "x; 1.0", "x;1.0 ", "x;1.0\r", "x;-", "x;-.1", "x;a.b",
                          "x;123", "x;-100.0", "x;0.0x"}) {
    SCOPED_TRACE("bad line: '" + bad + "'");
    expect_reference_error(good + bad + "\n" + good, support::in_turn(chunk_sizes, turn++));
    if (!bad.empty()) expect_reference_error(good + bad, support::in_turn(chunk_sizes, turn));  // as the last line
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
  std::string text = random_measurements(12, 30, light(5000, 130), 60);  // light: still past the first 4096-byte chunk
  std::size_t const pos = text.find('\n', text.size() / 2) + 1;
  text.insert(pos, "broken line\n");
  expect_reference_error(text, {0, 128, 1000, 4096});
}

TEST(StationsErrors, MoreLinesThanAValidChunkCanHold) {
  // After the first chunk, a chunk of empty lines has more lines than bytes / 6: the fast path cannot
  // store them all, and the general path must still name the first one.
  std::string text = random_measurements(13, 5, light(2000, 220), 8);  // light: still past the first 4096-byte chunk
  text += std::string(3000, '\n');
  expect_reference_error(text, {0, 128, 1024, 4096});
  expect_reference_error(random_measurements(14, 5, light(2000, 100), 8) + "a\nb\n" + std::string(100, '\n'),
                         {128, 1024});
}

TEST(StationsErrors, ChunkSizeLimits) {
  EXPECT_THROW(answer("a;1.0\n", 127), rowscan::error);
  EXPECT_NO_THROW(answer("a;1.0\n", 128));
}

// ---- --skip-invalid --------------------------------------------------------------------------------------

// The workload-independent --skip-invalid and out-of-memory tests run for every workload in
// test_bad_input.cpp; these are about stations' own paths.

/// Every chunk size and reader thread count (key width 64) gives the reference's answer and skipped lines.
void expect_reference_skipping(std::string const& text, std::vector<std::size_t> const& chunk_sizes,
                               std::vector<unsigned> const& threads = {1, 2}) {
  support::expect_reference_skipping<stations_workload>(text, chunk_sizes, threads);
}

TEST(StationsSkipInvalid, BadLinesInLaterChunksAfterTheFastPathStarted) {
  // The first chunks teach the dictionary; the bad lines come later, where the fast path must hand over.
  auto text_of = [](std::size_t good_rows, std::size_t mixed_rows, unsigned one_in) {
    std::string const good = random_measurements(41, 20, good_rows, 20);
    return good + support::with_bad_lines(42, random_measurements(43, 20, mixed_rows, 20), one_in,
                                          stations_workload::bad_lines()) + good;
  };
  if (!support::light_mode()) return expect_reference_skipping(text_of(4000, 2000, 40), {0, 128, 2048, 8192});
  // Light mode: for each chunk size, good lines (of about 17 bytes) that show the 20 names and fill three
  // chunks more, on each side of 40 mixed lines; one reader thread count in turn.
  std::size_t turn = 0;
  for (std::size_t chunk : {0, 128, 2048, 8192}) {
    std::size_t const good_rows = 60 + 3 * (chunk == 0 ? 8192 : chunk) / 2 / 17;
    expect_reference_skipping(text_of(good_rows, 40, 8), {chunk}, support::in_turn<unsigned>({1, 2}, turn++));
  }
}

TEST(StationsSkipInvalid, LineLongerThanTheReaderCarriesIsNeverSkipped) {
  // Bad lines before it are skipped; the overlong line stops the run with its usual error, at the same
  // place for every chunk size, whether the reader or the device finds it.
  for (std::string const& overlong : {std::string(5000, 'n'), "n;" + std::string(4095, '1'), std::string(4096, 'n')}) {
    SCOPED_TRACE("overlong size=" + std::to_string(overlong.size()));
    std::string const text = "a;1.0\nbad\n" + random_measurements(46, 5, light(300, 30), 10) + overlong + "\nb;2.0\n";
    expect_reference_error(text, {0, 128, 1000, 8192, std::size_t{1} << 20}, true);
  }
  // 4095 bytes and its '\n' fit the carry: skipped like any bad line.
  expect_reference_skipping("a;1.0\n" + std::string(4095, 'n') + "\nb;2.0\n", {0, 128, 1000});
}

std::string answer_skipping(std::string const& text, std::size_t chunk_size) {
  support::run_options options;
  options.chunk_size = chunk_size;
  return stations_workload::run(text, options).answer;
}

TEST(StationsSkipInvalid, AHostWorkerHandsOverFromEitherHalfOfABlock) {
  // A host worker walks a block's two halves at once (fast_reducer::fold_known_lines): a line it does not
  // know, in the first half or the second, must leave the answer, the skipped lines and the first error
  // exactly the reference's. Blocks of 8 KiB after a first block that teaches the stations; one line,
  // new or bad, at a random place in a later block.
  std::vector<std::string> const odd_lines = {"a new station;1.0", "bad line", "x;1.23", "Hamburg;12.0\r"};
  for (unsigned seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE("seed=" + std::to_string(seed));
    std::mt19937 rng(seed);
    std::string text = random_measurements(seed, 30, light(3000, 1500), 20);
    std::size_t const at = text.find('\n', 8192 + rng() % (text.size() - 8192)) + 1;
    text.insert(at, odd_lines[seed % odd_lines.size()] + "\n");
    if (seed % odd_lines.size() == 0) {
      EXPECT_EQ(answer(text, 8192), reference::stations_answer(text));
    } else {
      expect_reference_error(text, {8192});
      expect_reference_skipping(text, {8192}, {1});
    }
  }
}

// ---- 64-bit positions -----------------------------------------------------------------------------------

TEST(StationsPositions, LinesAndBytesPastTwoToThe32) {
  // A worker's block follows 2^32 - 1 lines and 3 * 2^32 + 7 bytes of input: merged after their tally,
  // the block's positions must not wrap.
  namespace st = rowscan::stations;
  namespace job = rowscan::job;
  std::string const text = "a;1.0\nb;2.0\nbad\nc;3.0\n";
  thrust::device_vector<char> device(text.begin(), text.end());
  device.resize(text.size() + st::text_padding_bytes);
  char const* data = thrust::raw_pointer_cast(device.data());
  std::uint64_t const two_32 = std::uint64_t{1} << 32;
  job::tally before;
  before.bytes = 3 * two_32 + 7;
  before.lines = two_32 - 1;
  rowscan::context ctx;

  st::worker strict(ctx, {});
  job::tally const stopped = job::merge(before, strict.fold(data, text.size()));
  ASSERT_TRUE(stopped.stop.has_value()) << "accepted a bad line";
  rowscan::input_error const e = job::located(*stopped.stop, "big.txt");
  EXPECT_EQ(e.line(), two_32 + 2);  // the third line of the block
  EXPECT_EQ(e.byte_offset(), 3 * two_32 + 7 + 12);
  EXPECT_EQ(std::string(e.what()), "big.txt:4294967298:1: missing ';' between station name and temperature: \"bad\"");

  st::worker skipping(ctx, {~std::uint64_t{0}, false, true});
  job::tally const block = skipping.fold(data, text.size());
  EXPECT_EQ(block.lines, 4u);
  rowscan::skipped_lines const skipped = job::located_skips(job::merge(before, block), "big.txt");
  ASSERT_EQ(skipped.count(), 1u);
  EXPECT_EQ(skipped.first()[0].line(), two_32 + 2);
  EXPECT_EQ(skipped.first()[0].byte_offset(), 3 * two_32 + 7 + 12);
  EXPECT_EQ(skipping.partial().size(), 3u);
}

}  // namespace
