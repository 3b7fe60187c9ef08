// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/one_pass.hpp: a block's answer in one pass over its text, when every row is valid.
//
//   counting(stretches of S bytes) -> transform(sum_rows_starting_in<K>) -> reduce(one_pass_plus<K>)
//
// Thread s owns the rows that start in bytes [S s, S s + S) (S = 512 on a GPU): it finds the first '\n'
// from byte S s - 1 on (a row starts after it), walks each of its rows to its '\n' (row_walk.hpp: usually past
// its own stretch), parses the three fields and adds the row to K thresholds' sums, all in registers.
// Nothing is stored: no records, no columns, no statuses. No row is missed or counted twice, because a
// row belongs to the stretch of its first byte.
//
// The pass also counts the rows it could not take: a bad one, or one longer than one_pass_row_limit.
// A block with any goes to the step-by-step composition (worker.hpp) instead, which stores the records
// and columns, says which row is wrong and where, or skips it, and answers the same sums; the one pass
// leaves nothing behind, so nothing of it needs undoing.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/config.hpp"
#include "rowscan/context.hpp"
#include "rowscan/lineitem/query.hpp"
#include "rowscan/lineitem/row_walk.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN

/// Bytes of text per element of the pass. On a GPU 512, about four dbgen rows (95 to 153 bytes, 127 on
/// average) a thread: its rows' walks even out, and it looks for its first row once per four; longer
/// stretches leave too few threads for a block (BM_one_pass, docs/data/lineitem_one_pass_stretch-h100.csv;
/// docs/gpu-profile.md). A host worker is one thread that takes the stretches in turn, and there a
/// stretch of 64 KiB looks for its first row once per 64 KiB, which measured faster (docs/lineitem.md).
constexpr std::uint32_t one_pass_stretch_bytes = ROWSCAN_HAS_CUB ? 512 : 65536;
/// The longest row the pass walks. dbgen's rows are at most 153 bytes; a longer row (a long comment,
/// or no '\n' where one belongs) sends its block to the step-by-step composition.
constexpr std::uint32_t one_pass_row_limit = 1024;

/// What the pass gives: the query's sums over the rows it took, how many it took, and how many it could
/// not (bad or too long).
template <int K>
struct one_pass_sums {
  threshold_sums<K> sums;
  std::uint64_t rows;
  std::uint64_t untaken;
};

/// Elementwise addition: associative and commutative, as the reduce requires.
template <int K>
struct one_pass_plus {
  ROWSCAN_HD one_pass_sums<K> operator()(one_pass_sums<K> const& a, one_pass_sums<K> const& b) const {
    return {threshold_sums_plus<K>{}(a.sums, b.sums), a.rows + b.rows, a.untaken + b.untaken};
  }
};

/// The sums of the rows that start in stretch s of text[0, size) (see the header comment).
template <int K>
struct sum_rows_starting_in {
  char const* text;
  std::uint32_t size;
  std::uint32_t stretch_bytes;
  below_thresholds<K> query;

  ROWSCAN_HD one_pass_sums<K> operator()(std::uint32_t s) const {
    one_pass_sums<K> out{};
    std::uint64_t const first = std::uint64_t{s} * stretch_bytes;
    auto const end = static_cast<std::uint32_t>(first + stretch_bytes < size ? first + stretch_bytes : size);
    // The first row of the stretch starts after the first '\n' from the byte before it on (at 0, at 0).
    std::uint32_t begin = s == 0 ? 0 : next_newline(text, static_cast<std::uint32_t>(first) - 1, end - 1) + 1;
    while (begin < end) {
      row_walk const walk = walk_row(text, begin, size, one_pass_row_limit);
      ++out.rows;
      if (!walk.ended) {  // longer than the limit: where the next row starts is unknown
        ++out.untaken;
        break;
      }
      parsed_row const row = walk.parse(text + begin);
      if (row.status == row_status::ok) {
        out.sums =
            threshold_sums_plus<K>{}(out.sums, query(thrust::make_tuple(row.suppkey, row.quantity, row.price_cents)));
      } else {
        ++out.untaken;
      }
      begin += walk.size + 1;  // past the '\n' (past the end for a last row without one)
    }
    return out;
  }
};

/// A block's answer from the pass: the sums for each threshold, in the order given, and its row count.
struct one_pass_result {
  std::vector<threshold_result> sums;
  std::uint64_t rows = 0;
};

/// The block's answer from one pass over text[0, size) (device memory, followed by walk_padding_bytes);
/// nothing if a row was bad or too long, or there are more than max_thresholds thresholds (then the
/// step-by-step composition answers). stretch_bytes: one_pass_stretch_bytes, or another size for the tests.
std::optional<one_pass_result> sums_in_one_pass(char const* text, std::size_t size,
                                                std::vector<std::uint64_t> const& thresholds, context const& ctx,
                                                std::uint32_t stretch_bytes = one_pass_stretch_bytes);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
