// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/workload.hpp: `rowscan stations`: per-station min/mean/max of `name;temperature` lines, as one entry
// (rowscan/workload.hpp): defined in src/workloads/stations.cpp and, per system, src/stations/summarize.cu.
#pragma once

#include "rowscan/stations/explained.hpp"
#include "rowscan/stations/summary.hpp"
#include "rowscan/workload.hpp"

namespace rowscan::stations {

using workload = workload_entry<summary, summarize_options, explained_stations>;

}  // namespace rowscan::stations
