// SPDX-License-Identifier: Apache-2.0
// rowscan/group/known_keys.hpp: the fast path of a group block whose keys are all in the worker's key
// table, with the dense 16-bit ids of `rowscan stations` (rowscan/stations/dense_ids.hpp).
//
// The worker's key table is the dictionary (station_dictionary, built from its keys' bytes: a key's id
// is its row). A kept record's key is looked up where it lies in the block, with no copy and no hash:
//   transform(kept record -> id)                          dictionary_view::find on the key field's bytes
//   any id == needs_general_path? -> the general path (a new key, a composite key, a doubled quote)
//   GPU:  sort_by_key(ids, kept index) -> reduce_by_key(ids, value stats, stats_plus), per value column
//         -> merged into the table's rows by id
//   host (a worker is one thread): each kept record's stats added to its id's row, then the rows merged
//         into the table's; the ids index the rows, the grouping reduce_by_key would compute
// The table's keys do not change, so the dictionary stays valid until the general path adds one.
//
// The ids and their limit are stations' own (station_id, stations::max_dictionary_size, which
// worker.cu's over_limit test reads): nothing here assumes 16 bits, so a wider id there opens this path
// to larger key sets (the generated sales file's 100,000 customers) with no change in group's code;
// the GPU's sort_by_key then sorts the wider ids.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/group/fields.hpp"
#include "rowscan/group/table.hpp"
#include "rowscan/stations/dense_ids.hpp"

#include <cstddef>
#include <cstdint>

namespace rowscan::group {
ROWSCAN_SYSTEM_BEGIN

using stations::dictionary_view;
using stations::needs_general_path;
using stations::station_id;

/// Readable bytes a block needs after its end: find loads a key's first two 8-byte words whatever its
/// size (stations' text_padding_bytes, for the same loads).
constexpr std::size_t key_padding_bytes = 16;

/// Kept record k's key id: its single key field's bytes found in the dictionary, or needs_general_path
/// when they are not there, are empty, or hold a doubled quote (the key is then not the bytes where it
/// lies). find reads up to 16 bytes past a short key: the block is padded (key_padding_bytes).
struct known_key_id {
  char const* text;
  std::uint32_t const* kept;
  key_field const* keys;  ///< one key column
  dictionary_view dictionary;
  ROWSCAN_HD station_id operator()(std::uint32_t k) const {
    key_field const f = keys[kept[k]];
    if (f.size != f.unquoted || f.size == 0) return needs_general_path;  // dictionary names are not empty
    return dictionary.find(text + f.begin, f.size);
  }
};

/// An id that the dictionary does not know.
struct is_unknown_key {
  ROWSCAN_HD bool operator()(station_id id) const { return id == needs_general_path; }
};

/// Adds group g's stats (reduced for key ids[g]) into that key's row of a table column.
struct add_to_row {
  station_id const* ids;
  stats const* reduced;
  stats* rows;
  ROWSCAN_HD void operator()(std::uint32_t g) const { rows[ids[g]] = stats_plus{}(rows[ids[g]], reduced[g]); }
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::group
