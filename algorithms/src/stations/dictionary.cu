// SPDX-License-Identifier: Apache-2.0
// The fast path's dictionary (rowscan/stations/dictionary.hpp): entries in lookup-key order, a directory
// over them and the names padded to whole words.
#include "rowscan/stations/dictionary.hpp"

#include "rowscan/stage.hpp"

#include <thrust/execution_policy.h>
#include <thrust/copy.h>
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

/// Station id's entry, given its lookup key (on the host: rebuild's records).
template <class Id>
struct make_entry {
  name_record const* records;
  long_name_record const* long_names;
  basic_dictionary_entry<Id> operator()(std::uint64_t key, Id id) const {
    return {key, long_names[id].first_word, static_cast<std::uint16_t>(records[id].size), id};
  }
};

/// An entry's directory bucket: its key's top `bits` bits.
struct entry_bucket {
  std::uint32_t bits;
  template <class Entry>
  ROWSCAN_HD std::uint32_t operator()(Entry const& e) const {
    return static_cast<std::uint32_t>(e.key >> (64 - bits));
  }
};

/// Gives a host array of the rebuild n elements (each `fill`, or left as they are), with twice the room
/// if it must grow: the next rebuild, of a table a little larger, then writes into memory already touched.
template <class T>
void size_staged(staging_vector<T>& v, std::size_t n) {
  if (v.capacity() < n) v.reserve(2 * n);
  v.resize(n);
}
template <class T>
void fill_staged(staging_vector<T>& v, std::size_t n, T const& fill) {
  if (v.capacity() < n) v.reserve(2 * n);
  v.assign(n, fill);
}

/// Copies a host array to the start of the index's block. A block too small is replaced by one from
/// the context's pool with half as much room again, so that the next rebuild, of a table a little
/// larger, writes into memory already touched.
template <class T>
void copy_to_index(staging_vector<T> const& from, device_buffer<T>& to, context const& ctx) {
  if (to.size() < from.size()) {
    to = device_buffer<T>();  // back to the pool before the new block is asked for
    to = device_buffer<T>(from.size() + from.size() / 2, ctx.memory());
  }
  thrust::copy(from.begin(), from.end(), to.begin());
}

}  // namespace

/// Name i of a host vector of names.
struct name_in_vector {
  std::vector<std::string> const* names;
  string_ref operator()(std::size_t i) const {
    return {(*names)[i].data(), static_cast<std::uint32_t>((*names)[i].size())};
  }
};

template <class Id>
basic_dictionary_view<Id> basic_station_dictionary<Id>::view(station_table const& table, context const& ctx) {
  if (!stale_) return current_view();
  // Names in row order: a row's id is its index. On the host systems the table's names are host memory,
  // read where they are; copied into a vector of strings, a million stations' names took half of a
  // rebuild (docs/stations.md, "A million stations").
#if ROWSCAN_HAS_CUB
  rebuild(host_names_by_row(table), ctx);
#else
  rebuild_from(names_by_row(table), table.size(), ctx);
#endif
  return current_view();
}

template <class Id>
void basic_station_dictionary<Id>::rebuild(std::vector<std::string> const& names, context const& ctx) {
  rebuild_from(name_in_vector{&names}, names.size(), ctx);
}

template <class Id>
basic_dictionary_view<Id> basic_station_dictionary<Id>::current_view() const {
  return {thrust::raw_pointer_cast(entries_.data()),      thrust::raw_pointer_cast(directory_.data()),
          thrust::raw_pointer_cast(name_words_.data()),   thrust::raw_pointer_cast(first_ids_.data()),
          thrust::raw_pointer_cast(name_records_.data()), thrust::raw_pointer_cast(long_names_.data()),
          key_mask_,                                      directory_bits_};
}

template <class Id>
template <class NameAt>
void basic_station_dictionary<Id>::rebuild_from(NameAt const& name_at, std::size_t count, context const& ctx) {
  stage_scope stage(ctx, "dictionary");
  // O(stations) work, laid out on the host once per change of the station set: each name's padded
  // words, records and lookup key, the station ids sorted by key (a radix sort of 64-bit keys, where a
  // comparison sort of whole entries was a merge sort), the entries in that order, and the directory
  // over them. The host arrays are kept from one rebuild to the next: a dictionary of a million stations
  // is rebuilt a few times as its table grows, and fresh memory is a page fault every 4 KiB
  // (docs/stations.md, "A million stations").
  staged_index& h = staged_;
  h.words.clear();
  if (h.words.capacity() < 4 * count) h.words.reserve(8 * count);  // most names take a word or two
  fill_staged(h.name_records, count + 1, name_record{0, 0, 0});
  fill_staged(h.long_names, count + 1, long_name_record{0, 0});
  size_staged(h.keys, count);
  size_staged(h.ids, count + 1);
  h.ids.resize(count);
  for (std::size_t s = 0; s < count; ++s) {
    string_ref const name = name_at(s);
    std::uint32_t const n = name.size;
    auto const first = static_cast<std::uint32_t>(h.words.size());
    for (std::uint32_t i = 0; i < n; i += 8) h.words.push_back(name_word(name.data + i, n - i < 8 ? n - i : 8));
    std::uint64_t const w0 = h.words[first];
    std::uint64_t const w1 = n > 8 ? h.words[first + 1] : 0;
    std::uint64_t const tail = n > 16 ? name_word(name.data + n - 8, 8) : 0;
    h.name_records[s] = {w0, w1, n};
    h.long_names[s] = {tail, first};
    std::uint64_t const middle = middle_key(padded_word{h.words.data() + first}, n);
    h.keys[s] = lookup_key(w0, w1, tail, middle, n) & key_mask_;
    h.ids[s] = static_cast<Id>(s);
  }
  h.words.push_back(0);  // never empty, and a name's second word is always readable
  thrust::sort_by_key(thrust::host, h.keys.begin(), h.keys.end(), h.ids.begin());
  size_staged(h.entries, count);
  thrust::transform(thrust::host, h.keys.begin(), h.keys.end(), h.ids.begin(), h.entries.begin(),
                    make_entry<Id>{h.name_records.data(), h.long_names.data()});

  // The directory: bucket b's entries start after those of the buckets below it, so it is the exclusive
  // sum of the entries per bucket (counted by reduce_by_key over the sorted entries' buckets, scattered
  // to theirs). Its extra last bucket holds no entry, so its start is the entry count, the end of the
  // last real bucket. Linear in entries and buckets, where a lower_bound per bucket took 65,536 binary
  // searches, about half of a rebuild's time on one core (docs/data/dictionary_directory-cpu.csv).
  directory_bits_ = directory_bits_for<Id>(count);
  std::size_t const buckets = std::size_t{1} << directory_bits_;
  auto const entry_buckets = thrust::make_transform_iterator(h.entries.begin(), entry_bucket{directory_bits_});
  size_staged(h.used, count);
  size_staged(h.entries_in, count);
  auto const used_end =
      thrust::reduce_by_key(thrust::host, entry_buckets, entry_buckets + static_cast<std::ptrdiff_t>(count),
                            thrust::constant_iterator<Id>(1), h.used.begin(), h.entries_in.begin())
          .first;
  fill_staged(h.directory, buckets + 1, Id{0});  // entries per bucket, then their exclusive sum
  thrust::scatter(thrust::host, h.entries_in.begin(), h.entries_in.begin() + (used_end - h.used.begin()),
                  h.used.begin(), h.directory.begin());
  thrust::exclusive_scan(thrust::host, h.directory.begin(), h.directory.end(), h.directory.begin());

  // Each bucket's first station, by a gather of the entries' ids through the directory. An empty bucket's
  // first entry is the next bucket's, or the end: then the id after the last station, whose short name
  // (size 0) no name matches.
  h.ids.push_back(static_cast<Id>(count));  // the ids in key order are the entries' ids
  size_staged(h.first_ids, buckets);
  thrust::gather(thrust::host, h.directory.begin(), h.directory.begin() + static_cast<std::ptrdiff_t>(buckets),
                 h.ids.begin(), h.first_ids.begin());

  copy_to_index(h.entries, entries_, ctx);
  copy_to_index(h.first_ids, first_ids_, ctx);
  copy_to_index(h.name_records, name_records_, ctx);
  copy_to_index(h.long_names, long_names_, ctx);
  copy_to_index(h.directory, directory_, ctx);
  copy_to_index(h.words, name_words_, ctx);
  stale_ = false;
}

template class basic_station_dictionary<station_id>;
template class basic_station_dictionary<wide_station_id>;

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
