// SPDX-License-Identifier: Apache-2.0
// --explain's view of find_lines (rowscan/explain/lines.hpp): the library's own functors, their
// outputs stored and copied to the host.
#include "rowscan/explain/lines.hpp"

#include "rowscan/chunk_by.hpp"
#include "rowscan/lines.hpp"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

namespace rowscan::explain {
ROWSCAN_SYSTEM_BEGIN

line_scan explain_lines(char const* text, std::size_t size, thrust::device_vector<record_range> const& records,
                        context const& ctx) {
  line_scan out;
  // chunk_by's adjacent transform: position i starts a record if i == 0 or text[i - 1] == '\n'.
  thrust::device_vector<std::uint8_t> starts(size);
  auto const positions = thrust::counting_iterator<std::uint32_t>(0);
  thrust::transform(ctx.policy(), positions, positions + static_cast<std::ptrdiff_t>(size), starts.begin(),
                    starts_chunk<char const*, same_line, std::uint32_t>{text, same_line{}});
  out.starts_record = to_host(starts);

  // The scan find_lines runs, its input and output stored.
  std::size_t const n = word_count(text, size);
  thrust::device_vector<line_interval> own(n);
  thrust::device_vector<line_interval> scanned(n);
  scan_line_intervals(text, size, thrust::raw_pointer_cast(own.data()), thrust::raw_pointer_cast(scanned.data()), ctx);
  std::vector<line_interval> const host_own = to_host(own);
  std::vector<line_interval> const host_scanned = to_host(scanned);
  text_words const words(text, static_cast<std::uint32_t>(size));
  for (std::size_t w = 0; w < n; ++w) {
    out.words.push_back({words.first_position(static_cast<std::uint32_t>(w)),
                         {host_own[w].lines, host_own[w].start},
                         {host_scanned[w].lines, host_scanned[w].start}});
  }

  for (record_range const& r : to_host(records)) out.records.push_back({r.begin, r.end});
  return out;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::explain
