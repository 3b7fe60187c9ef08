// SPDX-License-Identifier: Apache-2.0
// Tests of the measurements generator: name shape, determinism, file format and thread independence.
#include "rowscan/generate/measurements.hpp"

#include <gtest/gtest.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_set>
#include <vector>

namespace {

using rowscan::generate::measurements_options;
using rowscan::generate::station_names;
using rowscan::generate::write_measurements;

/// Byte length of the UTF-8 character starting at s[i], or 0 if it is malformed (bad lead or
/// continuation byte, overlong form, surrogate, beyond U+10FFFF, truncated).
std::size_t utf8_char_size(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char const lead = byte(i);
  std::size_t size;
  char32_t cp;
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) {
    size = 2;
    cp = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    size = 3;
    cp = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    size = 4;
    cp = lead & 0x07;
  } else {
    return 0;
  }
  if (i + size > s.size()) return 0;
  for (std::size_t k = 1; k < size; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  char32_t const smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < smallest[size] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return size;
}

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    std::size_t const n = utf8_char_size(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

/// Largest UTF-8 character width in the string (1 for pure ASCII); assumes valid UTF-8.
std::size_t widest_char(std::string_view s) {
  std::size_t widest = 0;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t const n = utf8_char_size(s, i);
    widest = std::max(widest, n);
    i += n;
  }
  return widest;
}

/// Runs write_measurements into an anonymous temporary file and reads it back.
std::string generate_to_string(measurements_options const& options) {
  std::FILE* file = std::tmpfile();
  if (file == nullptr) throw std::system_error(errno, std::generic_category(), "tmpfile");
  int const fd = fileno(file);
  std::string text;
  try {
    write_measurements(fd, options);
    off_t const size = ::lseek(fd, 0, SEEK_END);
    text.resize(static_cast<std::size_t>(size));
    std::size_t done = 0;
    while (done < text.size()) {
      ssize_t const n = ::pread(fd, text.data() + done, text.size() - done, static_cast<off_t>(done));
      if (n <= 0) throw std::runtime_error("short read of the temporary file");
      done += static_cast<std::size_t>(n);
    }
  } catch (...) {
    std::fclose(file);
    throw;
  }
  std::fclose(file);
  return text;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    std::size_t const end = text.find('\n');
    if (end == std::string_view::npos) {
      lines.push_back(text);  // an unterminated last line: the callers count it as a failure
      break;
    }
    lines.push_back(text.substr(0, end));
    text.remove_prefix(end + 1);
  }
  return lines;
}

/// Restores the OpenMP thread count a test changed.
class thread_count_guard {
 public:
  thread_count_guard() : saved_(omp_get_max_threads()) {}
  ~thread_count_guard() { omp_set_num_threads(saved_); }

 private:
  int saved_;
};

TEST(GenerateMeasurements, NamesAreDistinctShortValidUtf8) {
  auto const names = station_names(10000, 7);
  ASSERT_EQ(names.size(), 10000u);
  std::unordered_set<std::string> unique(names.begin(), names.end());
  EXPECT_EQ(unique.size(), names.size());
  for (auto const& name : names) {
    ASSERT_GE(name.size(), 1u);
    ASSERT_LE(name.size(), 100u) << name;
    ASSERT_TRUE(valid_utf8(name)) << name;
    ASSERT_EQ(name.find_first_of(";\n"), std::string::npos) << name;
  }
}

TEST(GenerateMeasurements, NamesMixScriptsAndLengths) {
  auto const names = station_names(10000, 1);
  std::size_t by_width[5] = {};
  std::vector<std::size_t> lengths;
  for (auto const& name : names) {
    ++by_width[widest_char(name)];
    lengths.push_back(name.size());
  }
  EXPECT_GT(by_width[1], names.size() / 3);    // plenty of plain ASCII
  EXPECT_GT(by_width[2], names.size() / 10);   // accented Latin, Cyrillic, Greek, Arabic
  EXPECT_GT(by_width[3], names.size() / 20);   // CJK, Kana, Hangul
  EXPECT_GT(by_width[4], 10u);                 // the occasional emoji or Extension B ideograph

  std::sort(lengths.begin(), lengths.end());
  std::size_t const median = lengths[lengths.size() / 2];
  EXPECT_GE(median, 7u);
  EXPECT_LE(median, 13u);
  EXPECT_GT(std::count(lengths.begin(), lengths.end(), 100), 50);
  EXPECT_GT(std::count_if(lengths.begin(), lengths.end(), [](std::size_t n) { return n > 40 && n < 100; }), 100);
}

TEST(GenerateMeasurements, ThousandNamesReachTheHundredByteLimit) {
  auto const names = station_names(1000, 3);
  auto const longest = std::count_if(names.begin(), names.end(), [](auto const& n) { return n.size() == 100; });
  EXPECT_GE(longest, 10);
}

TEST(GenerateMeasurements, NamesAreDeterministicPerSeed) {
  EXPECT_EQ(station_names(500, 42), station_names(500, 42));
  EXPECT_NE(station_names(500, 42), station_names(500, 43));
  // A shorter list is a prefix of a longer one with the same seed.
  auto const few = station_names(100, 42);
  auto const many = station_names(500, 42);
  EXPECT_TRUE(std::equal(few.begin(), few.end(), many.begin()));
}

TEST(GenerateMeasurements, NameCountIsChecked) {
  EXPECT_THROW(station_names(0, 1), std::invalid_argument);
  EXPECT_THROW(station_names(1'000'001, 1), std::invalid_argument);
  EXPECT_EQ(station_names(1, 1).size(), 1u);
  measurements_options options;
  options.stations = 0;
  EXPECT_THROW(generate_to_string(options), std::invalid_argument);
}

TEST(GenerateMeasurements, MaximumNameCountIsDistinct) {
  auto const names = station_names(1'000'000, 1);
  ASSERT_EQ(names.size(), 1'000'000u);
  std::unordered_set<std::string_view> unique(names.begin(), names.end());
  EXPECT_EQ(unique.size(), names.size());
}

TEST(GenerateMeasurements, RowsHaveTheChallengeFormat) {
  measurements_options options;
  options.rows = 100000;
  options.stations = 50;
  options.seed = 5;
  std::string const text = generate_to_string(options);
  ASSERT_FALSE(text.empty());
  ASSERT_EQ(text.back(), '\n');
  auto const lines = split_lines(text);
  ASSERT_EQ(lines.size(), options.rows);

  auto const names = station_names(options.stations, options.seed);
  std::set<std::string, std::less<>> const known(names.begin(), names.end());
  std::regex const temperature(R"(-?[0-9]{1,2}\.[0-9])");
  std::map<std::string_view, std::vector<double>> readings;
  for (std::string_view line : lines) {
    std::size_t const semicolon = line.rfind(';');
    ASSERT_NE(semicolon, std::string_view::npos) << line;
    std::string_view const name = line.substr(0, semicolon);
    std::string const value(line.substr(semicolon + 1));
    ASSERT_TRUE(known.count(name)) << line;
    ASSERT_TRUE(std::regex_match(value, temperature)) << line;
    ASSERT_NE(value, "-0.0");
    double const celsius = std::strtod(value.c_str(), nullptr);
    ASSERT_GE(celsius, -99.9);
    ASSERT_LE(celsius, 99.9);
    readings[name].push_back(celsius);
  }
  // Uniform station choice puts ~2000 rows on each; each station's spread is the stddev of 10.
  EXPECT_EQ(readings.size(), names.size());
  for (auto const& [name, values] : readings) {
    EXPECT_GT(values.size(), 1600u) << name;
    EXPECT_LT(values.size(), 2400u) << name;
    double mean = 0;
    for (double v : values) mean += v;
    mean /= static_cast<double>(values.size());
    double variance = 0;
    for (double v : values) variance += (v - mean) * (v - mean);
    double const stddev = std::sqrt(variance / static_cast<double>(values.size() - 1));
    EXPECT_NEAR(stddev, 10.0, 0.8) << name;
  }
}

TEST(GenerateMeasurements, OutputDoesNotDependOnThreadCount) {
  thread_count_guard guard;
  measurements_options options;
  options.rows = 1'000'003;  // many blocks, several batches, and a partial last block
  options.stations = 1000;
  options.seed = 11;
  omp_set_num_threads(1);
  std::string const one = generate_to_string(options);
  omp_set_num_threads(2);
  std::string const two = generate_to_string(options);
  omp_set_num_threads(3);
  std::string const three = generate_to_string(options);
  EXPECT_EQ(std::count(one.begin(), one.end(), '\n'), 1'000'003);
  EXPECT_TRUE(one == two);  // not EXPECT_EQ: a failure would print megabytes
  EXPECT_TRUE(one == three);
}

TEST(GenerateMeasurements, OutputIsDeterministicPerSeed) {
  measurements_options options;
  options.rows = 5000;
  EXPECT_TRUE(generate_to_string(options) == generate_to_string(options));
  measurements_options other = options;
  other.seed = 2;
  EXPECT_FALSE(generate_to_string(options) == generate_to_string(other));
}

TEST(GenerateMeasurements, ZeroRowsWriteAnEmptyFile) {
  measurements_options options;
  options.rows = 0;
  EXPECT_TRUE(generate_to_string(options).empty());
}

TEST(GenerateMeasurements, OneStationWorks) {
  measurements_options options;
  options.rows = 1000;
  options.stations = 1;
  std::string const name = station_names(1, options.seed).front();
  std::string const text = generate_to_string(options);  // outlives the line views
  auto const lines = split_lines(text);
  ASSERT_EQ(lines.size(), options.rows);
  for (std::string_view line : lines) {
    ASSERT_EQ(line.substr(0, line.rfind(';')), name);
  }
}

TEST(GenerateMeasurements, WriteFailureThrowsSystemError) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  ::close(pipe_fds[1]);  // the read end is not writable: write(2) fails with EBADF
  measurements_options options;
  try {
    write_measurements(pipe_fds[0], options);
    ADD_FAILURE() << "no exception";
  } catch (std::system_error const& e) {
    EXPECT_EQ(e.code().value(), EBADF);
  }
  ::close(pipe_fds[0]);
}

}  // namespace
