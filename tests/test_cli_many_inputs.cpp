// SPDX-License-Identifier: Apache-2.0
// `rowscan stations FILE...` and `rowscan lineitem FILE...`: several files and directories
// give the answer of their concatenation; errors and --skip-invalid's record name the file, its line and
// byte; a file's last line ends with the file, '\n' or not.
#include "reference/stations_reference.hpp"

#include "support/cli_fixture.hpp"
#include "support/stations_text.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace {

/// Byte offsets are what these tests place: every rowscan they start adds them to its errors after the
/// column (`FILE:LINE:COLUMN: byte OFFSET: ...`, the testing aid ROWSCAN_ERROR_BYTE_OFFSETS).
bool const byte_offsets_in_errors = setenv("ROWSCAN_ERROR_BYTE_OFFSETS", "1", 1) == 0;

using support::run_result;
using support::write_file;

class CliManyInputs : public support::cli_fixture {
 protected:
  /// Cuts text at random line starts into `parts` files NAME0.. and returns their quoted paths.
  std::string split_into_files(std::string const& text, std::size_t parts, std::mt19937& rng, std::string const& name) {
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n' && i + 1 < text.size()) starts.push_back(i + 1);
    }
    std::vector<std::size_t> cuts{0, text.size()};
    for (std::size_t i = 1; i < parts; ++i) cuts.push_back(starts[rng() % starts.size()]);
    std::sort(cuts.begin(), cuts.end());
    std::string operands;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
      std::string const file = path(name + std::to_string(i));
      write_file(file, text.substr(cuts[i], cuts[i + 1] - cuts[i]));
      operands += " '" + file + "'";
    }
    return operands;
  }
};

TEST_F(CliManyInputs, StationsOverRandomSplitsAreTheConcatenationsAnswer) {
  for (std::uint32_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    std::string const text = support::random_measurements(seed, 1 + rng() % 300, 2000 + rng() % 3000, 20);
    std::string const files = split_into_files(text, 1 + rng() % 7, rng, "part");
    run_result const r = run("stations" + files + " --chunk-size 4K");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, reference::stations_answer(text));
    EXPECT_EQ(r.err, "");
  }
}

// Files of fewer blocks than workers are cut into more, smaller blocks (job/block_size.hpp): the queue
// is a file's, so one block a file kept all but one worker waiting. The answer stays the same.
TEST_F(CliManyInputs, FilesOfFewerBlocksThanWorkersAreCutForEveryWorker) {
  std::string const text = support::random_measurements(7, 400, 300000, 16);
  ASSERT_GT(text.size(), std::size_t{4} << 20);
  ASSERT_LT(text.size(), std::size_t{8} << 20);  // two files of at most one 4 MiB block each, by default
  std::size_t const middle = text.find('\n', text.size() / 2) + 1;
  write_file(path("first"), text.substr(0, middle));
  write_file(path("second"), text.substr(middle));
  std::string const files = " '" + path("first") + "' '" + path("second") + "'";
  run_result const r = run("stations --stats --devices cpu --threads 4" + files);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, reference::stations_answer(text));
  std::size_t const at = r.err.find(" chunk(s)");
  ASSERT_NE(at, std::string::npos) << r.err;
  std::size_t const begin = r.err.rfind(", ", at) + 2;
  EXPECT_GE(std::stoul(r.err.substr(begin, at - begin)), 4u) << "each file is still one block\n" << r.err;
}

// A run's threads are its workers' and a few more (the process's own, the driver's), for any number of files:
// nothing is made per file, and no OpenMP team idles beside the workers (it is made after them, for the answer).
// --stats counts them from /proc as the last block is folded, and again after the answer.
TEST_F(CliManyInputs, AHundredFilesRunOnTheWorkersAndAFewThreadsMore) {
  std::mt19937 rng(11);
  std::string const text = support::random_measurements(11, 300, 20000, 16);
  std::string const files = split_into_files(text, 100, rng, "part");
  for (unsigned const workers : {2u, 8u}) {
    SCOPED_TRACE(std::to_string(workers) + " workers");
    run_result const r =
        run("stations --stats --devices cpu --chunk-size 4K --threads " + std::to_string(workers) + files);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, reference::stations_answer(text));
    std::size_t const at = r.err.find("  threads ");
    ASSERT_NE(at, std::string::npos) << r.err;
    unsigned folding = 0, after = 0;
    ASSERT_EQ(std::sscanf(r.err.c_str() + at, " threads %u while folding, %u after the answer", &folding, &after), 2)
        << r.err;
    EXPECT_GE(folding, workers) << r.err;  // the workers live until the last block is folded
    EXPECT_LE(folding, workers + 4) << r.err;
    EXPECT_LE(after, workers + 4) << r.err;
  }
}

TEST_F(CliManyInputs, LineitemOverRandomSplitsIsTheConcatenationsAnswer) {
  std::mt19937 rng(21);
  ASSERT_EQ(run("generate lineitem --scale 0.002 --seed 4 -o '" + path("whole.tbl") + "'").exit_code, 0);
  std::string const text = support::read_file(path("whole.tbl"));
  run_result const whole = run("lineitem '" + path("whole.tbl") + "' --suppkey-below 7,15,1000 --format json");
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  std::string const files = split_into_files(text, 5, rng, "li");
  run_result const r = run("lineitem" + files + " --suppkey-below 7,15,1000 --format json --chunk-size 4K");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, whole.out);
}

TEST_F(CliManyInputs, ADirectoryIsItsRegularFilesInNameOrder) {
  ASSERT_EQ(::mkdir(path("d").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(path("d/sub").c_str(), 0755), 0);
  write_file(path("d/b"), "b;2.0\n");
  write_file(path("d/a"), "a;1.0\nbad\n");  // a comes first: its bad line is line 2 of d/a
  write_file(path("d/sub/c"), "c;3.0\n");   // not descended into
  run_result const r = run("stations '" + path("d") + "' --skip-invalid");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "{a=1.0/1.0/1.0, b=2.0/2.0/2.0}\n");
  // The subdirectory is named in a warning, then comes --skip-invalid's line.
  std::string const warning = "rowscan: warning: skipped 1 subdirectory (read them with --recursive): " + path("d/sub") + "\n";
  EXPECT_EQ(r.err.rfind(warning + "rowscan: skipped 1 invalid line: " + path("d/a") + ":2:1: byte 6: ", 0), 0u) << r.err;
  run_result const empty = run("stations '" + path("d/sub") + "' '" + path("d/sub/c") + "'");
  EXPECT_EQ(empty.out, "{c=3.0/3.0/3.0}\n");
}

TEST_F(CliManyInputs, ErrorsNameTheFileItsLineAndByte) {
  write_file(path("one"), "a;1.0\nb;2.0\n");
  write_file(path("two"), "c;3.0\nd;x\n");
  run_result const r = run("stations '" + path("one") + "' '" + path("two") + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("rowscan: error: " + path("two") + ":2:3: byte 8: ", 0), 0u) << r.err;
  run_result const missing = run("stations '" + path("one") + "' '" + path("none") + "'");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.out, "");
  EXPECT_EQ(missing.err, "rowscan: error: " + path("none") + ": cannot open: No such file or directory\n");
}

TEST_F(CliManyInputs, SkipInvalidCountsAndPlacesAcrossFiles) {
  std::string one, two;
  for (int i = 0; i < 8; ++i) one += i % 3 == 1 ? "bad line\n" : "s;1.5\n";
  for (int i = 0; i < 8; ++i) two += i % 2 == 0 ? "no;temp\n" : "t;-2.5\n";
  write_file(path("one"), one);
  write_file(path("two"), two);
  run_result const r = run("stations '" + path("one") + "' '" + path("two") + "' --skip-invalid");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "{s=1.5/1.5/1.5, t=-2.5/-2.5/-2.5}\n");
  // 3 bad lines in one (lines 2, 5, 8), 4 in two (lines 1, 3, 5, 7): the first five, each in its own
  // file, lines and bytes counted from that file's start.
  std::string const expected_start = "rowscan: skipped 7 invalid lines, the first 5: " + path("one") + ":2:1: byte 6: ";
  EXPECT_EQ(r.err.rfind(expected_start, 0), 0u) << r.err;
  EXPECT_NE(r.err.find("; " + path("one") + ":8:1: byte 48: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("; " + path("two") + ":1:4: byte 3: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("; " + path("two") + ":3:4: byte 18: "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(path("two") + ":5:"), std::string::npos) << r.err;
}

TEST_F(CliManyInputs, AFilesLastLineEndsWithTheFile) {
  // Per-file records: "a;1.0" without '\n' is not joined to the next file's first line.
  write_file(path("one"), "a;1.0");
  write_file(path("two"), "b;2.0\n");
  run_result const r = run("stations '" + path("one") + "' '" + path("two") + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{a=1.0/1.0/1.0, b=2.0/2.0/2.0}\n");
  write_file(path("empty"), "");
  EXPECT_EQ(run("stations '" + path("empty") + "' '" + path("empty") + "'").out, "{}\n");
}

// Random lists of files (empty ones, files whose last line has no '\n', bad lines in some) at several
// chunk sizes, worker counts and ways of reading (the reader's copies, mapped windows): the answer is that
// of the files' lines one after another, each file's last line ending with the file; the first bad line
// stops the run at its own file, line and byte; --skip-invalid counts every bad line and places the
// first five, each in its own file. The lines of the end of one file and the start of the next may be
// folded at once (a GPU's batch): none of that shows.
TEST_F(CliManyInputs, RandomListsAreTheirFilesLinesInEveryLayout) {
  char const* const chunk_sizes[] = {"4K", "16K", "64K", "0"};
  char const* const reads[] = {"copy", "map"};
  for (std::uint32_t seed = 1; seed <= 12; ++seed) {
    std::mt19937 rng(std::mt19937::result_type{seed} * 7919);
    std::size_t const n = 2 + rng() % 40;
    std::vector<std::string> texts(n);
    std::string lines;  // every file's lines, each file's last line ended
    for (std::size_t i = 0; i < n; ++i) {
      if (rng() % 5 != 0) {
        texts[i] = support::random_measurements(seed * 1000 + static_cast<std::uint32_t>(i), 1 + rng() % 40,
                                                1 + rng() % (rng() % 4 == 0 ? 4000 : 60), 16, rng() % 3 != 0);
      }
      lines += texts[i];
      if (!texts[i].empty() && texts[i].back() != '\n') lines += '\n';
    }
    // Bad lines in some files, each at a line start: file, 1-based line and byte in the file.
    struct bad {
      std::size_t file, line, byte;
    };
    std::vector<bad> bads;
    std::vector<std::string> with_bad = texts;
    for (std::size_t i = 0; i < n; ++i) {
      if (rng() % 4 != 0) continue;
      std::vector<std::size_t> starts{0};
      for (std::size_t k = 0; k < with_bad[i].size(); ++k) {
        if (with_bad[i][k] == '\n') starts.push_back(k + 1);
      }
      std::size_t const at = starts[rng() % starts.size()];
      with_bad[i].insert(at, "bad\n");
      bads.push_back(
          {i, static_cast<std::size_t>(std::count(with_bad[i].begin(), with_bad[i].begin() + at, '\n')) + 1, at});
    }
    std::string good_files, bad_files;
    for (std::size_t i = 0; i < n; ++i) {
      write_file(path("good" + std::to_string(i)), texts[i]);
      write_file(path("bad" + std::to_string(i)), with_bad[i]);
      good_files += " '" + path("good" + std::to_string(i)) + "'";
      bad_files += " '" + path("bad" + std::to_string(i)) + "'";
    }
    std::string const chunk = chunk_sizes[rng() % 4];
    unsigned const threads = 1 + rng() % 4;
    char const* const reading = reads[rng() % 2];
    ::setenv("ROWSCAN_READS", reading, 1);
    std::string const options = " --chunk-size " + chunk + " --threads " + std::to_string(threads);
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + std::to_string(n) + " files, " + std::to_string(bads.size()) +
                 " bad lines, --chunk-size " + chunk + ", --threads " + std::to_string(threads) +
                 ", ROWSCAN_READS=" + reading);
    std::string const expected = reference::stations_answer(lines);
    std::string const good_command = std::string("stations").append(good_files).append(options);
    std::string const bad_command = std::string("stations").append(bad_files).append(options);
    run_result const good = run(good_command);
    EXPECT_EQ(good.exit_code, 0) << good.err;
    EXPECT_EQ(good.out, expected);
    EXPECT_EQ(good.err, "");
    auto placed = [&](bad const& b) {
      return path("bad" + std::to_string(b.file)) + ":" + std::to_string(b.line) + ":1: byte " +
             std::to_string(b.byte) + ": ";
    };
    run_result const strict = run(bad_command);
    run_result const skipped = run(bad_command + " --skip-invalid");
    EXPECT_EQ(skipped.exit_code, 0) << skipped.err;
    EXPECT_EQ(skipped.out, expected);
    if (bads.empty()) {
      EXPECT_EQ(strict.out, expected);
      EXPECT_EQ(skipped.err, "");
      continue;
    }
    EXPECT_EQ(strict.exit_code, 1);
    EXPECT_EQ(strict.out, "");
    EXPECT_EQ(strict.err.rfind("rowscan: error: " + placed(bads.front()), 0), 0u) << strict.err;
    std::string const count = bads.size() == 1   ? "1 invalid line: "
                              : bads.size() <= 5 ? std::to_string(bads.size()) + " invalid lines: "
                                                 : std::to_string(bads.size()) + " invalid lines, the first 5: ";
    EXPECT_EQ(skipped.err.rfind("rowscan: skipped " + count + placed(bads.front()), 0), 0u) << skipped.err;
    std::size_t from = 0;
    for (std::size_t k = 0; k < std::min<std::size_t>(5, bads.size()); ++k) {
      std::size_t const at = skipped.err.find(placed(bads[k]), from);
      EXPECT_NE(at, std::string::npos) << "bad line " << k << " in order: " << skipped.err;
      if (at != std::string::npos) from = at + 1;
    }
    if (bads.size() > 5) {
      EXPECT_EQ(skipped.err.find(placed(bads[5])), std::string::npos) << skipped.err;
    }
  }
  ::unsetenv("ROWSCAN_READS");
}

TEST_F(CliManyInputs, StandardInputAmongFilesAndExplainTakesOne) {
  write_file(path("one"), "a;1.0\n");
  run_result const r = run("stations '" + path("one") + "' - '" + path("one") + "'", "b;-1.0\nbad\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("rowscan: error: <stdin>:2:1: byte 7: ", 0), 0u) << r.err;
  run_result const explain = run("stations '" + path("one") + "' '" + path("one") + "' --explain");
  EXPECT_EQ(explain.exit_code, 2);
  EXPECT_EQ(explain.err, "rowscan: error: --explain reads one FILE, not 2 (see --help)\n");
}

}  // namespace
