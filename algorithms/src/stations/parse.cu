// SPDX-License-Identifier: Apache-2.0
// The general path's parse (rowscan/stations/parse.hpp): records, four columns, the first bad line.
#include "rowscan/stations/parse.hpp"

#include "rowscan/error.hpp"
#include "rowscan/read_back.hpp"

#include <thrust/find.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/transform.h>

#include <algorithm>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN
namespace {

/// Bytes of a bad line copied back to the host to say what is wrong: parse_line decides within the
/// first max_line_bytes + 1 bytes, and a longer prefix fails the same way as the whole line.
constexpr std::uint32_t error_prefix_bytes = 128;

}  // namespace

job::bad_line describe_bad_line(char const* text, record_range r, std::uint64_t line_index, context const& ctx) {
  std::uint32_t const copied = std::min(r.size(), error_prefix_bytes);
  std::string bytes(copied, '\0');
  copy_to_host(text + r.begin, copied, bytes.data(), ctx);
  std::uint32_t size = copied;
  if (size == r.size() && size > 0 && bytes[size - 1] == '\n') --size;
  parsed_line const p = parse_line(bytes.data(), size);
  ROWSCAN_EXPECTS(p.status != line_status::ok, "the device flagged line " + std::to_string(line_index + 1) +
                                                   " of a block as bad, but it parses on the host");
  return job::bad_line_at(line_index, r.begin, p.error_at, describe(p.status), bytes.substr(0, size), copied < r.size());
}

// [docs:general-parse]
std::size_t parse_records(char const* text, std::size_t size, std::uint64_t key_mask, parsed_records& out,
                          context const& ctx) {
  auto policy = ctx.policy();
  find_lines(text, size, out.records, ctx);
  std::size_t const rows = out.records.size();
  ctx.resize(out.keys, rows);
  ctx.resize(out.tenths, rows);
  ctx.resize(out.name_sizes, rows);
  ctx.resize(out.statuses, rows);
  thrust::transform(policy, out.records.begin(), out.records.end(),
                    thrust::make_zip_iterator(thrust::make_tuple(out.keys.begin(), out.tenths.begin(),
                                                                 out.name_sizes.begin(), out.statuses.begin())),
                    parse_record{text, key_mask});
  auto const bad = thrust::find_if(policy, out.statuses.begin(), out.statuses.end(), is_bad_line{});
  return static_cast<std::size_t>(bad - out.statuses.begin());
}
// [docs:end]

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
