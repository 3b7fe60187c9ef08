// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/dictionary.hpp: the stations learned from the data, laid out for the fast path.
//
// The running table's stations are the dictionary (dense_ids.hpp says how a line finds its id, its
// place in the table). What this class adds is a read-only index over them, built by library calls
// whenever the general path changes the table:
//   entries:      {lookup key, first word, size, id} per station, sort by lookup key (dense_ids.hpp)
//   directory:    reduce_by_key(entry buckets, 1) -> scatter -> exclusive_scan   the entries of bucket b
//                                                       (keys with b as top bits) are [dir[b], dir[b + 1])
//   padded names: each name zero-padded to whole 8-byte words, so a comparison is a few word loads
//   first ids:    gather(entry ids, directory)                        each bucket's first station (tried first)
//   name records: each station's first two words and size, by id   what that station is compared with first
//   long names:   each station's last word and where its words start, by id   the same, for names over 16 bytes
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/stations/dense_ids.hpp"
#include "rowscan/stations/table.hpp"

#include <thrust/device_vector.h>

#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

class station_dictionary {
 public:
  /// key_mask: the name-hash bits the table's keys keep (all of them except in tests).
  explicit station_dictionary(std::uint64_t key_mask) : key_mask_(key_mask) {}

  /// Whether a table can serve as the dictionary: it has stations, and fewer than the ids can number.
  static bool usable_for(station_table const& table) {
    return table.size() > 0 && table.size() <= max_dictionary_size;
  }

  /// Whether a table has more stations than the fast path's ids can number: then every block takes the
  /// general path (docs/stations.md, "A million stations").
  static bool over_limit(station_table const& table) { return table.size() > max_dictionary_size; }

  /// The index must be rebuilt before the next view(): the table changed.
  void invalidate() { stale_ = true; }

  /// The view of table for parse_line_at; rebuilds the index first if the table changed.
  dictionary_view view(station_table const& table, context const& ctx);
  /// The view of a dictionary of `names` (a name's id is its position), for a workload whose keys are
  /// not a station table (`rowscan group`); names() is asked for them only when the index is stale.
  template <class Names>
  dictionary_view view_of_names(Names const& names, context const& ctx) {
    if (stale_) rebuild(names(), ctx);
    return current_view();
  }

 private:
  void rebuild(std::vector<std::string> const& names, context const& ctx);
  dictionary_view current_view() const;

  std::uint64_t key_mask_;
  bool stale_ = true;
  std::uint32_t directory_bits_ = max_directory_bits;
  thrust::device_vector<directory_index> directory_;
  thrust::device_vector<dictionary_entry> entries_;
  thrust::device_vector<std::uint64_t> name_words_;
  thrust::device_vector<station_id> first_ids_;
  thrust::device_vector<name_record> name_records_;
  thrust::device_vector<long_name_record> long_names_;
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
