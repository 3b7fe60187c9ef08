// rowscan/bad_rows.hpp: the bad rows of a chunk, for --skip-invalid: how many, and where the first few are.
//
//   count_if(is_bad) -> find_if(is_bad) from after the last one found, at most `wanted` times
//
// Only chunks that hold a bad row get here, and `wanted` falls to zero once the run has kept its
// first skipped_lines::kept positions, so a run pays one count_if per such chunk after that. Each
// workload then drops the bad rows from its columns with remove_if (the statuses as the stencil).
#pragma once

#include "rowscan/context.hpp"

#include <thrust/count.h>
#include <thrust/find.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace rowscan {

struct bad_rows {
  std::size_t count = 0;           ///< bad rows in the range
  std::vector<std::size_t> first;  ///< the first min(count, wanted) of them, ascending
};

/// The bad rows among statuses[from, rows): is_bad(status) says which. from is usually the first bad row.
template <class StatusIt, class IsBad>
bad_rows find_bad_rows(StatusIt statuses, std::size_t from, std::size_t rows, IsBad is_bad, std::size_t wanted,
                       context const& ctx) {
  auto policy = ctx.policy();
  auto const end = statuses + static_cast<std::ptrdiff_t>(rows);
  bad_rows out;
  out.count = static_cast<std::size_t>(thrust::count_if(policy, statuses + static_cast<std::ptrdiff_t>(from), end, is_bad));
  std::size_t const keep = std::min(out.count, wanted);
  for (std::size_t at = from; out.first.size() < keep; ++at) {
    at = static_cast<std::size_t>(thrust::find_if(policy, statuses + static_cast<std::ptrdiff_t>(at), end, is_bad) - statuses);
    out.first.push_back(at);
  }
  return out;
}

}  // namespace rowscan
