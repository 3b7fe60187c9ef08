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
#include "rowscan/device_buffer.hpp"
#include "rowscan/stations/dense_ids.hpp"
#include "rowscan/stations/staging_memory.hpp"
#include "rowscan/stations/table.hpp"

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

/// The allocator of the dictionary's host arrays: blocks of 2 MiB or more start on a 2 MiB boundary and
/// are offered to the kernel as transparent huge pages, as the pool's are on the host systems
/// (memory_pool.cu): in 4 KiB pages the rebuilds of two workers' dictionaries, each grown to 850,000
/// stations, took 110,000 page faults (docs/stations.md, "A million stations").
template <class T>
struct staging_allocator {
  using value_type = T;
  staging_allocator() = default;
  template <class U>
  staging_allocator(staging_allocator<U> const&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(allocate_staging(n * sizeof(T))); }
  void deallocate(T* p, std::size_t) { std::free(p); }
  template <class U>
  bool operator==(staging_allocator<U> const&) const {
    return true;
  }
  template <class U>
  bool operator!=(staging_allocator<U> const&) const {
    return false;
  }
};
/// A host array of the dictionary's rebuild.
template <class T>
using staging_vector = thrust::host_vector<T, staging_allocator<T>>;

/// The dictionary with ids of type Id (dense_ids.hpp): station_id, or wide_station_id for the host
/// systems' tables over max_dictionary_size stations.
template <class Id>
class basic_station_dictionary {
 public:
  using view_type = basic_dictionary_view<Id>;

  /// key_mask: the name-hash bits the table's keys keep (all of them except in tests).
  explicit basic_station_dictionary(std::uint64_t key_mask) : key_mask_(key_mask) {}

  /// Whether a table can serve as the dictionary: it has stations, and fewer than the ids can number.
  static bool usable_for(station_table const& table) {
    return table.size() > 0 && table.size() <= id_layout<Id>::max_stations;
  }

  /// Whether a table has more stations than the 16-bit ids can number: then the GPU's blocks take the
  /// general path, and the host's workers a wide dictionary (docs/stations.md, "A million stations").
  static bool over_limit(station_table const& table) { return table.size() > max_dictionary_size; }

  /// The index must be rebuilt before the next view(): the table changed.
  void invalidate() { stale_ = true; }

  /// The view of table for parse_line_at; rebuilds the index first if the table changed.
  view_type view(station_table const& table, context const& ctx);
  /// The view of a dictionary of `names` (a name's id is its position), for a workload whose keys are
  /// not a station table (`rowscan group`); names() is asked for them only when the index is stale.
  template <class Names>
  view_type view_of_names(Names const& names, context const& ctx) {
    if (stale_) rebuild(names(), ctx);
    return current_view();
  }

 private:
  void rebuild(std::vector<std::string> const& names, context const& ctx);
  /// rebuild, given name i as name_at(i) (a string_ref in host memory) for i below count.
  template <class NameAt>
  void rebuild_from(NameAt const& name_at, std::size_t count, context const& ctx);
  view_type current_view() const;

  /// The index as rebuild lays it out on the host, kept so that the next rebuild reuses its memory.
  struct staged_index {
    staging_vector<std::uint64_t> keys;  ///< lookup keys, by station id, then sorted
    staging_vector<Id> ids;              ///< station ids in key order, then the id after the last
    staging_vector<basic_dictionary_entry<Id>> entries;
    staging_vector<std::uint64_t> words;
    staging_vector<name_record> name_records;
    staging_vector<long_name_record> long_names;
    staging_vector<std::uint32_t> used;  ///< the buckets that hold entries
    staging_vector<Id> entries_in;       ///< and how many each
    staging_vector<Id> directory;
    staging_vector<Id> first_ids;
  };

  std::uint64_t key_mask_;
  bool stale_ = true;
  staged_index staged_;
  std::uint32_t directory_bits_ = id_layout<Id>::max_directory_bits;
  // The index, in blocks of the context's pool: on the host systems a block of 2 MiB or more is offered
  // as transparent huge pages (memory_pool.cu), and a million stations' index, read at random, then
  // costs a lookup fewer TLB misses (docs/stations.md, "A million stations").
  device_buffer<Id> directory_;
  device_buffer<basic_dictionary_entry<Id>> entries_;
  device_buffer<std::uint64_t> name_words_;
  device_buffer<Id> first_ids_;
  device_buffer<name_record> name_records_;
  device_buffer<long_name_record> long_names_;
};

/// The 16-bit dictionary: the GPU's, and the host's up to max_dictionary_size stations.
using station_dictionary = basic_station_dictionary<station_id>;
/// The host systems' dictionary past max_dictionary_size stations.
using wide_station_dictionary = basic_station_dictionary<wide_station_id>;

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
