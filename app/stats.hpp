// SPDX-License-Identifier: Apache-2.0
// app/stats.hpp: --stats, the same for every workload: a headline, then each stage's time.
#pragma once

#include "rowscan/job/run_report.hpp"

#include <string>

namespace rowscan::app {

/// Prints to stderr "rowscan COMMAND on WHERE: HEADLINE", one line per stage of report.times (milliseconds),
/// the total with the rate in GB/s (1 GB = 1e9 bytes) of report.bytes, and each worker's share and rate.
void print_stats(char const* command, std::string const& headline, job::run_report const& report, double total_seconds);

}  // namespace rowscan::app
