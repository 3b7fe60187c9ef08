// SPDX-License-Identifier: Apache-2.0
// rowscan/job/skipped_rows.hpp: the bad rows of a block, for --skip-invalid: how many, and the first
// few worded.
//
//   count_if(is_bad) -> find_if(is_bad) from after the last one found, at most `wanted` times
//
// Only blocks that hold a bad row get here, and `wanted` falls to zero once the tally has kept its
// first tally::kept positions, so a run pays one count_if per such block after that. Each workload then
// drops the bad rows from its columns with remove_if (the statuses as the stencil).
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/job/tally.hpp"

#include <thrust/count.h>
#include <thrust/find.h>

#include <algorithm>
#include <cstddef>

namespace rowscan::job {
ROWSCAN_SYSTEM_BEGIN

/// Adds the bad rows among statuses[from, rows) to out (is_bad(status) says which; from is usually the
/// first bad row): all of them counted, the first min(count, out.wanted()) worded by describe(row), a
/// bad_line.
template <class StatusIt, class IsBad, class Describe>
void skip_bad_rows(StatusIt statuses, std::size_t from, std::size_t rows, IsBad is_bad, Describe describe, tally& out,
                   context const& ctx) {
  auto policy = ctx.policy();
  auto const end = statuses + static_cast<std::ptrdiff_t>(rows);
  auto const count = static_cast<std::size_t>(thrust::count_if(policy, statuses + static_cast<std::ptrdiff_t>(from), end, is_bad));
  out.skipped += count;
  std::size_t const keep = std::min(count, out.wanted());
  for (std::size_t at = from, kept = 0; kept < keep; ++at, ++kept) {
    at = static_cast<std::size_t>(thrust::find_if(policy, statuses + static_cast<std::ptrdiff_t>(at), end, is_bad) - statuses);
    out.skip(describe(at));
  }
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::job
