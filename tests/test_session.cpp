// SPDX-License-Identifier: Apache-2.0
// rowscan::session and its cache (rowscan/session.hpp, rowscan/session/resident_cache.hpp): answers equal to
// the scalar reference from the file and from the cache, files changed under it, two threads asking at
// once (a budget for fewer files than they ask for), and the cache's own rules with a loader that counts.
#include "rowscan/session.hpp"
#include "rowscan/stations/format.hpp"

#include "reference/stations_reference.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

/// A directory of its own for a test's files, removed with them.
class scratch {
 public:
  scratch() {
    char name[] = "/tmp/rowscan_session_XXXXXX";
    dir_ = ::mkdtemp(name);
  }
  ~scratch() {
    for (std::string const& f : files_) std::remove(f.c_str());
    ::rmdir(dir_.c_str());
  }
  std::string write(std::string const& name, std::string const& text) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    files_.push_back(path);
    return path;
  }

 private:
  std::string dir_;
  std::vector<std::string> files_;
};

std::string random_measurements(std::uint64_t seed, int rows, int stations) {
  std::mt19937_64 rng(seed);
  std::ostringstream out;
  for (int i = 0; i < rows; ++i) {
    int const t = static_cast<int>(rng() % 1999) - 999;
    out << "S" << rng() % stations << ';' << (t < 0 ? "-" : "") << std::abs(t) / 10 << '.' << std::abs(t) % 10 << '\n';
  }
  return out.str();
}

std::string answer_text(rowscan::stations::summary const& s) {
  std::ostringstream out;
  rowscan::stations::write_onebrc(out, s.stations);
  return out.str();
}

std::string read_all(std::string const& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

rowscan::session_options on_the_host(std::optional<std::uint64_t> budget = std::nullopt) {
  rowscan::session_options o;
  o.devices = "cpu";
  o.cache_bytes = budget;
  o.threads = 2;
  return o;
}

TEST(Session, AnswersEqualTheReferenceFromTheFileAndFromTheCache) {
  scratch dir;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::string const path = dir.write("m" + std::to_string(seed), random_measurements(seed, 2000, 50));
    rowscan::session s(on_the_host());
    std::string const expected = reference::stations_answer(read_all(path));
    EXPECT_EQ(answer_text(s.stations({path}, {})), expected);
    EXPECT_EQ(answer_text(s.stations({path}, {})), expected);
    EXPECT_EQ(s.cache().loads, 1u);
    EXPECT_EQ(s.cache().hits, 1u);
  }
}

TEST(Session, TwoThreadsAskingAtOnceWithRoomForTwoFilesOfFour) {
  scratch dir;
  std::vector<std::string> paths, expected;
  std::uint64_t largest = 0;
  for (int i = 0; i < 4; ++i) {
    paths.push_back(dir.write("f" + std::to_string(i), random_measurements(100 + i, 3000 + 500 * i, 30)));
    expected.push_back(reference::stations_answer(read_all(paths.back())));
    largest = std::max<std::uint64_t>(largest, read_all(paths.back()).size());
  }
  std::uint64_t const budget = 2 * largest;
  rowscan::session s(on_the_host(budget));
  std::atomic<bool> over_budget{false};
  std::atomic<int> wrong{0};
  auto ask = [&](std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (int q = 0; q < 25; ++q) {
      std::size_t const i = rng() % paths.size();
      if (answer_text(s.stations({paths[i]}, {})) != expected[i]) ++wrong;
      if (s.cache().bytes > budget) over_budget = true;
    }
  };
  std::thread first(ask, 1), second(ask, 2);
  first.join();
  second.join();
  EXPECT_EQ(wrong.load(), 0) << "seeds 1 and 2";
  EXPECT_FALSE(over_budget.load());
  rowscan::resident::cache_figures const f = s.cache();
  EXPECT_LE(f.bytes, budget);
  EXPECT_LE(f.entries, 2u);
  EXPECT_EQ(f.hits + f.misses, 50u);
}

TEST(Session, AFailedQueryKeepsNothingAndTheBytesAreAnsweredAgain) {
  scratch dir;
  std::string const path = dir.write("bad", "A;1.0\nB;2.00\n");
  rowscan::session s(on_the_host());
  EXPECT_THROW(s.stations({path}, {}), rowscan::input_error);
  EXPECT_EQ(s.cache().entries, 0u);
  EXPECT_EQ(s.cache().bytes, 0u);
  std::atomic<bool> cancel{true};
  rowscan::query_settings stop;
  stop.cancel = &cancel;
  std::string const good = dir.write("good", "A;1.0\n");
  EXPECT_THROW(s.stations({good}, {}, stop), rowscan::cancelled);
  EXPECT_EQ(s.cache().entries, 0u);
}

TEST(ResidentText, KnowsItsLongestLine) {
  scratch dir;
  struct shape {
    char const* text;
    std::uint64_t longest;  // with its '\n'
  };
  for (shape const& c :
       {shape{"ab\nabcdef\nx", 7}, shape{"abc", 3}, shape{"\n\n", 1}, shape{"a\nbcd", 3}, shape{"abcd\nb\n", 5}}) {
    SCOPED_TRACE(c.text);
    std::string const path = dir.write("t", c.text);
    auto const id = rowscan::resident::identity_of(path);
    ASSERT_TRUE(id);
    auto const text = rowscan::resident::load_text(path, "t", *id, 2);
    ASSERT_TRUE(text);
    EXPECT_EQ(text->longest_line, c.longest);
    EXPECT_FALSE(text->on_device);
  }
}

/// The cache alone, with a loader that counts its loads and holds each one until both threads are in it.
TEST(ResidentCache, TwoLoadsOfOneFileKeepOneEntry) {
  scratch dir;
  std::string const path = dir.write("a", "A;1.0\n");
  std::atomic<int> loading{0}, loads{0};
  rowscan::resident::resident_cache cache(
      1 << 20, [&](std::string const& p, std::string const& label, rowscan::resident::file_identity const& id) {
        ++loads;
        ++loading;
        auto const until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (loading.load() < 2 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
        return rowscan::resident::load_text(p, label, id, 1);
      });
  rowscan::resident::resident_cache::held a, b;
  std::thread first([&] { a = cache.acquire(path, "a"); });
  std::thread second([&] { b = cache.acquire(path, "a"); });
  first.join();
  second.join();
  ASSERT_TRUE(a.text && b.text);
  EXPECT_EQ(loads.load(), 2);
  EXPECT_EQ(cache.figures().bytes, 12u);  // both reserved while they load
  cache.keep(a);
  cache.keep(b);
  EXPECT_EQ(cache.figures().entries, 1u);
  EXPECT_EQ(cache.figures().bytes, 6u);
  EXPECT_TRUE(cache.acquire(path, "a").text);
  EXPECT_EQ(loads.load(), 2);  // a hit
}

TEST(ResidentCache, ALoadThatFailsOrDoesNotFitReservesNothing) {
  scratch dir;
  std::string const path = dir.write("a", "A;1.0\nB;2.0\n");
  rowscan::resident::resident_cache none(
      0, [](std::string const&, std::string const&, rowscan::resident::file_identity const&) {
        ADD_FAILURE() << "a file larger than the budget is not loaded";
        return std::shared_ptr<rowscan::resident::resident_text>();
      });
  EXPECT_FALSE(none.acquire(path, "a").text);
  EXPECT_EQ(none.figures().uncached, 1u);
  rowscan::resident::resident_cache failing(
      1 << 20,
      [](std::string const&, std::string const&, rowscan::resident::file_identity const&)
          -> std::shared_ptr<rowscan::resident::resident_text> { throw rowscan::error("a: cannot read"); });
  EXPECT_THROW(failing.acquire(path, "a"), rowscan::error);
  EXPECT_EQ(failing.figures().bytes, 0u);
  rowscan::resident::resident_cache changed(
      1 << 20, [](std::string const&, std::string const&, rowscan::resident::file_identity const&) {
        return std::shared_ptr<rowscan::resident::resident_text>();  // the file changed as it was read
      });
  EXPECT_FALSE(changed.acquire(path, "a").text);
  EXPECT_EQ(changed.figures().bytes, 0u);
  EXPECT_EQ(changed.figures().discarded, 1u);
}

}  // namespace
