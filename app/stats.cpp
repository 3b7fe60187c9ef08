// SPDX-License-Identifier: Apache-2.0
// --stats (stats.hpp).
#include "stats.hpp"

#include "rowscan/process/ranks.hpp"

#include <algorithm>
#include <cstdio>
#include <malloc.h>
#include <string>
#include <sys/resource.h>

namespace rowscan::app {
namespace {

/// The stages the driver's own thread spends (rowscan/job/stage_names.hpp and the driver): the rest are
/// the workers'.
bool is_driver_stage(std::string const& stage) {
  for (char const* name : {"worker setup", "reader setup", "read (waiting)", "waiting for a worker", "output"}) {
    if (stage == name) return true;
  }
  return false;
}

}  // namespace

std::string rate_text(double bytes, double seconds) {
  double const per_second = seconds > 0 ? bytes / seconds : 0.0;
  char text[48];
  if (per_second >= 0.1e9) {
    std::snprintf(text, sizeof text, "%.2f GB/s", per_second / 1e9);
  } else {
    std::snprintf(text, sizeof text, "%.1f MB/s", per_second / 1e6);
  }
  return text;
}

std::string process_memory_text() {
  rusage usage{};
  double const peak_mib = ::getrusage(RUSAGE_SELF, &usage) == 0 ? static_cast<double>(usage.ru_maxrss) / 1024 : 0.0;
  struct mallinfo2 const heap = ::mallinfo2();  // arenas in use plus mmap'd blocks
  double const heap_mib = static_cast<double>(heap.uordblks + heap.hblkhd) / (1 << 20);
  char text[96];
  std::snprintf(text, sizeof text, "peak RSS %.1f MiB, heap %.1f MiB in use", peak_mib, heap_mib);
  return text;
}

void print_stats(char const* command, std::string const& headline, job::run_report const& report, double total_seconds) {
  // Where it ran: the GPU, the host's workers (threads of the host system), or both on one queue.
  std::size_t const gpus = static_cast<std::size_t>(
      std::count_if(report.shares.begin(), report.shares.end(), [](job::worker_share const& w) { return w.on_gpu; }));
  std::size_t const hosts = report.shares.size() - gpus;
  std::string const on_host = std::to_string(hosts) + " host worker(s)";
  std::string where = gpus == 0 ? on_host : hosts == 0 ? std::string("the GPU") : "the GPU and " + on_host;
  // Under mpirun the headline counts every rank's input; the stages and the workers are rank 0's.
  if (ranks::count() > 1) where = std::to_string(ranks::count()) + " ranks (below: rank 0, on " + where + ")";
  std::fprintf(stderr, "rowscan %s on %s: %s\n", command, where.c_str(), headline.c_str());
  auto const print_stage = [](std::string const& stage, double seconds) {
    std::fprintf(stderr, "  %-18s %9.3f ms\n", stage.c_str(), seconds * 1e3);
  };
  if (gpus > 0) {  // one thread drives the GPU, and each stage waits for it: the stages add up
    for (auto const& [stage, seconds] : report.times.stages()) print_stage(stage, seconds);
  } else {
    // Host workers fold while the driver's thread reads and hands out blocks: the driver's stages are
    // wall time, the workers' are busy time summed over the workers, and the two overlap.
    auto const stages = report.times.stages();
    std::fprintf(stderr, " the driver's thread (wall time):\n");
    for (auto const& [stage, seconds] : stages) {
      if (is_driver_stage(stage)) print_stage(stage, seconds);
    }
    std::fprintf(stderr, " the workers (busy time, summed over %zu):\n", hosts);
    for (auto const& [stage, seconds] : stages) {
      if (!is_driver_stage(stage)) print_stage(stage, seconds);
    }
  }
  std::fprintf(stderr, "  %-18s %9.3f ms  (%s of text)\n", "total", total_seconds * 1e3,
               rate_text(static_cast<double>(report.bytes), total_seconds).c_str());
  std::fprintf(stderr, "  %-18s %s\n", "memory", process_memory_text().c_str());
  // The workers' threads and the rest (the driver's, readers', an OpenMP team's) while the last block was
  // folded, and after the answer (docs/job-driver.md, "One queue for every input").
  std::fprintf(stderr, "  %-18s %zu while folding, %zu after the answer\n", "threads", report.threads_while_folding,
               job::process_threads());
  // Each worker's share: blocks are handed out in input order to whichever worker is idle.
  for (std::size_t i = 0; i < report.shares.size(); ++i) {
    auto const& w = report.shares[i];
    std::fprintf(stderr, "  %s %-3zu %6zu blocks %10.1f MB %9.3f s busy %9.1f MB/s, first block at %.1f ms\n",
                 w.on_gpu ? "gpu   " : "worker", i, w.blocks, static_cast<double>(w.bytes) / 1e6, w.busy_seconds,
                 w.busy_seconds > 0 ? static_cast<double>(w.bytes) / w.busy_seconds / 1e6 : 0.0,
                 w.first_block_at * 1e3);
  }
}

void print_rank_figures(char const* command, process::scale_out_report const& report) {
  if (report.ranks.size() < 2) return;
  for (std::size_t r = 0; r < report.ranks.size(); ++r) {
    process::rank_figures const& f = report.ranks[r];
    std::fprintf(stderr, "rowscan %s: rank %zu: %llu bytes, %llu lines, %.3f s\n", command, r,
                 static_cast<unsigned long long>(f.bytes), static_cast<unsigned long long>(f.lines), f.seconds);
  }
  std::fprintf(stderr, "rowscan %s: merge of %zu partial answers: %.3f ms\n", command, report.ranks.size(),
               report.merge_seconds * 1e3);
}

}  // namespace rowscan::app
