// SPDX-License-Identifier: Apache-2.0
// Peak memory of `rowscan stations` with every name distinct, at small chunk sizes: the
// station table grows in every block, which once made the pool cache a new block per chunk (4.5 GB for
// 200,000 names at 16 KiB chunks). Each run's peak RSS, from wait4's rusage of that child alone, must
// stay under peak_memory_bound (rowscan/stations/memory_bound.hpp): 2 C + W (12 C + 640 S + 12 N) + 32 MiB.
// The answer must be the same at every chunk size. The inputs come from scripts/distinct_stations.py.
//
// 10-30 s on the 2-core machine and about 0.8 GB of memory with two workers (the table is merged once per
// block, so small chunks of many stations take long), so CTest labels it `large`:
// `ctest --test-dir build/cpu -L large -R Memory`.
#include "rowscan/stations/memory_bound.hpp"
#include "support/cli_fixture.hpp"
#include "support/distinct_stations.hpp"
#include "support/peak_rss.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <iostream>
#include <cstdlib>
#include <string>
#include <thread>
#include <unistd.h>

namespace {

using rowscan::stations::peak_memory_bound;

using support::measured_run;

class CliMemory : public support::cli_fixture {
 protected:
  measured_run run_stations(std::string const& file, std::uint64_t chunk, std::string const& out) const {
    return support::run_stations_measured(ROWSCAN_EXE, file, chunk, out);
  }

  /// The CLI's host workers: OMP_NUM_THREADS (CTest's cpu preset sets it), else one per core.
  static std::uint64_t host_workers() {
    char const* value = std::getenv("OMP_NUM_THREADS");
    unsigned long const n = value != nullptr ? std::strtoul(value, nullptr, 10) : 0;
    return n > 0 ? n : std::max(1u, std::thread::hardware_concurrency());
  }

  void expect_bounded(std::uint64_t stations, std::initializer_list<std::uint64_t> chunks) const {
    std::string const input = path("input.txt");
    std::uint64_t const name_bytes = support::write_distinct_stations(input, stations);
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

TEST_F(CliMemory, TwoHundredThousandDistinctNamesStayUnderTheBoundAtSmallChunks) {
  expect_bounded(200000, {16384, 65536, std::uint64_t{1} << 20});
}

TEST_F(CliMemory, OneMillionDistinctNamesStayUnderTheBoundAtSmallChunks) {
  expect_bounded(1000000, {std::uint64_t{256} << 10, std::uint64_t{1} << 20});
}

}  // namespace
