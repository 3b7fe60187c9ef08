// SPDX-License-Identifier: Apache-2.0
// The fast path's lines read a stretch of text a thread (rowscan/stations/lines_by_stretch.hpp).
#include "rowscan/stations/lines_by_stretch.hpp"

#include "rowscan/lines.hpp"
#include "rowscan/raw.hpp"
#include "rowscan/read_back.hpp"

#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_scan.h>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

std::size_t read_lines_by_stretch(char const* text, std::size_t size, dictionary_view const& dictionary,
                                  std::uint32_t stretch_bytes, thrust::device_vector<std::uint32_t>& first_rows,
                                  station_id* ids, std::int16_t* tenths, std::size_t capacity, context const& ctx) {
  detail::check_text_size(size);
  auto const n = static_cast<std::uint32_t>(size);
  std::uint32_t const stretches = stretches_in(n, stretch_bytes);
  ctx.grow(first_rows, std::size_t{stretches} + 1);
  thrust::counting_iterator<std::uint32_t> const stretch(0);
  // One more stretch than the text has, of no lines: its exclusive sum is the block's line count.
  thrust::transform_exclusive_scan(ctx.policy(), stretch, stretch + stretches + 1, first_rows.begin(),
                                   count_line_starts{text, n, stretch_bytes}, std::uint32_t{0},
                                   thrust::plus<std::uint32_t>{});
  std::size_t const lines = read_back(first_rows, stretches, ctx);
  if (lines <= capacity) {
    thrust::for_each(ctx.policy(), stretch, stretch + stretches,
                     read_lines_starting_in{text, n, stretch_bytes, dictionary, raw(first_rows), ids, tenths});
  }
  return lines;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
