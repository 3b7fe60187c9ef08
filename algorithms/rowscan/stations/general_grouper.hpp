// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/general_grouper.hpp: the general path, for any block: the first one, one with new
// stations or bad lines, or one beyond the fast path's station count.
//
//   per piece of the block (a quarter, at least 1 MiB, cut after a '\n'):
//   find_lines -> transform(parse_record) -> find_if(is_bad_line)
//     a bad line: stop there, or with skip_invalid count_if + find_if the first few, remove_if them all
//   -> group_by_name (group.hpp) -> table_from_groups -> merge_tables into the block's table
//   then the block's table -> merge_tables into the running table (once a block: a merge costs both
//   tables' rows, and the running table may hold a million stations)
//
// It is exact for any key width, finds the first bad line and says where and why. Pieces keep its
// per-line arrays (about 30 bytes a line) within the fast path's memory; out of memory, only the
// piece is tried again in halves, since the pieces before it are already merged.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/job/tally.hpp"
#include "rowscan/stations/observer.hpp"
#include "rowscan/stations/parse.hpp"
#include "rowscan/stations/table.hpp"

#include <cstddef>
#include <cstdint>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

/// The longest line the reader carries from one block to the next (with its '\n'). Every longer line is
/// invalid (the longest valid one has max_line_bytes), but it is never skipped: it stops the run with
/// its error even with skip_invalid, wherever it lies, so that every chunk size gives the same outcome.
constexpr std::size_t carried_line_bytes = 4096;

class general_grouper {
 public:
  /// key_mask keeps the name-hash bits used as keys (tests use fewer); skip_invalid: leave bad lines
  /// out and count them instead of stopping at the first. observer may be nullptr.
  general_grouper(context const& ctx, std::uint64_t key_mask, bool skip_invalid, block_observer* observer = nullptr);

  /// Folds the lines of text[0, size) (device memory, whole lines) into running; returns their tally
  /// (positions relative to text). Out of memory, a piece is folded again in halves here; if those
  /// fail too, job::out_of_memory_twice names the piece. std::bad_alloc leaves only while the pieces
  /// are cut or while the block's table is merged into running, and running is then unchanged.
  job::tally fold(char const* text, std::size_t size, station_table& running);

  /// fold into an empty `running`, but the lines of stations that `known` has fold into known's rows
  /// where they are (fold_known_rows), and only the others' names are copied into running. known_keys is
  /// known's key_directory (made since known last merged). A piece's rows fold into known once the piece
  /// has merged, so std::bad_alloc leaves known as it was for the piece that ran out of memory; running
  /// starts empty, so its final merge cannot fail.
  job::tally fold_new(char const* text, std::size_t size, station_table& known, key_directory const& known_keys,
                      station_table& running);

 private:
  /// A table whose stations fold where they are, and its key directory.
  struct known_table {
    station_table& table;
    key_directory const& directory;
  };
  job::tally fold_pieces(char const* text, std::size_t size, known_table const* known, station_table& running);
  job::tally fold_piece(char const* text, std::size_t size, known_table const* known, station_table& block);
  job::bad_line describe(char const* text, std::size_t row) const;
  std::size_t drop_bad_rows(char const* text, std::size_t first_bad, job::tally& out);

  context ctx_;
  std::uint64_t key_mask_;
  bool skip_invalid_;
  block_observer* observer_;
  parsed_records parsed_;  // the columns of the piece at hand, kept across pieces
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
