// SPDX-License-Identifier: Apache-2.0
// app/stats.hpp: --stats, the same for every workload: a headline, then each stage's time.
#pragma once

#include "rowscan/job/run_report.hpp"
#include "rowscan/process/scale_out.hpp"

#include <string>

namespace rowscan::app {

/// A rate of bytes over seconds as a person reads it: "43.20 GB/s" (1 GB = 1e9 bytes), and below
/// 0.1 GB/s in MB/s ("12.3 MB/s"), so a slow run never shows "0.00 GB/s".
std::string rate_text(double bytes, double seconds);

/// This process's memory for --stats: its peak resident set (getrusage) and the heap it holds through
/// malloc now, "peak RSS 24.1 MiB, heap 3.2 MiB in use".
std::string process_memory_text();

/// Prints to stderr "rowscan COMMAND on WHERE: HEADLINE", one line per stage of report.times (milliseconds),
/// the total with the rate (rate_text) of report.bytes, this process's memory, and each worker's share and
/// rate.
void print_stats(char const* command, std::string const& headline, job::run_report const& report, double total_seconds);

/// With several ranks, prints to stderr one line per rank (bytes, lines, seconds) and the merge's time.
void print_rank_figures(char const* command, process::scale_out_report const& report);

}  // namespace rowscan::app
