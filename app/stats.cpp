// SPDX-License-Identifier: Apache-2.0
// --stats (stats.hpp).
#include "stats.hpp"

#include <cstdio>
#include <string>

namespace rowscan::app {

void print_stats(char const* command, std::string const& headline, job::run_report const& report, double total_seconds) {
  // Where it ran: the CUDA build's own copy runs on the GPU; the host system's copy, and the cpu
  // build, on host workers (--devices).
  std::string const where = ROWSCAN_APP_ON_GPU ? std::string("the GPU")
                                               : std::to_string(report.shares.size()) + " host worker(s)";
  std::fprintf(stderr, "rowscan %s on %s: %s\n", command, where.c_str(), headline.c_str());
  for (auto const& [stage, seconds] : report.times.stages()) {
    std::fprintf(stderr, "  %-18s %9.3f ms\n", stage.c_str(), seconds * 1e3);
  }
  std::fprintf(stderr, "  %-18s %9.3f ms  (%.2f GB/s of text)\n", "total", total_seconds * 1e3,
               total_seconds > 0 ? static_cast<double>(report.bytes) / total_seconds / 1e9 : 0.0);
  // Each worker's share: blocks are handed out in input order to whichever worker is idle.
  for (std::size_t i = 0; i < report.shares.size(); ++i) {
    auto const& w = report.shares[i];
    std::fprintf(stderr, "  worker %-3zu %6zu blocks %10.1f MB %9.3f s busy %9.1f MB/s, first block at %.1f ms\n", i,
                 w.blocks, static_cast<double>(w.bytes) / 1e6, w.busy_seconds,
                 w.busy_seconds > 0 ? static_cast<double>(w.bytes) / w.busy_seconds / 1e6 : 0.0,
                 w.first_block_at * 1e3);
  }
}

}  // namespace rowscan::app
