// SPDX-License-Identifier: Apache-2.0
// The key table's grouping (rowscan/group/table.hpp): sort by hash, check neighbours, reduce by key.
#include "rowscan/group/table.hpp"

#include "rowscan/read_back.hpp"

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/for_each.h>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

namespace rowscan::group {
ROWSCAN_SYSTEM_BEGIN
namespace {

/// Where the entries' keys are: compares two entries' bytes.
struct key_view {
  std::uint64_t const* hashes;
  std::uint64_t const* offsets;
  std::uint32_t const* sizes;
  char const* chars;

  ROWSCAN_HD bool same_bytes(std::uint32_t a, std::uint32_t b) const {
    if (sizes[a] != sizes[b]) return false;
    char const* x = chars + offsets[a];
    char const* y = chars + offsets[b];
    for (std::uint32_t i = 0; i < sizes[a]; ++i) {
      if (x[i] != y[i]) return false;
    }
    return true;
  }
  /// Bytes in order as unsigned char, a shorter prefix first.
  ROWSCAN_HD bool bytes_less(std::uint32_t a, std::uint32_t b) const {
    char const* x = chars + offsets[a];
    char const* y = chars + offsets[b];
    std::uint32_t const n = sizes[a] < sizes[b] ? sizes[a] : sizes[b];
    for (std::uint32_t i = 0; i < n; ++i) {
      auto const u = static_cast<unsigned char>(x[i]);
      auto const v = static_cast<unsigned char>(y[i]);
      if (u != v) return u < v;
    }
    return sizes[a] < sizes[b];
  }
};

key_view view_of(key_table const& t) {
  return {thrust::raw_pointer_cast(t.hashes.data()), thrust::raw_pointer_cast(t.offsets.data()),
          thrust::raw_pointer_cast(t.sizes.data()), thrust::raw_pointer_cast(t.chars.data())};
}

/// True where sorted neighbours i - 1 and i share a hash but not their bytes.
struct hash_shared_by_other_bytes {
  key_view keys;
  std::uint64_t const* sorted_hashes;
  std::uint32_t const* order;
  ROWSCAN_HD bool operator()(std::uint32_t i) const {
    return sorted_hashes[i] == sorted_hashes[i - 1] && !keys.same_bytes(order[i], order[i - 1]);
  }
};

/// The exact order: hash, then bytes.
struct by_hash_then_bytes {
  key_view keys;
  ROWSCAN_HD bool operator()(std::uint32_t a, std::uint32_t b) const {
    if (keys.hashes[a] != keys.hashes[b]) return keys.hashes[a] < keys.hashes[b];
    return keys.bytes_less(a, b);
  }
};

/// Two entries of one key: the same hash and the same bytes.
struct same_key {
  key_view keys;
  ROWSCAN_HD bool operator()(std::uint32_t a, std::uint32_t b) const {
    return keys.hashes[a] == keys.hashes[b] && keys.same_bytes(a, b);
  }
};

/// Copies entry from[g]'s key bytes to out + offsets[g].
struct copy_key_bytes {
  key_view from;
  std::uint32_t const* firsts;
  std::uint64_t const* offsets;
  char* out;
  ROWSCAN_HD void operator()(std::uint32_t g) const {
    std::uint32_t const e = firsts[g];
    char const* src = from.chars + from.offsets[e];
    for (std::uint32_t i = 0; i < from.sizes[e]; ++i) out[offsets[g] + i] = src[i];
  }
};

/// Multiplies a stats' figures by a power of ten.
struct times_power {
  __int128 factor;
  ROWSCAN_HD stats operator()(stats s) const {
    s.sum *= factor;
    s.min *= factor;
    s.max *= factor;
    return s;
  }
};

/// A key's size as a 64-bit offset.
struct widened {
  ROWSCAN_HD std::uint64_t operator()(std::uint32_t x) const { return x; }
};

/// Adds a constant to offsets (b's key bytes placed after a's).
struct shifted_by {
  std::uint64_t by;
  ROWSCAN_HD std::uint64_t operator()(std::uint64_t x) const { return x + by; }
};

}  // namespace

void lift_scale(thrust::device_vector<stats>& column, std::size_t from, std::size_t to, unsigned power,
                context const& ctx) {
  if (power == 0 || from == to) return;
  __int128 factor = 1;
  for (unsigned i = 0; i < power; ++i) factor *= 10;
  thrust::transform(ctx.policy(), column.begin() + static_cast<std::ptrdiff_t>(from),
                    column.begin() + static_cast<std::ptrdiff_t>(to),
                    column.begin() + static_cast<std::ptrdiff_t>(from), times_power{factor});
}

void concatenate(key_table const& a, std::vector<unsigned> const& a_scales, key_table const& b,
                 std::vector<unsigned> const& scales, key_table& out, context const& ctx) {
  std::size_t const n = a.size() + b.size();
  auto const policy = ctx.policy();
  ctx.resize(out.hashes, n);
  ctx.resize(out.offsets, n);
  ctx.resize(out.sizes, n);
  ctx.resize(out.chars, a.chars.size() + b.chars.size());
  auto const na = static_cast<std::ptrdiff_t>(a.size());
  thrust::copy(policy, a.hashes.begin(), a.hashes.end(), out.hashes.begin());
  thrust::copy(policy, b.hashes.begin(), b.hashes.end(), out.hashes.begin() + na);
  thrust::copy(policy, a.offsets.begin(), a.offsets.end(), out.offsets.begin());
  thrust::transform(policy, b.offsets.begin(), b.offsets.end(), out.offsets.begin() + na, shifted_by{a.chars.size()});
  thrust::copy(policy, a.sizes.begin(), a.sizes.end(), out.sizes.begin());
  thrust::copy(policy, b.sizes.begin(), b.sizes.end(), out.sizes.begin() + na);
  thrust::copy(policy, a.chars.begin(), a.chars.end(), out.chars.begin());
  thrust::copy(policy, b.chars.begin(), b.chars.end(), out.chars.begin() + static_cast<std::ptrdiff_t>(a.chars.size()));
  out.columns.resize(scales.size());
  for (std::size_t j = 0; j < scales.size(); ++j) {
    ctx.resize(out.columns[j], n);
    if (a.size() > 0) {
      thrust::copy(policy, a.columns[j].begin(), a.columns[j].end(), out.columns[j].begin());
      lift_scale(out.columns[j], 0, a.size(), scales[j] - a_scales[j], ctx);
    }
    thrust::copy(policy, b.columns[j].begin(), b.columns[j].end(), out.columns[j].begin() + na);
  }
}

void group_entries(key_table const& entries, key_table& out, grouping_scratch& scratch, bool* compared,
                   context const& ctx) {
  auto const policy = ctx.policy();
  std::size_t const n = entries.size();
  out.columns.resize(entries.columns.size());
  if (n == 0) {
    out.hashes.resize(0);
    out.offsets.resize(0);
    out.sizes.resize(0);
    out.chars.resize(0);
    for (auto& column : out.columns) column.resize(0);
    return;
  }
  key_view const keys = view_of(entries);

  auto& order = scratch.order;
  auto& sorted_hashes = scratch.sorted_hashes;
  ctx.resize(order, n);
  ctx.resize(sorted_hashes, n);
  thrust::sequence(policy, order.begin(), order.end());
  thrust::copy(policy, entries.hashes.begin(), entries.hashes.end(), sorted_hashes.begin());
  thrust::sort_by_key(policy, sorted_hashes.begin(), sorted_hashes.end(), order.begin());
  std::uint32_t const* const order_data = thrust::raw_pointer_cast(order.data());
  auto const shared =
      thrust::count_if(policy, thrust::counting_iterator<std::uint32_t>(1),
                       thrust::counting_iterator<std::uint32_t>(static_cast<std::uint32_t>(n)),
                       hash_shared_by_other_bytes{keys, thrust::raw_pointer_cast(sorted_hashes.data()), order_data});
  if (shared > 0) {
    thrust::sort(policy, order.begin(), order.end(), by_hash_then_bytes{keys});
    *compared = true;
  }

  // The reduce writes into scratch arrays that only grow, and the groups (far fewer than the entries
  // when keys repeat) are copied out: growing `out` back from the last block's groups to this block's
  // entries would first fill every new element with zeros, 64 bytes an entry per column.
  auto& firsts = scratch.firsts;
  ctx.grow(firsts, n);
  scratch.reduced.resize(entries.columns.size());
  std::size_t groups = 0;
  for (std::size_t j = 0; j < entries.columns.size(); ++j) {
    auto& reduced = scratch.reduced[j];
    ctx.grow(reduced, n);
    auto const values = thrust::make_permutation_iterator(entries.columns[j].begin(), order.begin());
    if (j == 0) {
      auto const ends = thrust::reduce_by_key(policy, order.begin(), order.end(), values, firsts.begin(),
                                              reduced.begin(), same_key{keys}, stats_plus{});
      groups = static_cast<std::size_t>(ends.first - firsts.begin());
    } else {
      thrust::reduce_by_key(policy, order.begin(), order.end(), values, thrust::make_discard_iterator(),
                            reduced.begin(), same_key{keys}, stats_plus{});
    }
    ctx.resize(out.columns[j], groups);
    thrust::copy(policy, reduced.begin(), reduced.begin() + static_cast<std::ptrdiff_t>(groups),
                 out.columns[j].begin());
  }
  auto const firsts_end = firsts.begin() + static_cast<std::ptrdiff_t>(groups);

  ctx.resize(out.hashes, groups);
  ctx.resize(out.sizes, groups);
  ctx.resize(out.offsets, groups);
  thrust::gather(policy, firsts.begin(), firsts_end, entries.hashes.begin(), out.hashes.begin());
  thrust::gather(policy, firsts.begin(), firsts_end, entries.sizes.begin(), out.sizes.begin());
  auto const wide_sizes = thrust::make_transform_iterator(out.sizes.begin(), widened{});
  thrust::exclusive_scan(policy, wide_sizes, wide_sizes + static_cast<std::ptrdiff_t>(groups), out.offsets.begin(),
                         std::uint64_t{0});
  std::uint64_t const last_offset = read_back(out.offsets, groups - 1, ctx);
  std::uint32_t const last_size = read_back(out.sizes, groups - 1, ctx);
  ctx.resize(out.chars, last_offset + last_size);
  thrust::for_each(
      policy, thrust::counting_iterator<std::uint32_t>(0),
      thrust::counting_iterator<std::uint32_t>(static_cast<std::uint32_t>(groups)),
      copy_key_bytes{keys, thrust::raw_pointer_cast(firsts.data()), thrust::raw_pointer_cast(out.offsets.data()),
                     thrust::raw_pointer_cast(out.chars.data())});
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::group
