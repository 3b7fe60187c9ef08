// SPDX-License-Identifier: Apache-2.0
// The hand-over (app/hand_over.hpp): host workers fold the input's first pieces, then the GPU (in the
// cpu build, or without a GPU: the ordinary host run) takes the rest. --gpu-joins-after K forces the
// split after K pieces; every split must give the bytes of the run without one: the answer, the error
// line, --skip-invalid's report and the exit code. Bad lines sit on the pieces' boundaries, where a
// line belongs to the piece it starts in.
#include "reference/lineitem_reference.hpp"
#include "reference/stations_reference.hpp"
#include "support/cli_fixture.hpp"
#include "support/host_workers_env.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using support::write_file;

class CliHandOver : public support::cli_fixture {
 protected:
  /// Runs `rowscan ARGS` on one engine, then with --gpu-joins-after K for each K, and expects
  /// every run's exit code, stdout and stderr to equal the first's. Returns the first run.
  support::run_result expect_same_for_every_split(std::string const& args) const {
    support::run_result plain = run(args);
    for (std::size_t k : {0, 1, 2, 5, 13, 1000000}) {
      auto const r = run(args + " --gpu-joins-after " + std::to_string(k));
      EXPECT_EQ(r.exit_code, plain.exit_code) << args << ", after " << k;
      EXPECT_EQ(r.out, plain.out) << args << ", after " << k;
      EXPECT_EQ(r.err, plain.err) << args << ", after " << k;
    }
    return plain;
  }
};

/// `lines` random measurements over `stations` names, with seed `seed`.
std::vector<std::string> measurement_lines(unsigned seed, int lines, int stations) {
  std::mt19937 random(seed);
  std::vector<std::string> out;
  for (int i = 0; i < lines; ++i) {
    int const tenths = static_cast<int>(random() % 1999) - 999;
    std::string const name = "station" + std::to_string(random() % static_cast<unsigned>(stations)) +
                             std::string(random() % 20, 'x');  // lines of different lengths
    out.push_back(name + ';' + (tenths < 0 ? "-" : "") + std::to_string(std::abs(tenths) / 10) + '.' +
                  std::to_string(std::abs(tenths) % 10));
  }
  return out;
}

std::string joined_lines(std::vector<std::string> const& lines) {
  std::string text;
  for (std::string const& line : lines) text += line + '\n';
  return text;
}

/// Breaks the line that holds byte `boundary` of the text (it belongs to the piece before the
/// boundary) and the line after it (the first of the next piece) for every multiple of `piece` bytes.
std::vector<std::string> broken_at_boundaries(std::vector<std::string> lines, std::uint64_t piece) {
  std::uint64_t at = 0;
  std::uint64_t next_boundary = piece;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    std::uint64_t const end = at + lines[i].size() + 1;
    if (end > next_boundary) {
      lines[i] = "no separator on the boundary";
      lines[i + 1] = "no separator after the boundary";
      next_boundary += piece;
    }
    at = end;
  }
  return lines;
}

TEST_F(CliHandOver, StationsAnswerTheSameForEverySplit) {
  support::host_workers_env const workers{3};
  for (unsigned seed : {1u, 2u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::string const text = joined_lines(measurement_lines(seed, 6000, 200));
    write_file(path("m.txt"), text);
    std::string const m = " '" + path("m.txt") + "'";
    auto const plain = expect_same_for_every_split("stations --chunk-size 4K" + m);
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    EXPECT_EQ(plain.out, reference::stations_answer(text));
    expect_same_for_every_split("stations --format csv --chunk-size 8K" + m);
  }
}

TEST_F(CliHandOver, ErrorsOnPieceBoundariesAreTheSameForEverySplit) {
  support::host_workers_env const workers{2};
  std::vector<std::string> const lines = broken_at_boundaries(measurement_lines(3, 3000, 50), 4096);
  write_file(path("bad.txt"), joined_lines(lines));
  std::string const bad = " '" + path("bad.txt") + "'";
  auto const stopped = expect_same_for_every_split("stations --chunk-size 4K" + bad);
  EXPECT_EQ(stopped.exit_code, 1);
  EXPECT_NE(stopped.err.find("missing ';'"), std::string::npos) << stopped.err;
  auto const skipped = expect_same_for_every_split("stations --chunk-size 4K --skip-invalid" + bad);
  EXPECT_EQ(skipped.exit_code, 0) << skipped.err;
  EXPECT_NE(skipped.err.find("skipped"), std::string::npos) << skipped.err;
  // Only the first bad line of the third piece on: the error found by a later piece's worker.
  std::vector<std::string> late = measurement_lines(4, 3000, 50);
  late[late.size() / 2] = "a bad line in the middle";
  write_file(path("late.txt"), joined_lines(late));
  expect_same_for_every_split("stations --chunk-size 4K '" + path("late.txt") + "'");
}

TEST_F(CliHandOver, ManyFilesAreOneInputForEverySplit) {
  support::host_workers_env const workers{3};
  ASSERT_EQ(std::system(("mkdir -p '" + path("d") + "'").c_str()), 0);
  std::string expected_input;
  for (int f = 0; f < 4; ++f) {
    std::string const text = joined_lines(measurement_lines(10 + f, 700 * (f + 1), 80));
    write_file(path("d/part" + std::to_string(f) + ".txt"), text);
    expected_input += text;
  }
  write_file(path("d/empty.txt"), "");
  auto const plain = expect_same_for_every_split("stations --chunk-size 4K '" + path("d") + "'");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out, reference::stations_answer(expected_input));
}

TEST_F(CliHandOver, LineitemAnswersTheSameForEverySplit) {
  support::host_workers_env const workers{2};
  auto const g = run("generate lineitem --scale 0.002 --seed 5 -o '" + path("li.tbl") + "'");
  ASSERT_EQ(g.exit_code, 0) << g.err;
  std::string const table = support::read_file(path("li.tbl"));
  std::string const li = " '" + path("li.tbl") + "'";
  auto const plain = expect_same_for_every_split("lineitem --suppkey-below 5,12,1000 --chunk-size 8K" + li);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out, reference::lineitem_answer(table, {5, 12, 1000}));
  std::string broken = table;
  broken[broken.size() / 3] = '\n';  // a short row, a third of the way in
  write_file(path("broken.tbl"), broken);
  auto const stopped = expect_same_for_every_split("lineitem --suppkey-below 9 --chunk-size 8K '" + path("broken.tbl") + "'");
  EXPECT_EQ(stopped.exit_code, 1);
}

TEST_F(CliHandOver, StatsShowEveryWorkersShareOfOneQueue) {
  support::host_workers_env const workers{2};
  write_file(path("m.txt"), joined_lines(measurement_lines(7, 6000, 100)));
  auto const r = run("stations --stats --chunk-size 4K --gpu-joins-after 6 '" + path("m.txt") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // "... 40 chunk(s) of 4096 bytes ..." and "  worker 0   18 blocks ...": the two host workers that
  // start first, then the taker's; between them they folded every block of the one queue.
  std::size_t const chunks_at = r.err.find(" chunk(s)");
  ASSERT_NE(chunks_at, std::string::npos) << r.err;
  std::size_t const number_at = r.err.rfind(' ', chunks_at - 1) + 1;
  int const chunks = std::stoi(r.err.substr(number_at, chunks_at - number_at));
  std::istringstream lines(r.err);
  std::vector<int> blocks;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string who, index, blocks_word;
    int count = 0;
    if (words >> who >> index >> count >> blocks_word && (who == "worker" || who == "gpu") && blocks_word == "blocks") {
      blocks.push_back(count);
    }
  }
  ASSERT_GE(blocks.size(), 3u) << "two host workers and the taker's\n" << r.err;
  int total = 0;
  for (int const b : blocks) total += b;
  EXPECT_EQ(total, chunks) << r.err;
  EXPECT_GT(blocks[0] + blocks[1], 0) << "the host workers folded the first blocks\n" << r.err;
  EXPECT_NE(r.err.find("taker joined at"), std::string::npos) << r.err;
}

TEST_F(CliHandOver, IsAUsageErrorWithExplainOrABadCount) {
  write_file(path("m.txt"), "a;1.0\n");
  EXPECT_EQ(run("stations --explain --gpu-joins-after 2 '" + path("m.txt") + "'").exit_code, 2);
  EXPECT_EQ(run("stations --gpu-joins-after -1 '" + path("m.txt") + "'").exit_code, 2);
  EXPECT_EQ(run("stations --gpu-joins-after x '" + path("m.txt") + "'").exit_code, 2);
}

}  // namespace
