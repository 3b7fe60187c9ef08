// SPDX-License-Identifier: Apache-2.0
// Peak host memory does not grow with the input: the reader's ring, the workers' blocks and the station
// table bound it (docs/performance.md, the memory section), whatever the file's length; and several
// workers with the fast path's dictionary stay under the bound itself. A few seconds each, so they run
// with the CLI tests; tests/test_cli_memory.cpp (label large) checks the bound with far more stations.
#include "rowscan/stations/memory_bound.hpp"
#include "support/cli_fixture.hpp"
#include "support/distinct_stations.hpp"
#include "support/host_workers_env.hpp"
#include "support/peak_rss.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

class CliPeakMemory : public support::cli_fixture {
 protected:
  /// Runs `rowscan stations --devices cpu EXTRA...` at 1 MiB chunks with four host workers on 1,000,000
  /// generated lines and on the same lines four times over, and expects the same answer from both and a
  /// peak RSS within 8 MiB of each other. Four workers, so that the short file (14 blocks) already
  /// keeps every worker busy: each worker's own blocks and table are part of the bound, and a machine
  /// with more cores than blocks would otherwise start more workers for the longer file.
  void expect_peak_does_not_grow(std::vector<std::string> const& extra) {
    support::host_workers_env const four_workers{4};
    auto const g = run("generate measurements --rows 1000000 --stations 1000 --seed 9 -o '" + path("once.txt") + "'");
    ASSERT_EQ(g.exit_code, 0) << g.err;
    std::string const command = "cat '" + path("once.txt") + "' '" + path("once.txt") + "' '" + path("once.txt") +
                                "' '" + path("once.txt") + "' > '" + path("four.txt") + "'";
    ASSERT_EQ(std::system(command.c_str()), 0);
    std::uint64_t constexpr chunk = std::uint64_t{1} << 20;
    support::measured_run const once =
        support::run_stations_measured(ROWSCAN_EXE, path("once.txt"), chunk, path("out1.txt"), extra);
    support::measured_run const four =
        support::run_stations_measured(ROWSCAN_EXE, path("four.txt"), chunk, path("out4.txt"), extra);
    ASSERT_EQ(once.exit_code, 0);
    ASSERT_EQ(four.exit_code, 0);
    EXPECT_EQ(support::read_file(path("out1.txt")), support::read_file(path("out4.txt")));
    EXPECT_LE(four.peak_rss_bytes, once.peak_rss_bytes + (std::uint64_t{8} << 20))
        << "peak RSS " << (once.peak_rss_bytes >> 20) << " MiB for 14 MB, " << (four.peak_rss_bytes >> 20)
        << " MiB for 56 MB";
  }
};

// Host memory is bounded by the reader's ring, the workers' blocks and the table, not by the input: a
// file four times as long (the same lines four times over) peaks within a few MiB of the shorter one.
TEST_F(CliPeakMemory, DoesNotGrowWithTheFileSize) { expect_peak_does_not_grow({}); }

// The same on one queue that the host's workers share with a taker that joins only at the end
// (--gpu-joins-after with more blocks than the input has): the ring is bounded, whatever the length.
TEST_F(CliPeakMemory, OneSharedQueueDoesNotGrowWithTheFileSize) {
  expect_peak_does_not_grow({"--gpu-joins-after", "1000000"});
}

// 30,000 distinct names of 90-100 bytes, three times over: every worker learns them, builds the fast
// path's dictionary and merges tables while the blocks are small, and what each worker's thread frees
// stays in its own malloc arena. Two and four workers peaked at up to 1.07 times what 448 S + 8 N a
// worker allowed (docs/data/memory_workers-cpu.csv); the bound's 640 S + 12 N must hold them.
TEST_F(CliPeakMemory, SeveralWorkersStayUnderTheBound) {
  std::uint64_t constexpr stations = 30000;
  std::uint64_t constexpr chunk = 16384;
  std::uint64_t const name_bytes = support::write_distinct_stations(path("names.txt"), stations, "90-100", 3);
  std::string reference;
  for (int const workers : {2, 4}) {
    support::host_workers_env const env{workers};
    support::measured_run const r = support::run_stations_measured(ROWSCAN_EXE, path("names.txt"), chunk, path("out.txt"));
    std::uint64_t const bound = rowscan::stations::peak_memory_bound(chunk, stations, name_bytes, workers);
    ASSERT_EQ(r.exit_code, 0) << workers << " workers";
    EXPECT_LE(r.peak_rss_bytes, bound) << workers << " workers: peak RSS " << (r.peak_rss_bytes >> 20) << " MiB, bound "
                                       << (bound >> 20) << " MiB";
    std::string const answer = support::read_file(path("out.txt"));
    EXPECT_EQ(std::count(answer.begin(), answer.end(), '='), static_cast<std::ptrdiff_t>(stations));
    if (reference.empty()) reference = answer;
    EXPECT_EQ(answer, reference) << workers << " workers";
  }
}

}  // namespace
