// SPDX-License-Identifier: Apache-2.0
// The general path (rowscan/stations/general_grouper.hpp): parse, check, group by name, merge.
#include "rowscan/stations/general_grouper.hpp"

#include "rowscan/error.hpp"
#include "rowscan/job/out_of_memory.hpp"
#include "rowscan/job/skipped_rows.hpp"
#include "rowscan/raw.hpp"
#include "rowscan/read_back.hpp"
#include "rowscan/records.hpp"
#include "rowscan/stage.hpp"
#include "rowscan/stations/group.hpp"

#include <thrust/find.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/remove.h>

#include <algorithm>
#include <vector>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN
namespace {

/// On a GPU the general path works on pieces of at most this share of a block, so its per-line arrays
/// (about 30 bytes a line) stay within the fast path's memory. A host worker's fast path stores no
/// per-line arrays, and its blocks are small (a few MiB): it groups the block whole, because each piece's
/// table is merged into the block's, and with a million stations nearly every line is a station of its
/// own in a block, so those merges cost a fifth of the run (docs/stations.md, "A million stations").
/// Either way the arrays are within memory_bound.hpp's 14 C, which counts a whole block's lines.
#if ROWSCAN_HAS_CUB
constexpr std::size_t pieces_per_block = 4;
#else
constexpr std::size_t pieces_per_block = 1;
#endif
constexpr std::size_t min_piece = std::size_t{1} << 20;

}  // namespace

general_grouper::general_grouper(context const& ctx, std::uint64_t key_mask, bool skip_invalid,
                                 block_observer* observer)
    : ctx_(ctx), key_mask_(key_mask), skip_invalid_(skip_invalid), observer_(observer) {}

job::tally general_grouper::fold(char const* text, std::size_t size, station_table& running) {
  return fold_pieces(text, size, nullptr, running);
}

job::tally general_grouper::fold_new(char const* text, std::size_t size, station_table& known,
                                     key_directory const& known_keys, station_table& running) {
  ROWSCAN_EXPECTS(known_keys.rows == known.size(), "a key directory made for another table");
  known_table const k{known, known_keys};
  return fold_pieces(text, size, &k, running);
}

job::tally general_grouper::fold_pieces(char const* text, std::size_t size, known_table const* known,
                                        station_table& running) {
  stage_scope stage(ctx_, "general path");
  // The pieces are all cut before the first one is merged, so that running out of memory here leaves no trace.
  std::size_t const piece = std::max(size / pieces_per_block, min_piece);
  std::vector<std::size_t> ends;
  for (std::size_t begin = 0; begin < size; begin = ends.back()) {
    ends.push_back(begin + piece >= size ? size : line_start_after(text, begin + piece, size, ctx_));
  }
  // The pieces' stations gather in a table of the block's own, merged into the running table once: a
  // merge is linear in both tables, so a piece merged straight into a running table of a million
  // stations cost that million, four times a block (docs/stations.md, "A million stations").
  station_table block;
  job::tally out;
  std::size_t begin = 0;
  for (std::size_t const end : ends) {
    // Each piece is merged on its own: out of memory, only the piece is tried again in halves.
    char const* piece_text = text + begin;
    auto split_after = [&](std::size_t middle) { return line_start_after(piece_text, middle, end - begin, ctx_); };
    auto fold_part = [&](std::size_t b, std::size_t e) {
      job::tally t = fold_piece(piece_text + b, e - b, known, block);
      t.bytes = e - b;
      return t;
    };
    out = merge(std::move(out), job::in_halves_if_out_of_memory(end - begin, split_after, fold_part, begin));
    if (out.stop) break;
    begin = end;
  }
  // Out of memory here, the running table is as it was and the block left no trace: its halves may run.
  merge_into(running, std::move(block), ctx_);
  if (observer_ != nullptr) observer_->merged(running, ctx_);
  return out;
}

// [docs:general-group]
job::tally general_grouper::fold_piece(char const* text, std::size_t size, known_table const* known,
                                       station_table& block) {
  std::size_t const bad = parse_records(text, size, key_mask_, parsed_, ctx_);
  if (observer_ != nullptr) observer_->parsed(text, size, parsed_, ctx_);
  job::tally out;  // merged by the caller only once the piece is merged: out of memory, its halves count again
  out.lines = parsed_.records.size();
  if (bad < out.lines) {
    if (!skip_invalid_) {
      out.stop = describe(text, bad);
      return out;
    }
    if (drop_bad_rows(text, bad, out) == 0 || out.stop) return out;  // nothing left to group, or a line too long
  }
  record_names names{text, raw(parsed_.records), raw(parsed_.name_sizes)};
  auto readings = thrust::make_transform_iterator(parsed_.tenths.begin(), reading_stats{});
  groups g = group_by_name(parsed_.keys, names, readings, ctx_);
  if (observer_ != nullptr) observer_->grouped(parsed_.keys, g, ctx_);
  if (known != nullptr && known->table.size() > 0 && g.keys.size() > 0) {
    // The stations that `known` has fold into its rows, and only the others' names are copied: at a
    // million stations most of a block's stations are known, and copying their names was a tenth of the
    // run (docs/stations.md, "A million stations"). known changes only once the piece has merged.
    representative_names<record_names> const group_names{names, thrust::raw_pointer_cast(g.representative.data())};
    known_rows const k = find_known(known->table, known->directory, g.keys, group_names, text + size, ctx_);
    if (k.fresh < g.keys.size()) {
      merge_into(block, table_from_groups(fresh_groups(g, k, ctx_), names, ctx_), ctx_);
      fold_known_rows(known->table, g.stats, k, ctx_);
      return out;
    }
  }
  merge_into(block, table_from_groups(std::move(g), names, ctx_), ctx_);
  return out;
}
// [docs:end]

job::bad_line general_grouper::describe(char const* text, std::size_t row) const {
  return describe_bad_line(text, read_back(parsed_.records, row, ctx_), row, ctx_);
}

/// Counts and words the bad rows from first_bad on (a line too long to skip stops the run instead),
/// then remove_if(zip of the row columns, stencil: the statuses) keeps the good rows, in order.
std::size_t general_grouper::drop_bad_rows(char const* text, std::size_t first_bad, job::tally& out) {
  auto policy = ctx_.policy();
  auto& records = parsed_.records;
  std::size_t const rows = records.size();
  auto const overlong = thrust::find_if(policy, records.begin() + static_cast<std::ptrdiff_t>(first_bad), records.end(),
                                        line_longer_than{static_cast<std::uint32_t>(carried_line_bytes)});
  if (overlong != records.end()) {
    out.stop = describe(text, static_cast<std::size_t>(overlong - records.begin()));
    return 0;
  }
  job::skip_bad_rows(parsed_.statuses.begin(), first_bad, rows, is_bad_line{},
                     [&](std::size_t row) { return describe(text, row); }, out, ctx_);
  auto columns = thrust::make_zip_iterator(
      thrust::make_tuple(records.begin(), parsed_.keys.begin(), parsed_.tenths.begin(), parsed_.name_sizes.begin()));
  auto const end = columns + static_cast<std::ptrdiff_t>(rows);
  auto const kept = static_cast<std::size_t>(
      thrust::remove_if(policy, columns, end, parsed_.statuses.begin(), is_bad_line{}) - columns);
  records.resize(kept);
  parsed_.keys.resize(kept);
  parsed_.tenths.resize(kept);
  parsed_.name_sizes.resize(kept);
  return kept;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
