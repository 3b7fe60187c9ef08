// SPDX-License-Identifier: Apache-2.0
// rowscan/group/workload.hpp: `rowscan group`: exact aggregates of value columns by key, as one entry
// (rowscan/workload.hpp): defined in src/workloads/group.cpp and, per system, src/group/summarize.cu.
#pragma once

#include "rowscan/group/explained.hpp"
#include "rowscan/group/summary.hpp"
#include "rowscan/workload.hpp"

namespace rowscan::group {

using workload = workload_entry<summary, summarize_options, explained_group>;

}  // namespace rowscan::group
