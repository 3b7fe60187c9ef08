// SPDX-License-Identifier: Apache-2.0
// rowscan/group/worker.hpp: the `rowscan group` block composition, as the job driver sees it.
//
//   block -> find_records (records.hpp): the quote-parity scan, each record's [begin, end) and line
//         -> walk_fields (fields.hpp), one record per element: key fields, exact values, or the fault
//         -> a bad record: stop there, or with skip_invalid count it, word the first few, and leave it out
//         -> the kept records (copy_if) -> their keys' bytes unquoted (exclusive_scan of sizes, copies)
//            and hashed, their values as stats at the column's scale
//         -> concatenated after the worker's key table -> grouped (table.hpp) -> the new key table
//   or, when the worker's table already holds every key of the block (a single key column, at most
//   65,535 keys): the dense-id fast path of known_keys.hpp, which leaves the table's keys as they are.
//
// The worker's partial answer is its key table and its columns' scales. Two partial answers merge by
// the same grouping (or, once on the host, merge_summaries): associative and commutative.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/group/fields.hpp"
#include "rowscan/group/known_keys.hpp"
#include "rowscan/group/records.hpp"
#include "rowscan/group/summary.hpp"
#include "rowscan/group/table.hpp"
#include "rowscan/job/block_worker.hpp"
#include "rowscan/records.hpp"
#include "rowscan/stations/dictionary.hpp"
#include "rowscan/stations/path_policy.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rowscan::group {
ROWSCAN_SYSTEM_BEGIN

/// The longest record the reader carries between blocks; a longer one stops the run wherever it lies.
constexpr std::size_t max_carried_record = std::size_t{1} << 20;

struct worker_options {
  text_format format;
  std::uint64_t key_mask = ~std::uint64_t{0};  ///< the hash bits sorted on (tests use fewer)
  std::size_t carried = max_carried_record;    ///< the run's carried record, named in an overlong record's error
  bool skip_invalid = false;
};

/// A block's records and their fields, kept between blocks so that steady state does not reallocate.
struct block_arrays {
  thrust::device_vector<record_span> records;
  thrust::device_vector<records_found> found;  ///< find_records' slot for the block's count
  thrust::device_vector<record_check> checks;
  thrust::device_vector<key_field> keys;
  thrust::device_vector<parsed_value> values;
  thrust::device_vector<std::uint32_t> kept;
};

class worker final : public job::block_worker {
 public:
  /// explained: --explain watches, and the worker runs the GPU's composition (the scan) on any system.
  worker(context const& ctx, worker_options options, bool explained = false);

  job::tally fold(char const* text, std::size_t size) override;
  job::bad_line overlong_line(std::string_view prefix) const override;
  bool cuts_at_any_line() const override { return options_.format.quote == 0; }

  /// Merges the keys that wait beside the table (fold keeps them apart until they are as many); call it
  /// once the last block is folded, before partial().
  void finish();
  /// The partial answer, after finish(): every key of the blocks folded so far (in hash order), and the
  /// columns' scales.
  key_table const& partial() const { return table_; }
  std::vector<unsigned> const& scales() const { return scales_; }
  std::uint64_t records() const { return records_; }
  bool keys_compared() const { return compared_; }
  /// The arrays of the last block folded (--explain shows them).
  block_arrays const& arrays() const { return arrays_; }
  /// Which path each block took (the fast one: known_keys.hpp).
  stations::path_policy const& paths() const { return paths_; }

 private:
  std::string overlong_words() const;
#if ROWSCAN_HAS_CUB
  /// find_records for text without quotes: every line a record.
  records_found unquoted_records(char const* text, std::size_t size, char last_byte);
  thrust::device_vector<record_range> lines_;
  thrust::device_vector<std::uint32_t> line_count_;
#endif
  /// entries_ = the kept records' keys and values as stats at `scales`.
  void block_entries(char const* text, std::vector<unsigned> const& scales);
  /// Merges pending_ into table_ (the table's keys change: the dictionary is stale).
  void merge_pending();
  /// The fast path (known_keys.hpp): folds the kept records into table_ at `scales` if `id_of` knows
  /// every key, and says so; otherwise changes nothing.
  bool fold_known(known_key_id const& id_of, std::vector<unsigned> const& scales);
#if !ROWSCAN_HAS_CUB
  /// fold_known on one thread: each record's stats added to its key's row as it is met.
  bool fold_known_in_order(known_key_id const& id_of, std::vector<unsigned> const& scales);
#endif

  context ctx_;
  worker_options options_;
  bool explained_;
  field_plan plan_;
  block_arrays arrays_;
  key_table table_;                                        // at table_scales_
  key_table pending_;                                      // grouped blocks not yet merged into table_, at scales_
  key_table entries_, block_, next_pending_, next_table_;  // a fold's own arrays, kept for the next
  // The table and the pending keys side by side, apart from entries_: sharing one array, the block's
  // entries would grow back each block from the merge's size, every new element first filled with zeros.
  key_table merged_;
  grouping_scratch scratch_;
  stations::station_dictionary dictionary_;  // table_'s keys, ids their rows
  stations::path_policy paths_;
  thrust::device_vector<station_id> ids_;              // the fast path's: each kept record's key id
  thrust::device_vector<std::uint32_t> order_;         // the kept records in id order
  thrust::device_vector<station_id> unique_ids_;       // each group's id
  std::vector<thrust::device_vector<stats>> reduced_;  // each group's (or, on one thread, id's) stats per column
  std::vector<unsigned> scales_;
  std::vector<unsigned> table_scales_;
  std::uint64_t records_ = 0;
  bool compared_ = false;
};

/// The answer of a key table: its rows in byte order of their keys, on the host.
std::vector<group_row> rows_of(key_table const& table, context const& ctx);

/// A key table's keys on the host, in its order.
std::vector<std::string> keys_of(key_table const& table, context const& ctx);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::group
