// SPDX-License-Identifier: Apache-2.0
// The stations a run's host workers share (rowscan/stations/shared_stations.hpp).
#include "rowscan/stations/shared_stations.hpp"

#include "rowscan/stations/stats.hpp"

#include <thrust/fill.h>

#include <new>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

void shared_stations::offer(station_table const& table, context const& ctx) {
  std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock() || table.size() == 0) return;
  try {
    // merge_tables keeps every station of both; the readings it merged are then dropped.
    station_table merged = merge_tables(*held_, table, ctx);
    if (merged.size() == held_->size()) return;
    thrust::fill(ctx.policy(), merged.stats.begin(), merged.stats.end(), station_stats::identity());
    held_ = std::make_shared<station_table const>(std::move(merged));
    version_.fetch_add(1);
  } catch (std::bad_alloc const&) {
    // Sharing saves the others work; without it each learns its stations itself, as it can.
  }
}

bool shared_stations::take_into(station_table& table, std::uint64_t& seen, context const& ctx) {
  if (version_.load() == seen) return false;
  std::shared_ptr<station_table const> held;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    held = held_;  // merged from outside the lock; an offer meanwhile makes a new one
    seen = version_.load();
  }
  std::size_t const before = table.size();
  table = merge_tables(table, *held, ctx);
  return table.size() > before;
}

std::size_t shared_stations::size() {
  std::lock_guard<std::mutex> lock(mutex_);
  return held_->size();
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
