// SPDX-License-Identifier: Apache-2.0
// rowscan/group/table.hpp: the key table (every key met, with each value column's exact stats) and the
// one grouping that builds it, for a block's records and for merging tables alike.
//
//   entries (key bytes, hash, stats per column) with repeated keys
//   -> sort_by_key(hash, entry)                    radix sort on the 64-bit hash of the key's bytes
//   -> count(adjacent entries: same hash, other bytes) > 0?  then sort(entry, by hash then bytes): exact
//   -> reduce_by_key(entry, stats, same key bytes, stats_plus)   once per value column
//   -> gather the first entry of each key: its hash and its bytes (exclusive_scan of sizes, then copies)
//
// After the sort every key's entries are next to each other: if no two neighbours share a hash but not
// their bytes, every run of equal hashes is one key; otherwise the comparison sort puts equal bytes
// together. The table is in hash order; the answer is put in byte order once, at the end.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/config.hpp"
#include "rowscan/context.hpp"

#include <thrust/device_vector.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rowscan::group {
ROWSCAN_SYSTEM_BEGIN

/// One value column's stats for one entry: integers at the column's scale (the table keeps the scale).
struct stats {
  std::uint64_t count;
  std::uint64_t missing;
  __int128 sum;
  __int128 min;  ///< meaningful when count > 0
  __int128 max;
};

/// The stats of two entries' values together: associative and commutative.
struct stats_plus {
  ROWSCAN_HD stats operator()(stats const& a, stats const& b) const {
    stats out;
    out.count = a.count + b.count;
    out.missing = a.missing + b.missing;
    out.sum = a.sum + b.sum;
    out.min = a.count == 0 ? b.min : b.count == 0 ? a.min : (a.min < b.min ? a.min : b.min);
    out.max = a.count == 0 ? b.max : b.count == 0 ? a.max : (a.max > b.max ? a.max : b.max);
    return out;
  }
};

/// 64-bit FNV-1a of bytes [p, p + n), masked (tests keep few bits to force shared hashes).
ROWSCAN_HD inline std::uint64_t key_hash(char const* p, std::uint32_t n, std::uint64_t mask) {
  std::uint64_t h = 14695981039346656037ull;
  for (std::uint32_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(p[i]);
    h *= 1099511628211ull;
  }
  return h & mask;
}

/// Keys and their stats: entry e has key bytes chars[offsets[e], offsets[e] + sizes[e]), hash
/// hashes[e], and columns[j][e] for each value column j.
struct key_table {
  thrust::device_vector<std::uint64_t> hashes;
  thrust::device_vector<std::uint64_t> offsets;
  thrust::device_vector<std::uint32_t> sizes;
  thrust::device_vector<char> chars;
  std::vector<thrust::device_vector<stats>> columns;

  std::size_t size() const { return hashes.size(); }
};

/// The arrays grouped() sorts and reduces with, kept between calls so that steady state does not
/// allocate (fresh arrays cost a page fault per page on the host).
struct grouping_scratch {
  thrust::device_vector<std::uint32_t> order;
  thrust::device_vector<std::uint64_t> sorted_hashes;
  thrust::device_vector<std::uint32_t> firsts;        // only grows: room for a group per entry
  std::vector<thrust::device_vector<stats>> reduced;  // per value column, only grows likewise
};

/// out = the entries of a followed by those of b, b's key bytes after a's. Each column of a is first
/// lifted from scale a_scales[j] to scales[j] (b is at scales already). out is neither a nor b; its
/// arrays keep their capacity.
void concatenate(key_table const& a, std::vector<unsigned> const& a_scales, key_table const& b,
                 std::vector<unsigned> const& scales, key_table& out, context const& ctx);

/// out = the table of `entries` with each key once, its stats combined (see the file's comment). Sets
/// *compared if two keys shared a hash and the exact fallback ran. out is not entries.
void group_entries(key_table const& entries, key_table& out, grouping_scratch& scratch, bool* compared,
                   context const& ctx);

/// Every stats of a column times 10^power (a scale raised by power).
void lift_scale(thrust::device_vector<stats>& column, std::size_t from, std::size_t to, unsigned power,
                context const& ctx);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::group
