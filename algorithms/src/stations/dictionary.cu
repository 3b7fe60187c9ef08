// SPDX-License-Identifier: Apache-2.0
// The fast path's dictionary (rowscan/stations/dictionary.hpp): entries in lookup-key order, a directory
// over them and the names padded to whole words.
#include "rowscan/stations/dictionary.hpp"

#include "rowscan/stage.hpp"

#include <thrust/execution_policy.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/scatter.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <string>
#include <vector>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN
namespace {

/// A padded name's word i (middle_key's words of a dictionary name).
struct padded_word {
  std::uint64_t const* words;
  ROWSCAN_HD std::uint64_t operator()(std::uint32_t i) const { return words[i]; }
};

/// An entry's station id.
struct entry_id {
  ROWSCAN_HD station_id operator()(dictionary_entry const& e) const { return e.id; }
};

/// Entries in lookup-key order.
struct entry_key_less {
  ROWSCAN_HD bool operator()(dictionary_entry const& a, dictionary_entry const& b) const { return a.key < b.key; }
};

/// An entry's directory bucket: its key's top `bits` bits.
struct entry_bucket {
  std::uint32_t bits;
  ROWSCAN_HD std::uint32_t operator()(dictionary_entry const& e) const {
    return static_cast<std::uint32_t>(e.key >> (64 - bits));
  }
};

}  // namespace

dictionary_view station_dictionary::view(station_table const& table, context const& ctx) {
  if (stale_) rebuild(host_names_by_row(table), ctx);  // names in row order: a row's id is its index
  return current_view();
}

dictionary_view station_dictionary::current_view() const {
  return {thrust::raw_pointer_cast(entries_.data()),      thrust::raw_pointer_cast(directory_.data()),
          thrust::raw_pointer_cast(name_words_.data()),   thrust::raw_pointer_cast(first_ids_.data()),
          thrust::raw_pointer_cast(name_records_.data()), thrust::raw_pointer_cast(long_names_.data()),
          key_mask_,                                      directory_bits_};
}

void station_dictionary::rebuild(std::vector<std::string> const& names, context const& ctx) {
  stage_scope stage(ctx, "dictionary");
  // O(stations) work, laid out on the host once per change of the station set: each name's padded
  // words and its entry, the entries sorted by lookup key, and the directory over them.
  thrust::host_vector<dictionary_entry> entries;
  thrust::host_vector<std::uint64_t> words;
  thrust::host_vector<name_record> name_records(names.size() + 1, name_record{0, 0, 0});
  thrust::host_vector<long_name_record> long_names(names.size() + 1, long_name_record{0, 0});
  for (std::size_t s = 0; s < names.size(); ++s) {
    auto const n = static_cast<std::uint32_t>(names[s].size());
    auto const first = static_cast<std::uint32_t>(words.size());
    for (std::uint32_t i = 0; i < n; i += 8) words.push_back(name_word(names[s].data() + i, n - i < 8 ? n - i : 8));
    std::uint64_t const w1 = n > 8 ? words[first + 1] : 0;
    std::uint64_t const tail = n > 16 ? name_word(names[s].data() + n - 8, 8) : 0;
    name_records[s] = {words[first], w1, n};
    long_names[s] = {tail, first};
    std::uint64_t const middle = middle_key(padded_word{words.data() + first}, n);
    entries.push_back({lookup_key(words[first], w1, tail, middle, n) & key_mask_, first, static_cast<std::uint16_t>(n),
                       static_cast<station_id>(s)});
  }
  words.push_back(0);  // never empty, and a name's second word is always readable
  thrust::sort(thrust::host, entries.begin(), entries.end(), entry_key_less{});

  // The directory: bucket b's entries start after those of the buckets below it, so it is the exclusive
  // sum of the entries per bucket (counted by reduce_by_key over the sorted entries' buckets, scattered
  // to theirs). Its extra last bucket holds no entry, so its start is the entry count, the end of the
  // last real bucket. Linear in entries and buckets, where a lower_bound per bucket took 65,536 binary
  // searches, about half of a rebuild's time on one core (docs/data/dictionary_directory-cpu.csv).
  directory_bits_ = directory_bits_for(names.size());
  std::size_t const buckets = std::size_t{1} << directory_bits_;
  auto const entry_buckets = thrust::make_transform_iterator(entries.begin(), entry_bucket{directory_bits_});
  thrust::host_vector<std::uint32_t> used(entries.size());
  thrust::host_vector<directory_index> entries_in(entries.size());
  auto const used_end = thrust::reduce_by_key(thrust::host, entry_buckets,
                                              entry_buckets + static_cast<std::ptrdiff_t>(entries.size()),
                                              thrust::constant_iterator<directory_index>(1), used.begin(),
                                              entries_in.begin())
                            .first;
  thrust::host_vector<directory_index> directory(buckets + 1, 0);  // entries per bucket, then their exclusive sum
  thrust::scatter(thrust::host, entries_in.begin(), entries_in.begin() + (used_end - used.begin()), used.begin(),
                  directory.begin());
  thrust::exclusive_scan(thrust::host, directory.begin(), directory.end(), directory.begin());

  // Each bucket's first station, by a gather of the entries' ids through the directory. An empty bucket's
  // first entry is the next bucket's, or the end: then the id after the last station, whose short name
  // (size 0) no name matches.
  thrust::host_vector<station_id> entry_ids(entries.size() + 1, static_cast<station_id>(names.size()));
  thrust::transform(thrust::host, entries.begin(), entries.end(), entry_ids.begin(), entry_id{});
  thrust::host_vector<station_id> first_ids(buckets);
  thrust::gather(thrust::host, directory.begin(), directory.begin() + static_cast<std::ptrdiff_t>(buckets),
                 entry_ids.begin(), first_ids.begin());

  entries_ = entries;
  first_ids_ = first_ids;
  name_records_ = name_records;
  long_names_ = long_names;
  directory_ = directory;
  name_words_ = words;
  stale_ = false;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
