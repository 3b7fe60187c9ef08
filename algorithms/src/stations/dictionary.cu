// SPDX-License-Identifier: Apache-2.0
// The fast path's dictionary (rowscan/stations/dictionary.hpp): a directory over the table's keys and
// the names padded to whole words.
#include "rowscan/stations/dictionary.hpp"

#include "rowscan/stage.hpp"

#include <thrust/binary_search.h>
#include <thrust/fill.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <string>
#include <vector>

namespace rowscan::stations {
namespace {

/// The smallest key of directory bucket b.
struct bucket_first_key {
  std::uint32_t bits;
  ROWSCAN_HD std::uint64_t operator()(std::uint64_t b) const { return b << (64 - bits); }
};

}  // namespace

dictionary_view station_dictionary::view(station_table const& table, context const& ctx) {
  if (stale_) rebuild(table, ctx);
  return {thrust::raw_pointer_cast(entries_.data()), thrust::raw_pointer_cast(directory_.data()),
          thrust::raw_pointer_cast(name_words_.data()), key_mask_, directory_bits_};
}

void station_dictionary::rebuild(station_table const& table, context const& ctx) {
  stage_scope stage(ctx, "dictionary");
  // The directory: a vectorized lower_bound of every bucket's smallest key; the last entry ends the last bucket.
  directory_bits_ = directory_bits_for(table.size());
  std::size_t const directory_size = (std::size_t{1} << directory_bits_) + 1;
  directory_.resize(directory_size);
  auto bucket_keys =
      thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), bucket_first_key{directory_bits_});
  thrust::lower_bound(ctx.policy(), table.keys.begin(), table.keys.end(), bucket_keys,
                      bucket_keys + static_cast<std::ptrdiff_t>(directory_size - 1), directory_.begin());
  thrust::fill_n(ctx.policy(), directory_.begin() + static_cast<std::ptrdiff_t>(directory_size - 1), 1,
                 static_cast<std::uint32_t>(table.size()));

  // The entries and the padded names: O(stations) bytes, laid out on the host once per change of the
  // station set.
  std::vector<std::string> const names = to_host_strings(table.names);
  thrust::host_vector<std::uint64_t> const keys = table.keys;
  thrust::host_vector<dictionary_entry> entries;
  thrust::host_vector<std::uint64_t> words;
  for (std::size_t s = 0; s < names.size(); ++s) {
    auto const n = static_cast<std::uint32_t>(names[s].size());
    entries.push_back({keys[s], static_cast<std::uint32_t>(words.size()), n});
    for (std::uint32_t i = 0; i < n; i += 8) words.push_back(name_word(names[s].data() + i, n - i < 8 ? n - i : 8));
  }
  words.push_back(0);  // never empty
  entries_ = entries;
  name_words_ = words;
  stale_ = false;
}

}  // namespace rowscan::stations
