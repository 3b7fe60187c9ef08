// SPDX-License-Identifier: Apache-2.0
// rowscan/bad_rows.hpp: the bad rows of a chunk, for --skip-invalid: how many, and the first few worded.
//
//   count_if(is_bad) -> find_if(is_bad) from after the last one found, at most `wanted` times
//
// Only chunks that hold a bad row get here, and `wanted` falls to zero once the run has kept its
// first skipped_lines::kept positions, so a run pays one count_if per such chunk after that. Each
// workload then drops the bad rows from its columns with remove_if (the statuses as the stencil).
#pragma once

#include "rowscan/context.hpp"
#include "rowscan/skipped_lines.hpp"

#include <thrust/count.h>
#include <thrust/find.h>

#include <algorithm>
#include <cstddef>

namespace rowscan {

/// The bad rows among statuses[from, rows) (is_bad(status) says which; from is usually the first bad
/// row): all of them counted, the first min(count, wanted) worded by describe(row), an input_error.
template <class StatusIt, class IsBad, class Describe>
skipped_lines skipped_rows(StatusIt statuses, std::size_t from, std::size_t rows, IsBad is_bad, std::size_t wanted,
                           Describe describe, context const& ctx) {
  auto policy = ctx.policy();
  auto const end = statuses + static_cast<std::ptrdiff_t>(rows);
  skipped_lines out;
  auto const count = static_cast<std::size_t>(thrust::count_if(policy, statuses + static_cast<std::ptrdiff_t>(from), end, is_bad));
  out.count_more(count);
  std::size_t const keep = std::min(count, wanted);
  for (std::size_t at = from, kept = 0; kept < keep; ++at, ++kept) {
    at = static_cast<std::size_t>(thrust::find_if(policy, statuses + static_cast<std::ptrdiff_t>(at), end, is_bad) - statuses);
    out.keep(describe(at));
  }
  return out;
}

}  // namespace rowscan
