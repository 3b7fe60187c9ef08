// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/worker.hpp: the stations block composition, as the job driver sees it.
//
// On the GPU:
//   block -> path_policy: dictionary usable and not backing off?
//            yes: fast_reducer.fold(block, dictionary)    every station known: merged, done
//            no, or a new station / bad line: general_grouper.fold(block) -> the table changed:
//                                                          the dictionary is rebuilt before the next fast block
// On the host systems (one thread a worker; fold_in_order):
//   block -> fast_reducer.fold_known_lines up to the first unknown line
//         -> the stations the run's other workers learned since (shared_stations)    -> again, or
//         -> general_grouper.fold(a piece from there: 64 KiB, then twice as much each time) -> again
// and past max_dictionary_size stations, up to wide_fold_up_to_stations (fold_wide), with 32-bit ids:
//   block -> fast_reducer.fold_unknown_aside: known lines folded, valid unknown ones set aside
//         -> a block's worth set aside (or partial()): general_grouper.fold(them) into a table of
//            their own among the pending tables, which join the table (merge_all; the dictionary is
//            rebuilt) once the lines folded into them number half of the stations and their rows
//         -> a bad line: general_grouper.fold(a piece from there) reports it or takes it -> again
// and past wide_fold_up_to_stations (and on the GPU past max_dictionary_size):
//   block -> general_grouper.fold(block) into a table of its own among the pending tables, which join
//            the table (merge_all) once their rows number half of its stations (an eighth on the host)
//
// The worker's partial answer is its station table (table.hpp): every station of the blocks it folded,
// in key order. Two partial answers merge with merge_tables, the same sort_by_key + reduce_by_key
// grouping as a block's records: associative and commutative, so workers may fold any blocks.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/job/block_worker.hpp"
#include "rowscan/stations/dictionary.hpp"
#include "rowscan/stations/fast_reducer.hpp"
#include "rowscan/stations/general_grouper.hpp"
#include "rowscan/stations/observer.hpp"
#include "rowscan/stations/path_policy.hpp"
#include "rowscan/stations/shared_stations.hpp"
#include "rowscan/stations/table.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

/// The host systems' first piece for the general path in a block (worker::fold_in_order): about 4,000
/// lines, enough to meet all of the official 413 stations.
constexpr std::size_t first_learning_piece = std::size_t{64} << 10;

/// Whether a learning piece of `lines` lines that added `new_stations` stations to the table brought
/// nearly all new ones (15 in 16 or more): then the general path takes the rest of the block at once
/// (worker::fold_in_order).
constexpr bool nearly_all_new_stations(std::size_t new_stations, std::size_t lines) {
  return lines > 0 && 16 * new_stations >= 15 * lines;
}

/// The host systems' workers fold by 32-bit ids (worker::fold_wide) while their table holds more than
/// max_dictionary_size stations and at most this many; past it every block takes the general path. On 1e7
/// rows the wide fold took 0.8 times the general path's CPU time at 65,536 and 120,000 stations, about
/// as much at 300,000, and 1.1 to 1.4 times it at 1,000,000, where each worker learns each station from
/// one of its five lines, rebuilds a dictionary of up to a million stations four times, and each lookup
/// waits on memory (docs/stations.md, "A million stations").
constexpr std::size_t wide_fold_up_to_stations = max_wide_fold_stations;

/// Readable bytes a block's text needs after its end: the fast path reads names with aligned 8-byte loads.
constexpr std::size_t text_padding_bytes = 16;

struct worker_options {
  std::uint64_t key_mask = ~std::uint64_t{0};  ///< the name-hash bits used as keys (tests use fewer)
  bool portable_only = false;                   ///< skip the CUB fast paths (to test the portable ones on a GPU)
  bool skip_invalid = false;                    ///< leave bad lines out instead of stopping at the first
  /// The host systems' workers of one run share the stations they learn here (nullptr: each learns its
  /// own). The GPU's fold does not use it.
  shared_stations* shared = nullptr;
};

class worker final : public job::block_worker {
 public:
  /// observer: told each stage's arrays (--explain); nullptr for none.
  worker(context const& ctx, worker_options const& options, block_observer* observer = nullptr);

  job::tally fold(char const* text, std::size_t size) override;
  job::bad_line overlong_line(std::string_view prefix) const override;
  /// The station table's share (memory_bound.hpp) against the block's: when the table's is larger, no
  /// smaller chunk helps, and the advice says so.
  std::string out_of_memory_advice(std::size_t chunk_size) const override;

  /// The partial answer: every station of the blocks folded so far, in key order. Merges the stations
  /// still pending first (may throw std::bad_alloc).
  station_table const& partial();
  /// The partial answer in parts, none merged: returns the table and appends to `pending` the tables of
  /// general blocks that partial() would merge into it. Folds the lines set aside first (may throw
  /// std::bad_alloc). The answer's stage merges every worker's parts at once (merge_all), and may fold
  /// other parts' stations into the table's rows: the worker folds no block after it.
  station_table& unmerged_parts(std::vector<station_table const*>& pending);
  /// Starts from a partial answer instead of an empty table (its stations become the dictionary).
  void start_from(station_table table);

  path_policy const& paths() const { return paths_; }

 private:
#if !ROWSCAN_HAS_CUB
  /// The host systems' fold (one thread, lines in order): the fast reducer takes the known lines, and
  /// each line it does not know starts a piece for the general path, which learns the piece's stations;
  /// then the fast reducer goes on after it. Pieces start small and double within a block, so a worker
  /// learns from a few KiB rather than a whole block, and a block that keeps meeting new stations
  /// rebuilds its dictionary only a few times.
  job::tally fold_in_order(char const* text, std::size_t size);
  /// fold_in_order past max_dictionary_size stations: the fast reducer folds the lines of known stations
  /// by 32-bit ids and sets the others aside, and the general path folds those set aside into pending_
  /// (docs/stations.md, "A million stations").
  job::tally fold_wide(char const* text, std::size_t size);
  /// Whether the next block is fold_wide's: the table is over max_dictionary_size stations and at most
  /// wide_fold_up_to_stations.
  bool wide_fold() const { return station_dictionary::over_limit(table_) && table_.size() <= wide_fold_up_to_stations; }
  /// fold_general of the lines set aside by the fast reducer (valid lines, none reported), which then
  /// holds none.
  void fold_set_aside(std::size_t block_size);
#endif
  /// Whether pending_ should join the table now: once its rows number half the table's stations (the
  /// GPU's, where every block is general) or an eighth of them (the host systems' past the 32-bit fold),
  /// or in the host systems' 32-bit fold, whose fast path knows only the table's stations, once the lines
  /// folded into it number half of the stations and its rows.
  bool pending_due() const;

  /// The general path's fold of a block: into the table, or, once the table is over the fast path's
  /// limit, into a table of the block's own kept in pending_; pending_'s tables join the table together
  /// (merge_all: one sort of their rows, one grouping): a merge costs both tables' rows, so a table of a
  /// million stations is merged with every few blocks' stations at once rather than with each block's,
  /// and no block's stations are merged again and again into a growing pending table
  /// (docs/stations.md, "A million stations").
  job::tally fold_general(char const* text, std::size_t size);
  /// Merges pending_'s tables into the table (std::bad_alloc leaves them as they were).
  void merge_pending();
  /// Gives the pool's cached blocks back once the table or pending_'s rows have grown past a power of two it had
  /// not reached, so into larger size classes; not after every general block.
  void release_outgrown_classes();

  context ctx_;
  bool explained_;  // an observer watches (--explain): the GPU's composition, whose arrays it shows
#if !ROWSCAN_HAS_CUB
  /// Takes the stations the run's other workers learned since the last take; true if the table grew.
  bool take_shared_stations();

  shared_stations* shared_;
  std::uint64_t shared_seen_ = 0;  // the version of shared_ last taken
#endif
  station_table table_;
  /// Tables of general blocks not yet in table_ (only while it is over the limit), each in key order
  std::vector<station_table> pending_;
  std::size_t pending_rows_ = 0;   ///< the rows of pending_'s tables (a station may have one in several)
  std::size_t pending_lines_ = 0;  ///< lines folded into pending_ since it last joined table_
  std::size_t released_at_ = 0;    ///< the largest power of two the stations reached when the pool was released
  /// table_'s key directory for fold_new's searches, made again once table_ has merged
  key_directory known_keys_;
  bool known_keys_stale_ = true;
  station_dictionary dictionary_;
#if !ROWSCAN_HAS_CUB
  wide_station_dictionary wide_dictionary_;  ///< the table's, past max_dictionary_size stations
  /// fold_wide: lines of stations the dictionary did not know, not yet folded (up to a block's worth)
  std::string set_aside_;
#endif
  fast_reducer fast_;
  general_grouper general_;
  path_policy paths_;
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
