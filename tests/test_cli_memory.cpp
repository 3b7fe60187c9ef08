// SPDX-License-Identifier: Apache-2.0
// Peak memory of `rowscan stations` with every name distinct, at small chunk sizes (issue 18): the
// station table grows in every block, which once made the pool cache a new block per chunk (4.5 GB for
// 200,000 names at 16 KiB chunks). Each run's peak RSS, from wait4's rusage of that child alone, must
// stay under peak_memory_bound (rowscan/stations/memory_bound.hpp): 14 C + 320 S + 5 N + 32 MiB.
// The answer must be the same at every chunk size. The inputs come from scripts/distinct_stations.py.
//
// About 5 minutes on the shared 2-core machine (the table is merged once per block, so small chunks of
// many stations take long), so CTest labels it `large`: `ctest --test-dir build/cpu -L large -R Memory`.
#include "rowscan/stations/memory_bound.hpp"
#include "support/cli_fixture.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fcntl.h>
#include <initializer_list>
#include <iostream>
#include <cstdlib>
#include <string>
#include <thread>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using rowscan::stations::peak_memory_bound;

struct measured_run {
  int exit_code;
  std::uint64_t peak_rss_bytes;
};

class CliMemory : public support::cli_fixture {
 protected:
  /// scripts/distinct_stations.py --stations S -o FILE; returns the bytes of all names.
  std::uint64_t write_distinct(std::uint64_t stations, std::string const& file) const {
    std::string const command = "python3 '" ROWSCAN_SOURCE_DIR "/scripts/distinct_stations.py' --stations " +
                                std::to_string(stations) + " -o '" + file + "'";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    std::string const text = support::read_file(file);
    std::uint64_t name_bytes = 0;
    bool in_name = true;
    for (char const c : text) {
      if (c == ';') in_name = false;
      else if (c == '\n') in_name = true;
      else if (in_name) ++name_bytes;
    }
    return name_bytes;
  }

  /// rowscan stations FILE --chunk-size C > out, as a child process; its peak RSS from wait4.
  measured_run run_stations(std::string const& file, std::uint64_t chunk, std::string const& out) const {
    pid_t const pid = fork();
    if (pid == 0) {
      int const fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0 || dup2(fd, 1) < 0) _exit(126);
      std::string const size = std::to_string(chunk);
      execl(ROWSCAN_EXE, ROWSCAN_EXE, "stations", file.c_str(), "--chunk-size", size.c_str(), "--no-progress",
            static_cast<char*>(nullptr));
      _exit(127);
    }
    int status = 0;
    rusage usage{};
    EXPECT_EQ(wait4(pid, &status, 0, &usage), pid);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, static_cast<std::uint64_t>(usage.ru_maxrss) * 1024};
  }

  /// The CLI's host workers: OMP_NUM_THREADS (CTest's cpu preset sets it), else one per core.
  static std::uint64_t host_workers() {
    char const* value = std::getenv("OMP_NUM_THREADS");
    unsigned long const n = value != nullptr ? std::strtoul(value, nullptr, 10) : 0;
    return n > 0 ? n : std::max(1u, std::thread::hardware_concurrency());
  }

  void expect_bounded(std::uint64_t stations, std::initializer_list<std::uint64_t> chunks) const {
    std::string const input = path("input.txt");
    std::uint64_t const name_bytes = write_distinct(stations, input);
    std::string reference;
    for (std::uint64_t const chunk : chunks) {
      measured_run const r = run_stations(input, chunk, path("out.txt"));
      std::uint64_t const bound = peak_memory_bound(chunk, stations, name_bytes, host_workers());
      SCOPED_TRACE(std::to_string(stations) + " stations, " + std::to_string(name_bytes) + " name bytes, chunk " +
                   std::to_string(chunk));
      EXPECT_EQ(r.exit_code, 0);
      EXPECT_LE(r.peak_rss_bytes, bound) << "peak RSS " << (r.peak_rss_bytes >> 20) << " MiB, bound "
                                         << (bound >> 20) << " MiB";
      std::cerr << "[ memory   ] " << stations << " stations, chunk " << chunk << ": peak RSS "
                << (r.peak_rss_bytes >> 20) << " MiB, bound " << (bound >> 20) << " MiB\n";
      std::string const answer = support::read_file(path("out.txt"));
      if (reference.empty()) reference = answer;
      EXPECT_EQ(answer, reference);
      EXPECT_EQ(std::count(answer.begin(), answer.end(), '='), static_cast<std::ptrdiff_t>(stations));
    }
  }
};

// Host memory is bounded by the reader's ring, the workers' blocks and the table, not by the input: a
// file four times as long (the same lines four times over) peaks within a few MiB of the shorter one.
TEST_F(CliMemory, PeakDoesNotGrowWithTheFileSize) {
  auto const g = run("generate measurements --rows 1000000 --stations 1000 --seed 9 -o '" + path("once.txt") + "'");
  ASSERT_EQ(g.exit_code, 0) << g.err;
  std::string const command = "cat '" + path("once.txt") + "' '" + path("once.txt") + "' '" + path("once.txt") +
                              "' '" + path("once.txt") + "' > '" + path("four.txt") + "'";
  ASSERT_EQ(std::system(command.c_str()), 0);
  std::uint64_t constexpr chunk = std::uint64_t{1} << 20;
  measured_run const once = run_stations(path("once.txt"), chunk, path("out1.txt"));
  measured_run const four = run_stations(path("four.txt"), chunk, path("out4.txt"));
  ASSERT_EQ(once.exit_code, 0);
  ASSERT_EQ(four.exit_code, 0);
  std::cerr << "[ memory   ] 14 MB: peak RSS " << (once.peak_rss_bytes >> 20) << " MiB; 56 MB: "
            << (four.peak_rss_bytes >> 20) << " MiB\n";
  EXPECT_LE(four.peak_rss_bytes, once.peak_rss_bytes + (std::uint64_t{8} << 20));
}

TEST_F(CliMemory, TwoHundredThousandDistinctNamesStayUnderTheBoundAtSmallChunks) {
  expect_bounded(200000, {16384, 65536, std::uint64_t{1} << 20});
}

TEST_F(CliMemory, OneMillionDistinctNamesStayUnderTheBoundAtSmallChunks) {
  expect_bounded(1000000, {std::uint64_t{256} << 10, std::uint64_t{1} << 20});
}

}  // namespace
