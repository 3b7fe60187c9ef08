// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/workload.hpp: `rowscan lineitem`: the TPC-H sum below each l_suppkey threshold, as one entry
// (rowscan/workload.hpp): defined in src/workloads/lineitem.cpp and, per system, src/lineitem/summarize.cu.
#pragma once

#include "rowscan/lineitem/explained.hpp"
#include "rowscan/lineitem/summary.hpp"
#include "rowscan/workload.hpp"

namespace rowscan::lineitem {

using workload = workload_entry<summary, summarize_options, explained_lineitem>;

}  // namespace rowscan::lineitem
