// SPDX-License-Identifier: Apache-2.0
// The exercises whose answers are facts, not timings (docs/README.md's learning path and the pages'
// "What you learned, and exercises"): each test runs what the exercise asks and checks the answer the
// page gives. Timing exercises stay measurements.
#include "reference/stations_reference.hpp"
#include "support/cli_fixture.hpp"
#include "support/host_workers_env.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <utility>

namespace {

class Exercises : public support::cli_fixture {
 protected:
  /// `rowscan generate measurements` into FILE in the test's directory (a fatal failure if it fails:
  /// call it under ASSERT_NO_FATAL_FAILURE).
  void generate(char const* file, int rows, int stations, int seed) {
    auto const g = run("generate measurements --rows " + std::to_string(rows) + " --stations " +
                       std::to_string(stations) + " --seed " + std::to_string(seed) + " -o '" + path(file) + "'");
    ASSERT_EQ(g.exit_code, 0) << g.err;
  }
  /// Runs two commands that must both succeed and print the same bytes (call it under
  /// ASSERT_NO_FATAL_FAILURE: a failed command is a fatal failure).
  void expect_same_output(std::string const& first_args, std::string const& second_args) {
    auto const first = run(first_args);
    auto const second = run(second_args);
    ASSERT_EQ(first.exit_code, 0) << first.err;
    ASSERT_EQ(second.exit_code, 0) << second.err;
    EXPECT_EQ(second.out, first.out) << first_args << "\n" << second_args;
  }
};

/// "N chunk(s) of C bytes (F fast, G general)" from a --stats headline.
struct paths_taken {
  int chunks = 0, fast = 0, general = 0;
};

paths_taken paths_of(std::string const& stats) {
  std::smatch m;
  static std::regex const headline(R"((\d+) chunk\(s\) of \d+ bytes \((\d+) fast, (\d+) general\))");
  if (!std::regex_search(stats, m, headline)) return {};
  return {std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3])};
}

// Exercise 4 (stations.md): the same bytes at any chunk size; the general path runs only for the first
// block of each worker, which teaches it the stations; smaller chunks mean more blocks.
TEST_F(Exercises, StationsChunkSizeChangesBlocksNotTheAnswer) {
  support::host_workers_env const two_workers{2};
  ASSERT_NO_FATAL_FAILURE(generate("m.txt", 200000, 413, 4));
  auto const small = run("stations --stats --devices cpu --chunk-size 256K '" + path("m.txt") + "'");
  auto const whole = run("stations --stats --devices cpu '" + path("m.txt") + "'");
  ASSERT_EQ(small.exit_code, 0) << small.err;
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_EQ(small.out, whole.out);
  EXPECT_EQ(small.out, reference::stations_answer(support::read_file(path("m.txt"))));
  paths_taken const many = paths_of(small.err);
  paths_taken const few = paths_of(whole.err);
  EXPECT_GT(many.chunks, few.chunks) << small.err << whole.err;
  EXPECT_LE(many.general, 2) << "at most one general block per worker\n" << small.err;
  EXPECT_EQ(many.fast + many.general, many.chunks) << small.err;
}

// Exercise 6 (job-driver.md): two bad lines, skipped; the answer and the report of where they are do
// not depend on how many workers fold the blocks, nor on the chunk size.
TEST_F(Exercises, SkippedLinesDoNotDependOnWorkersOrChunks) {
  ASSERT_NO_FATAL_FAILURE(generate("good.txt", 50000, 100, 6));
  std::string text = support::read_file(path("good.txt"));
  text.insert(text.find('\n', text.size() / 3) + 1, "no separator here\n");
  text.insert(text.find('\n', 2 * text.size() / 3) + 1, "Oslo;99.99\n");
  support::write_file(path("m.txt"), text);
  std::string first_out, first_err;
  for (int workers : {1, 2}) {
    support::host_workers_env const env{workers};
    for (char const* chunk : {"128K", "1M"}) {
      auto const r = run(std::string("stations --skip-invalid --devices cpu --chunk-size ") + chunk + " '" + path("m.txt") + "'");
      ASSERT_EQ(r.exit_code, 0) << r.err;
      if (first_out.empty()) {
        first_out = r.out;
        first_err = r.err;
        EXPECT_NE(r.err.find("skipped 2 invalid lines"), std::string::npos) << r.err;
      }
      EXPECT_EQ(r.out, first_out) << workers << " workers, chunk " << chunk;
      EXPECT_EQ(r.err, first_err) << workers << " workers, chunk " << chunk;
    }
  }
}

// job-driver.md, exercise 1: a line that straddles a block boundary belongs to the block where it
// starts, so every chunk size counts every line once.
TEST_F(Exercises, EveryChunkSizeCountsEachLineOnce) {
  ASSERT_NO_FATAL_FAILURE(generate("m.txt", 30000, 50, 8));
  for (char const* chunk : {"4K", "5K", "64K", "1M"}) {
    auto const r = run(std::string("stations --stats --devices cpu --chunk-size ") + chunk + " '" + path("m.txt") + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find(" 30000 lines,"), std::string::npos) << "chunk " << chunk << '\n' << r.err;
  }
}

// job-driver.md, exercise 3: a file of fewer blocks than workers is cut into a block a worker; a larger
// one keeps the run's blocks.
TEST_F(Exercises, ASmallFileIsCutIntoABlockAWorker) {
  support::host_workers_env const three_workers{3};
  for (auto const& [rows, name] : {std::pair{440000, "six.txt"}, std::pair{1500000, "twenty.txt"}}) {
    ASSERT_NO_FATAL_FAILURE(generate(name, rows, 413, 13));
    std::size_t const bytes = support::read_file(path(name)).size();
    auto const r = run(std::string("stations --stats --devices cpu --chunk-size 8M '") + path(name) + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::size_t constexpr block = std::size_t{4} << 20;
    int const expected = bytes < 3 * block ? 3 : static_cast<int>((bytes + block - 1) / block);
    EXPECT_EQ(paths_of(r.err).chunks, expected) << bytes << " bytes\n" << r.err;
    EXPECT_TRUE(bytes > block) << "each file must be more than one run's block: " << bytes << " bytes";
  }
}

// stations.md, exercise 1: with no key bits every name collides, and the exact fallback gives the same bytes.
TEST_F(Exercises, StationsKeyBitsChangeNothing) {
  ASSERT_NO_FATAL_FAILURE(generate("m.txt", 20000, 300, 10));
  ASSERT_NO_FATAL_FAILURE(
      expect_same_output("stations '" + path("m.txt") + "'", "stations --key-bits 0 '" + path("m.txt") + "'"));
}

// stations.md, exercise 2: a station the dictionary has not seen sends its block down the general path.
TEST_F(Exercises, ANewStationTakesTheGeneralPath) {
  support::host_workers_env const one_worker{1};
  ASSERT_NO_FATAL_FAILURE(generate("m.txt", 40000, 50, 11));
  std::string const args = "stations --stats --devices cpu --chunk-size 64K '" + path("m.txt") + "'";
  auto const before = run(args);
  support::write_file(path("m.txt"), support::read_file(path("m.txt")) + "Newtown;1.0\n");
  auto const after = run(args);
  ASSERT_EQ(before.exit_code, 0) << before.err;
  ASSERT_EQ(after.exit_code, 0) << after.err;
  EXPECT_EQ(paths_of(after.err).general, paths_of(before.err).general + 1) << before.err << after.err;
  EXPECT_NE(after.out.find("Newtown=1.0/1.0/1.0"), std::string::npos) << after.out;
}

// scale-out.md, exercise 1: a file's last line ends with the file, so two parts answer as the whole.
TEST_F(Exercises, TwoPartsAnswerAsTheWhole) {
  ASSERT_NO_FATAL_FAILURE(generate("m.txt", 5000, 40, 12));
  std::string const text = support::read_file(path("m.txt"));
  std::size_t const cut = text.find('\n', text.size() / 2);
  support::write_file(path("first"), text.substr(0, cut));  // its last line without '\n'
  support::write_file(path("second"), text.substr(cut + 1));
  ASSERT_NO_FATAL_FAILURE(expect_same_output("stations '" + path("m.txt") + "'",
                                             "stations '" + path("first") + "' '" + path("second") + "'"));
}

// lineitem.md, exercises 1 and 2: answers follow the thresholds' order; l_suppkey < 1 matches nothing.
TEST_F(Exercises, LineitemThresholdsKeepTheirOrder) {
  auto const g = run("generate lineitem --scale 0.001 --seed 3 -o '" + path("li.tbl") + "'");
  ASSERT_EQ(g.exit_code, 0) << g.err;
  auto const ascending = run("lineitem --suppkey-below 5,12 '" + path("li.tbl") + "'");
  auto const descending = run("lineitem --suppkey-below 12,5 '" + path("li.tbl") + "'");
  auto const none = run("lineitem --suppkey-below 1 '" + path("li.tbl") + "'");
  ASSERT_EQ(ascending.exit_code, 0) << ascending.err;
  ASSERT_EQ(descending.exit_code, 0) << descending.err;
  std::size_t const split = ascending.out.find('\n') + 1;
  EXPECT_EQ(descending.out, ascending.out.substr(split) + ascending.out.substr(0, split));
  EXPECT_EQ(none.out, "0.00\n");
}

// input-rules.md, exercises 1 and 2: a CR before the LF is an error at the CR; a CR inside a name is not.
TEST_F(Exercises, CarriageReturnsBeforeTheLineFeedAreErrors) {
  support::write_file(path("crlf.txt"), "Hamburg;12.0\r\n");
  auto const crlf = run("stations '" + path("crlf.txt") + "'");
  EXPECT_EQ(crlf.exit_code, 1);
  EXPECT_EQ(crlf.err, "rowscan: error: " + path("crlf.txt") +
                          ":1:13: line ends with CR LF (a Windows line ending); read it with --crlf, or convert the file to "
                          "LF line endings: \"Hamburg;12.0\\r\"\n");
  support::write_file(path("inside.txt"), "a\rb;1.0\n");
  auto const inside = run("stations '" + path("inside.txt") + "'");
  EXPECT_EQ(inside.exit_code, 0) << inside.err;
  EXPECT_EQ(inside.out, "{a\rb=1.0/1.0/1.0}\n");
}

// performance.md 1: --stats counts the file's bytes and lines; an unterminated last line is a line,
// which `wc -l` (counting '\n' bytes) does not count.
TEST_F(Exercises, StatsCountsTheFilesBytesAndLines) {
  ASSERT_NO_FATAL_FAILURE(generate("m.txt", 30000, 100, 11));
  std::string text = support::read_file(path("m.txt"));
  text.pop_back();  // the last line loses its '\n'
  support::write_file(path("open.txt"), text);
  static std::regex const headline(R"(: (\d+) bytes, (\d+) lines,)");
  for (char const* file : {"m.txt", "open.txt"}) {
    std::string const content = support::read_file(path(file));
    auto const r = run(std::string("stations --stats --devices cpu '") + path(file) + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.err, m, headline)) << r.err;
    EXPECT_EQ(std::stoull(m[1]), content.size()) << file;
    EXPECT_EQ(std::stoull(m[2]), 30000u) << file;
  }
}

// performance.md 2: every block is folded by exactly one worker: the workers' blocks add up to the
// headline's chunks, and their megabytes to the file's size.
TEST_F(Exercises, WorkersShareTheBlocksOfTheHeadline) {
  support::host_workers_env const three_workers{3};
  ASSERT_NO_FATAL_FAILURE(generate("m.txt", 100000, 413, 12));
  auto const r = run("stations --stats --devices cpu --chunk-size 128K '" + path("m.txt") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  static std::regex const worker(R"(\n +worker +\d+ +(\d+) blocks +([\d.]+) MB)");
  int blocks = 0;
  double megabytes = 0;
  for (std::sregex_iterator w(r.err.begin(), r.err.end(), worker), end; w != end; ++w) {
    blocks += std::stoi((*w)[1]);
    megabytes += std::stod((*w)[2]);
  }
  EXPECT_EQ(blocks, paths_of(r.err).chunks) << r.err;
  EXPECT_GT(blocks, 3) << r.err;
  EXPECT_NEAR(megabytes, static_cast<double>(support::read_file(path("m.txt")).size()) / 1e6, 0.2) << r.err;
}

}  // namespace
