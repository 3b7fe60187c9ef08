// SPDX-License-Identifier: Apache-2.0
// rowscan::session and its cache (rowscan/session.hpp, rowscan/session/resident_cache.hpp): answers equal to
// the scalar reference from the file and from the cache, files changed under it, two threads asking at
// once (a budget for fewer files than they ask for), and the cache's own rules with a loader that counts.
#include "rowscan/session.hpp"
#include "rowscan/generate/lineitem.hpp"
#include "rowscan/job/line_end_index.hpp"
#include "rowscan/lineitem/format.hpp"
#include "rowscan/session/kept_columns.hpp"
#include "rowscan/stations/format.hpp"

#include "reference/lineitem_reference.hpp"
#include "reference/stations_reference.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
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

/// What two threads saw, each asking one session `queries` queries (seeds 1 and 2): the answers that were
/// wrong, and whether the cache ever held more than `budget` bytes. right_answer(rng) asks one query with
/// rng's choices and says whether its answer was the reference's.
struct two_threads_saw {
  int wrong;
  bool over_budget;
};
template <class RightAnswer>
two_threads_saw ask_from_two_threads(rowscan::session& s, std::uint64_t budget, int queries, RightAnswer right_answer) {
  std::atomic<int> wrong{0};
  std::atomic<bool> over_budget{false};
  auto ask = [&](std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (int q = 0; q < queries; ++q) {
      if (!right_answer(rng)) ++wrong;
      if (s.cache().bytes > budget) over_budget = true;
    }
  };
  std::thread first(ask, 1), second(ask, 2);
  first.join();
  second.join();
  return {wrong.load(), over_budget.load()};
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
  two_threads_saw const seen = ask_from_two_threads(s, budget, 25, [&](std::mt19937_64& rng) {
    std::size_t const i = rng() % paths.size();
    return answer_text(s.stations({paths[i]}, {})) == expected[i];
  });
  EXPECT_EQ(seen.wrong, 0) << "seeds 1 and 2";
  EXPECT_FALSE(seen.over_budget);
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

/// The answer's text, or the error's message.
template <class Query>
std::string answer_or_error(Query query) {
  try {
    return answer_text(query());
  } catch (rowscan::error const& e) {
    return std::string("error: ") + e.what();
  }
}

/// On the build's own engine (a GPU where there is one: the text is then kept in device memory, and a run
/// that cannot fold it there reads the memory file, filled from the device), the first and the later query of
/// a file answer or stop as a session that keeps nothing: long lines (past the workload's carried line), a
/// byte order mark, no final newline, small chunks.
TEST(Session, OnTheBuildsEngineKeptFilesAnswerAsTheFile) {
  scratch dir;
  std::mt19937_64 rng(7);
  std::vector<std::string> texts = {random_measurements(1, 3000, 40), "\xEF\xBB\xBF" "A;1.0\nB;-2.5\n",
                                    "A;1.0\nB;2.5", "A;1.0\n" + std::string(5000, 'x') + ";1.0\nB;2.0\n"};
  for (std::size_t width : {300, 3000}) {  // lines that may be longer than the index's bound allows
    std::string t;
    for (int i = 0; i < 200; ++i) t += "S" + std::string(rng() % width, 'a' + i % 3) + ";" + std::to_string(i % 90) + ".5\n";
    texts.push_back(t);
  }
  for (std::size_t i = 0; i < texts.size(); ++i) {
    SCOPED_TRACE("text " + std::to_string(i));
    std::string const path = dir.write("t" + std::to_string(i), texts[i]);
    for (std::size_t chunk : {std::size_t{0}, std::size_t{4096}}) {
      SCOPED_TRACE("chunk " + std::to_string(chunk));
      rowscan::stations::summarize_options options;
      options.chunk_size = chunk;
      rowscan::session_options keeping, keeping_nothing;
      keeping_nothing.cache_bytes = 0;
      rowscan::session kept(keeping), read(keeping_nothing);
      std::string const expected = answer_or_error([&] { return read.stations({path}, options); });
      EXPECT_EQ(answer_or_error([&] { return kept.stations({path}, options); }), expected);
      EXPECT_EQ(answer_or_error([&] { return kept.stations({path}, options); }), expected);
    }
  }
}

/// A lineitem table of `scale` (rowscan generate lineitem), written to `path`.
std::string write_lineitem(scratch& dir, std::string const& name, double scale, std::uint64_t seed) {
  std::string path = dir.write(name, "");
  int const fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  rowscan::generate::write_lineitem(fd, {scale, seed});
  ::close(fd);
  return path;
}

std::string answer_text(rowscan::lineitem::summary const& s) { return rowscan::lineitem::format_text(s); }

rowscan::lineitem::summarize_options below(std::vector<std::uint64_t> thresholds) {
  rowscan::lineitem::summarize_options o;
  o.suppkey_below = std::move(thresholds);
  return o;
}

TEST(SessionColumns, LaterQueriesWithOtherThresholdsAreAnsweredFromTheColumns) {
  scratch dir;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    std::mt19937_64 rng(seed);
    std::string const path = write_lineitem(dir, "l" + std::to_string(seed), 0.002, seed);
    std::string const text = read_all(path);
    rowscan::session s(on_the_host());
    for (int q = 0; q < 4; ++q) {
      std::vector<std::uint64_t> thresholds(1 + rng() % 10);
      for (std::uint64_t& z : thresholds) z = rng() % 25;
      SCOPED_TRACE("seed " + std::to_string(seed) + ", query " + std::to_string(q));
      rowscan::lineitem::summary const got = s.lineitem({path}, below(thresholds));
      EXPECT_EQ(answer_text(got), reference::lineitem_answer(text, thresholds));
      EXPECT_EQ(got.bytes, text.size());
      EXPECT_EQ(got.rows, static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')));
    }
    rowscan::resident::cache_figures const f = s.cache();
    EXPECT_EQ(f.loads, 1u);  // the file was read and parsed once
    EXPECT_EQ(f.hits, 3u);
    EXPECT_EQ(f.entries, 1u);
    EXPECT_EQ(f.bytes, s.lineitem({path}, below({5})).rows * 12);  // 12 bytes a row, not the text
    EXPECT_LT(f.bytes, text.size());
  }
}

TEST(SessionColumns, AChangedFileIsReadAgain) {
  scratch dir;
  std::string const path = write_lineitem(dir, "l", 0.001, 4);
  rowscan::session s(on_the_host());
  EXPECT_EQ(answer_text(s.lineitem({path}, below({9}))), reference::lineitem_answer(read_all(path), {9}));
  std::ofstream(path, std::ios::app) << "1|2|3|4|5|6.00|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|X|Y|z|\n";
  std::string const text = read_all(path);
  EXPECT_EQ(answer_text(s.lineitem({path}, below({9}))), reference::lineitem_answer(text, {9}));
  EXPECT_EQ(answer_text(s.lineitem({path}, below({4, 9}))), reference::lineitem_answer(text, {4, 9}));
  rowscan::resident::cache_figures const f = s.cache();
  EXPECT_EQ(f.loads, 2u);
  EXPECT_EQ(f.stale, 1u);
  EXPECT_EQ(f.hits, 1u);
  EXPECT_EQ(f.entries, 1u);
}

TEST(SessionColumns, TheBudgetIsNeverExceeded) {
  scratch dir;
  std::vector<std::string> paths;
  std::uint64_t largest = 0;
  for (int i = 0; i < 3; ++i) {
    paths.push_back(write_lineitem(dir, "l" + std::to_string(i), 0.001 * (i + 1), 10 + i));
    largest = std::max<std::uint64_t>(largest, read_all(paths.back()).size());
  }
  // Room for the reservation of the largest file (its text can hold at most that many columns), not for two.
  std::uint64_t const budget = rowscan::most_column_bytes(largest) + 1;
  rowscan::session s(on_the_host(budget));
  std::mt19937_64 rng(7);
  for (int q = 0; q < 12; ++q) {
    std::size_t const i = rng() % paths.size();
    std::uint64_t const z = rng() % 20;
    SCOPED_TRACE("seed 7, query " + std::to_string(q));
    EXPECT_EQ(answer_text(s.lineitem({paths[i]}, below({z}))), reference::lineitem_answer(read_all(paths[i]), {z}));
    EXPECT_LE(s.cache().bytes, budget);
  }
  EXPECT_GT(s.cache().evictions, 0u);
  EXPECT_GT(s.cache().hits, 0u);
  rowscan::session none(on_the_host(rowscan::most_column_bytes(largest) - 1));  // no room to parse the largest
  EXPECT_EQ(answer_text(none.lineitem({paths[2]}, below({3}))), reference::lineitem_answer(read_all(paths[2]), {3}));
  EXPECT_EQ(none.cache().entries, 0u);
  EXPECT_EQ(none.cache().bytes, 0u);
}

TEST(SessionColumns, AFileWithABadRowKeepsNothing) {
  scratch dir;
  std::string const good = write_lineitem(dir, "good", 0.001, 5);
  std::string text = read_all(good);
  std::string const bad_row = "1|2|3|4|x|6.00|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|X|Y|z|\n";
  std::string const bad = dir.write("bad", text.substr(0, text.find('\n', text.size() / 2) + 1) + bad_row);
  std::string const bad_text = read_all(bad);
  rowscan::session s(on_the_host());
  for (int q = 0; q < 2; ++q) {  // the same error each time: nothing of the file was kept
    EXPECT_THROW(s.lineitem({bad}, below({5})), rowscan::input_error);
    EXPECT_EQ(s.cache().entries, 0u);
    EXPECT_EQ(s.cache().bytes, 0u);
  }
  rowscan::lineitem::summarize_options skipping = below({5});
  skipping.skip_invalid = true;
  rowscan::lineitem::summary const skipped = s.lineitem({bad}, skipping);
  EXPECT_EQ(skipped.skipped.count(), 1u);
  EXPECT_EQ(answer_text(skipped),
            reference::lineitem_answer(bad_text.substr(0, bad_text.size() - bad_row.size()), {5}));
  EXPECT_EQ(s.cache().entries, 0u);  // a file with a skipped row keeps nothing: its next query skips it again
  EXPECT_EQ(s.lineitem({bad}, skipping).skipped.count(), 1u);
  // Good rows before a good file's bad one: the good file is kept, the query still fails, as the CLI's does.
  EXPECT_THROW(s.lineitem({good, bad}, below({5})), rowscan::input_error);
  EXPECT_EQ(s.cache().entries, 1u);
  // A clean file's columns serve a query that skips invalid rows too: it has none to skip.
  rowscan::lineitem::summary const clean = s.lineitem({good}, skipping);
  EXPECT_EQ(clean.skipped.count(), 0u);
  EXPECT_EQ(answer_text(clean), reference::lineitem_answer(text, {5}));
  EXPECT_EQ(s.cache().hits, 1u);
}

TEST(SessionColumns, TwoThreadsAskingAtOnce) {
  scratch dir;
  std::vector<std::string> paths, texts;
  for (int i = 0; i < 3; ++i) {
    paths.push_back(write_lineitem(dir, "l" + std::to_string(i), 0.0005, 20 + i));
    texts.push_back(read_all(paths.back()));
  }
  // Room for two files' reservations: the third evicts.
  std::uint64_t const budget =
      2 * rowscan::most_column_bytes(std::max({texts[0].size(), texts[1].size(), texts[2].size()}));
  rowscan::session s(on_the_host(budget));
  two_threads_saw const seen = ask_from_two_threads(s, budget, 12, [&](std::mt19937_64& rng) {
    std::size_t const i = rng() % paths.size();
    std::vector<std::uint64_t> const z{rng() % 30, rng() % 30};
    return answer_text(s.lineitem({paths[i]}, below(z))) == reference::lineitem_answer(texts[i], z);
  });
  EXPECT_EQ(seen.wrong, 0) << "seeds 1 and 2";
  EXPECT_FALSE(seen.over_budget);
  rowscan::resident::cache_figures const f = s.cache();
  EXPECT_EQ(f.hits + f.misses, 24u);
  EXPECT_GT(f.hits, 0u);
  EXPECT_LE(f.entries, 3u);
  EXPECT_LE(f.bytes, budget);
}

TEST(SessionColumns, AListOfFilesOneOfThemKept) {
  scratch dir;
  std::string const a = write_lineitem(dir, "a", 0.001, 30);
  std::string const b = write_lineitem(dir, "b", 0.001, 31);
  std::string const both = read_all(a) + read_all(b);
  rowscan::session s(on_the_host());
  EXPECT_EQ(answer_text(s.lineitem({a}, below({7}))), reference::lineitem_answer(read_all(a), {7}));
  rowscan::lineitem::summary const got = s.lineitem({a, b}, below({3, 11}));  // a from its columns, b read
  EXPECT_EQ(answer_text(got), reference::lineitem_answer(both, {3, 11}));
  EXPECT_EQ(got.bytes, both.size());
  EXPECT_EQ(s.lineitem({b, a}, below({5})).rows,
            static_cast<std::uint64_t>(std::count(both.begin(), both.end(), '\n')));
  rowscan::resident::cache_figures const f = s.cache();
  EXPECT_EQ(f.loads, 2u);
  EXPECT_EQ(f.hits, 3u);
}

TEST(SessionColumns, ASmallChunkIsReadAsTheCliReadsIt) {
  scratch dir;
  std::string const path = write_lineitem(dir, "l", 0.001, 6);
  rowscan::session s(on_the_host());
  s.lineitem({path}, below({5}));
  rowscan::lineitem::summarize_options small = below({5});
  small.chunk_size = 100;  // below the smallest chunk: the CLI's error, not an answer from the columns
  EXPECT_THROW(s.lineitem({path}, small), rowscan::error);
  small.chunk_size = 4096;  // carries shorter lines than the default chunk: read from the file
  EXPECT_EQ(answer_text(s.lineitem({path}, small)), reference::lineitem_answer(read_all(path), {5}));
  EXPECT_EQ(s.cache().hits, 0u);
}

TEST(ResidentText, HoldsTheFileBytes) {
  scratch dir;
  for (char const* content : {"ab\nabcdef\nx", "abc", "\n\n", "\xEF\xBB\xBF" "a;1.0\n"}) {
    SCOPED_TRACE(content);
    std::string const path = dir.write("t", content);
    auto const id = rowscan::resident::identity_of(path);
    ASSERT_TRUE(id);
    auto const text = rowscan::resident::load_text(path, "t", *id, 2);
    ASSERT_TRUE(text);
    std::string held(id->size, '\0');
    ASSERT_EQ(::pread(text->fd(), held.data(), held.size(), 0), static_cast<ssize_t>(held.size()));
    EXPECT_EQ(held, content);
    EXPECT_FALSE(text->on_device);
  }
}

/// The line-end index of a text kept only on a GPU (rowscan/job/line_end_index.hpp) against the text's own
/// '\n's: random texts with lines of 0 to 3,000 bytes, indexed in pieces in a random order.
TEST(LineEndIndex, BoundsTheLongestLineAndCutsBlocksAtLineEnds) {
  constexpr std::size_t stretch = rowscan::job::line_end_index::stretch;
  for (std::uint32_t seed = 1; seed <= 200; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 random(seed);
    std::string text;
    std::size_t const lines = random() % 40;
    std::size_t const widest = std::size_t{1} << (random() % 12);  // lines of up to 1 to 2,048 bytes, and more
    for (std::size_t i = 0; i < lines; ++i) {
      text.append(random() % (i % 7 == 3 ? 3000 : widest + 1), 'a');
      text += '\n';
    }
    text.append(random() % 3 == 0 ? random() % 100 : 0, 'z');  // no final '\n'
    std::uint64_t longest = 0;  // with its '\n'
    for (std::size_t start = 0; start < text.size();) {
      std::size_t const end = text.find('\n', start);
      std::size_t const stop = end == std::string::npos ? text.size() : end + 1;
      longest = std::max<std::uint64_t>(longest, stop - start);
      start = stop;
    }
    rowscan::job::line_end_index index(text.size());
    std::size_t const piece = stretch * (1 + random() % 4);
    std::vector<std::size_t> pieces;
    for (std::size_t at = 0; at < text.size(); at += piece) pieces.push_back(at);
    std::shuffle(pieces.begin(), pieces.end(), random);
    for (std::size_t at : pieces) index.index(text.data() + at, std::min(piece, text.size() - at), at);

    std::uint64_t const bound = index.longest_line_bound();
    EXPECT_GE(bound, longest);
    EXPECT_LE(bound, std::max<std::uint64_t>(longest + stretch, 2 * stretch));
    if (text.empty()) continue;
    for (std::size_t block_size : {std::size_t{1} + random() % 64, std::size_t{1} + random() % 8192, 2 * stretch,
                                   std::size_t{1} << 20}) {
      SCOPED_TRACE("block size " + std::to_string(block_size));
      std::size_t const first_line_end = text.find('\n');
      std::uint64_t const begin = random() % 2 == 0 || first_line_end == std::string::npos ? 0 : first_line_end + 1;
      auto const blocks = index.blocks(begin, text.size(), block_size);
      if (block_size >= 2 * stretch && longest <= stretch) {
        EXPECT_TRUE(blocks);  // a whole stretch holds a '\n'
      }
      if (!blocks) continue;
      std::uint64_t at = begin;
      for (auto const& [b, e] : *blocks) {
        EXPECT_EQ(b, at);
        EXPECT_LT(b, e);
        EXPECT_LE(e - b, block_size);
        if (e != text.size()) {
          EXPECT_EQ(text[e - 1], '\n') << "a block ends at " << e;
        }
        at = e;
      }
      EXPECT_EQ(at, text.size());
    }
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
