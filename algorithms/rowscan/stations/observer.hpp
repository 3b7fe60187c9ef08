// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/observer.hpp: a window onto a stations block's stages, for --explain.
//
// The block composition (worker.hpp) calls these right after the library call that wrote each array,
// with the arrays still on the device. The default does nothing; explain.cu's observer copies them to
// the host, so that --explain prints what the real composition computed, not a re-enactment of it.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/stations/dense_ids.hpp"
#include "rowscan/stations/group.hpp"
#include "rowscan/stations/parse.hpp"
#include "rowscan/stations/stats.hpp"
#include "rowscan/stations/table.hpp"

#include <thrust/device_vector.h>

#include <cstddef>
#include <cstdint>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

class block_observer {
 public:
  virtual ~block_observer() = default;

  // The general path (general_grouper.hpp), per piece of a block.
  /// find_lines -> transform(parse_record): the records and their four columns.
  virtual void parsed(char const* /*text*/, std::size_t /*size*/, parsed_records const&, context const&) {}
  /// group_by_name: the keys as sorted in place, and the groups.
  virtual void grouped(thrust::device_vector<std::uint64_t> const& /*sorted_keys*/, groups const&, context const&) {}
  /// Once a block: the running table after merging the block's table into it.
  virtual void merged(station_table const& /*running*/, context const&) {}

  // The fast path (fast_reducer.hpp), per block.
  /// for_each_line(store_line_end), transform(parse_line_at): each line's station id (or
  /// needs_general_path) and tenths.
  virtual void ids_parsed(station_id const* /*ids*/, std::int16_t const* /*tenths*/, std::size_t /*lines*/,
                          context const&) {}
  /// The ids and tenths sorted by id.
  virtual void ids_sorted(station_id const* /*ids*/, std::int16_t const* /*tenths*/, std::size_t /*lines*/,
                          context const&) {}
  /// The block's summary per station: stats[i] merges the readings of station ids[i], or of station i
  /// when ids is nullptr (one entry per station of the table, the identity where it had none).
  virtual void ids_reduced(station_id const* /*ids*/, station_stats const* /*stats*/, std::size_t /*groups*/,
                           context const&) {}
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
