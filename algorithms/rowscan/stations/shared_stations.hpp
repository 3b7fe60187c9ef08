// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/shared_stations.hpp: the stations a run's host workers have learned, shared between
// them, so that a station one worker learned need not be learned by every other.
//
// A host worker learns a station when its fold meets a line the dictionary does not know: the general
// path folds a piece of the block from there (worker::fold_in_order), and the dictionary is rebuilt.
// With W workers each learned every station itself, so at 10,000 stations learning cost every worker
// the same time however many workers shared the input (docs/performance.md, "The host engine"). Now:
//
//   worker meets an unknown line -> take_into: the stations the others offered since its last take,
//                                   merged into its table with no readings  -> the fast path again
//                                -> else the general path folds a piece     -> offer: its table's
//                                   stations added to those shared
//
// The shared table holds names and keys only: its rows are the empty summary, so merging it adds no
// reading, and every station in it was met in a line that some worker of the run folds. A worker's table
// may therefore hold a station with no readings yet; the workers' tables together give it its count.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/stations/table.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

class shared_stations {
 public:
  /// Adds table's stations to those shared, without their readings. If another worker is adding its
  /// own just now, nothing is added and nothing waits: the caller offers again after its next piece.
  /// Never throws; out of memory, nothing is added.
  void offer(station_table const& table, context const& ctx);

  /// Merges into table the stations offered since the caller's last take (`seen`, the version it took
  /// then; 0 before the first), each with no readings. True if table gained a station. Throws
  /// std::bad_alloc with table unchanged.
  bool take_into(station_table& table, std::uint64_t& seen, context const& ctx);

  /// The stations shared so far.
  std::size_t size();

 private:
  std::mutex mutex_;
  /// Every station offered, each row the empty summary. Never changed once made: an offer makes a new
  /// one, so a take merges from the one it found without copying it, and the last holder frees it.
  std::shared_ptr<station_table const> held_ = std::make_shared<station_table const>();
  std::atomic<std::uint64_t> version_{0};  ///< offers that added a station
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
