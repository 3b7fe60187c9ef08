// SPDX-License-Identifier: Apache-2.0
// The `rowscan group` block composition (rowscan/group/worker.hpp).
#include "rowscan/group/worker.hpp"

#include "rowscan/error.hpp"
#include "rowscan/job/skipped_rows.hpp"
#include "rowscan/read_back.hpp"
#include "rowscan/records.hpp"
#include "rowscan/stage.hpp"

#include <thrust/copy.h>
#include <thrust/fill.h>
#include <thrust/find.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/logical.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

namespace rowscan::group {
ROWSCAN_SYSTEM_BEGIN
namespace {

/// A record the answer leaves out because something is wrong with it (a blank one is left out silently).
struct is_bad_record {
  ROWSCAN_HD bool operator()(record_check const& c) const {
    return c.status != record_status::ok && c.status != record_status::blank;
  }
};

/// A line of unquoted text as a record: the line it starts on is its index.
struct numbered_line {
  ROWSCAN_HD record_span operator()(record_range r, std::uint32_t index) const { return {r.begin, r.end, index}; }
};

/// Room for a block's lines when none is found first: a line every this many bytes (the challenge's
/// average 13.8); a block of shorter ones is counted first instead (find_lines_in_one_scan).
constexpr std::size_t usual_record_bytes = 8;

/// Empties a table, keeping its arrays' capacity.
void clear(key_table& t) {
  t.hashes.resize(0);
  t.offsets.resize(0);
  t.sizes.resize(0);
  t.chars.resize(0);
  for (auto& column : t.columns) column.resize(0);
}

/// A record whose fields go into the answer.
struct is_kept_record {
  record_check const* checks;
  ROWSCAN_HD bool operator()(std::uint32_t r) const { return checks[r].status == record_status::ok; }
};

/// A record longer than the reader carries.
struct record_longer_than {
  std::uint32_t max_bytes;
  ROWSCAN_HD bool operator()(record_span const& r) const { return r.end - r.begin > max_bytes; }
};

/// The digits after the point of kept record k's value in column j (0 when it is missing).
struct value_digits {
  std::uint32_t const* kept;
  parsed_value const* values;
  std::uint32_t value_count;
  std::uint32_t column;
  ROWSCAN_HD unsigned operator()(std::uint32_t k) const {
    parsed_value const v = values[static_cast<std::size_t>(kept[k]) * value_count + column];
    return v.missing ? 0u : v.digits;
  }
};

struct larger {
  ROWSCAN_HD unsigned operator()(unsigned a, unsigned b) const { return a > b ? a : b; }
};

/// The unquoted bytes of kept record k's key: its key fields joined by key_field_separator.
struct key_size {
  std::uint32_t const* kept;
  key_field const* keys;
  std::uint32_t key_count;
  std::uint32_t count;  // k == count: 0, so that an exclusive scan over count + 1 ends with the total
  ROWSCAN_HD std::uint64_t operator()(std::uint32_t k) const {
    if (k >= count) return 0;
    key_field const* f = keys + static_cast<std::size_t>(kept[k]) * key_count;
    std::uint64_t n = key_count - 1;
    for (std::uint32_t i = 0; i < key_count; ++i) n += f[i].unquoted;
    return n;
  }
};

/// Writes kept record k's key bytes (each doubled quote once), its size and its hash.
struct write_key {
  char const* text;
  std::uint32_t const* kept;
  key_field const* keys;
  std::uint32_t key_count;
  char quote;
  std::uint64_t mask;
  std::uint64_t const* offsets;
  char* chars;
  std::uint32_t* sizes;
  std::uint64_t* hashes;
  ROWSCAN_HD void operator()(std::uint32_t k) const {
    key_field const* f = keys + static_cast<std::size_t>(kept[k]) * key_count;
    char* out = chars + offsets[k];
    std::uint32_t n = 0;
    for (std::uint32_t i = 0; i < key_count; ++i) {
      if (i > 0) out[n++] = key_field_separator;
      char const* p = text + f[i].begin;
      for (std::uint32_t b = 0; b < f[i].size; ++b) {
        out[n++] = p[b];
        if (quote != 0 && p[b] == quote) ++b;  // a doubled quote inside a quoted field: one byte of the key
      }
    }
    sizes[k] = n;
    hashes[k] = key_hash(out, n, mask);
  }
};

/// Kept record k's value in column j as stats at `scale`.
struct value_stats_at {
  std::uint32_t const* kept;
  parsed_value const* values;
  std::uint32_t value_count;
  std::uint32_t column;
  unsigned scale;
  ROWSCAN_HD stats operator()(std::uint32_t k) const {
    parsed_value const v = values[static_cast<std::size_t>(kept[k]) * value_count + column];
    stats s{0, 0, 0, 0, 0};
    if (v.missing) {
      s.missing = 1;
      return s;
    }
    __int128 x = v.mantissa;
    for (unsigned d = v.digits; d < scale; ++d) x *= 10;
    s.count = 1;
    s.sum = s.min = s.max = x;
    return s;
  }
};

/// The table's keys as the dictionary's names. A key the fast path never looks up (empty, or longer than
/// a station name: known_key_id's find refuses it) stands there as a name no lookup finds, so that every
/// id is still its key's row.
std::vector<std::string> dictionary_names(std::vector<std::string> keys) {
  for (std::string& key : keys) {
    if (key.empty() || key.size() > stations::max_name_bytes) key.assign(stations::max_name_bytes + 1, '\0');
  }
  return keys;
}

}  // namespace

worker::worker(context const& ctx, worker_options options, bool explained)
    : ctx_(ctx),
      options_(std::move(options)),
      explained_(explained),
      plan_(plan_of(options_.format)),
      dictionary_(options_.key_mask),
      scales_(options_.format.values.size(),
              options_.format.scale >= 0 ? static_cast<unsigned>(options_.format.scale) : 0u),
      table_scales_(scales_) {
  table_.columns.resize(options_.format.values.size());
  pending_.columns.resize(options_.format.values.size());
}

void worker::block_entries(char const* text, std::vector<unsigned> const& scales) {
  auto const policy = ctx_.policy();
  auto const& kept = arrays_.kept;
  auto const n = static_cast<std::uint32_t>(kept.size());
  std::uint32_t const* const kept_data = thrust::raw_pointer_cast(kept.data());
  key_table& out = entries_;
  ctx_.resize(out.offsets, std::size_t{n} + 1);  // the last one is the bytes of all
  ctx_.resize(out.sizes, n);
  ctx_.resize(out.hashes, n);
  auto const sizes = thrust::make_transform_iterator(
      thrust::counting_iterator<std::uint32_t>(0),
      key_size{kept_data, thrust::raw_pointer_cast(arrays_.keys.data()), plan_.key_count, n});
  thrust::exclusive_scan(policy, sizes, sizes + (n + 1), out.offsets.begin(), std::uint64_t{0});
  std::uint64_t const bytes = read_back(out.offsets, n, ctx_);
  out.offsets.resize(n);  // shrinking writes nothing
  ctx_.resize(out.chars, bytes);
  thrust::for_each(policy, thrust::counting_iterator<std::uint32_t>(0), thrust::counting_iterator<std::uint32_t>(n),
                   write_key{text, kept_data, thrust::raw_pointer_cast(arrays_.keys.data()), plan_.key_count,
                             plan_.quote, options_.key_mask, thrust::raw_pointer_cast(out.offsets.data()),
                             thrust::raw_pointer_cast(out.chars.data()), thrust::raw_pointer_cast(out.sizes.data()),
                             thrust::raw_pointer_cast(out.hashes.data())});
  out.columns.resize(plan_.value_count);
  for (std::uint32_t j = 0; j < plan_.value_count; ++j) {
    ctx_.resize(out.columns[j], n);
    thrust::transform(
        policy, thrust::counting_iterator<std::uint32_t>(0), thrust::counting_iterator<std::uint32_t>(n),
        out.columns[j].begin(),
        value_stats_at{kept_data, thrust::raw_pointer_cast(arrays_.values.data()), plan_.value_count, j, scales[j]});
  }
}

job::tally worker::fold(char const* text, std::size_t size) {
  job::tally out;
  if (size == 0) return out;
  auto const policy = ctx_.policy();
  char last_byte = 0;
  copy_to_host(text + size - 1, 1, &last_byte, ctx_);
  records_found found;
  {
    stage_scope stage(ctx_, "find records");
#if !ROWSCAN_HAS_CUB
    // A host worker is one thread: it walks the words with the parity in hand (--explain shows the
    // scan, the composition the GPU runs).
    if (!explained_)
      found = find_records_walking(text, size, plan_.quote, arrays_.records, ctx_);
    else
#else
    // Without quotes every '\n' ends a record: the lines of rowscan/records.hpp (a scan over 16-byte
    // words whose element is 8 bytes, where the quote scan's is 28).
    if (plan_.quote == 0 && !explained_)
      found = unquoted_records(text, size, last_byte);
    else
#endif
      found = find_records(text, size, plan_.quote, arrays_.records, arrays_.found, ctx_);
  }
  out.lines = found.lines + (last_byte != '\n' ? 1 : 0);
  auto const rows = static_cast<std::uint32_t>(arrays_.records.size());
  {
    stage_scope stage(ctx_, "find fields");
    ctx_.resize(arrays_.checks, rows);
    ctx_.resize(arrays_.keys, static_cast<std::size_t>(rows) * plan_.key_count);
    ctx_.resize(arrays_.values, static_cast<std::size_t>(rows) * plan_.value_count);
    thrust::for_each(
        policy, thrust::counting_iterator<std::uint32_t>(0), thrust::counting_iterator<std::uint32_t>(rows),
        walk_fields{text, thrust::raw_pointer_cast(arrays_.records.data()), plan_,
                    thrust::raw_pointer_cast(arrays_.checks.data()), thrust::raw_pointer_cast(arrays_.keys.data()),
                    thrust::raw_pointer_cast(arrays_.values.data())});
  }

  auto describe_record = [&](std::size_t r) {
    record_span const rec = read_back(arrays_.records, r, ctx_);
    record_check const check = read_back(arrays_.checks, r, ctx_);
    std::size_t const shown = std::min<std::size_t>(rec.end - rec.begin, line_excerpt_bytes + 1);
    std::string start(shown, '\0');
    copy_to_host(text + rec.begin, shown, start.data(), ctx_);
    std::size_t const newline = start.find('\n');
    bool const more = newline == std::string::npos && rec.end - rec.begin > shown;
    if (newline != std::string::npos) start.resize(newline);
    if (!start.empty() && start.back() == '\r') start.pop_back();
    return job::bad_line_at(rec.line, rec.begin, check.at, describe(check.status, options_.format), start, more);
  };

  // A record longer than the reader carries stops the run wherever it lies (never skipped), as one
  // across two blocks does: otherwise the chunk size would decide whether it is read.
  std::size_t overlong = rows;
  if (size > options_.carried) {
    overlong =
        static_cast<std::size_t>(thrust::find_if(policy, arrays_.records.begin(), arrays_.records.end(),
                                                 record_longer_than{static_cast<std::uint32_t>(options_.carried)}) -
                                 arrays_.records.begin());
  }
  auto const bad_at = static_cast<std::size_t>(
      thrust::find_if(policy, arrays_.checks.begin(), arrays_.checks.end(), is_bad_record{}) - arrays_.checks.begin());
  if (overlong < rows && (options_.skip_invalid || overlong <= bad_at)) {
    record_span const rec = read_back(arrays_.records, overlong, ctx_);
    std::string start(line_excerpt_bytes, '\0');
    copy_to_host(text + rec.begin, start.size(), start.data(), ctx_);
    out.stop = job::bad_line_at(rec.line, rec.begin, 0, overlong_words(), start, true);
    return out;
  }
  if (bad_at < rows) {
    if (!options_.skip_invalid) {
      out.stop = describe_record(bad_at);
      return out;
    }
    job::skip_bad_rows(arrays_.checks.begin(), bad_at, rows, is_bad_record{}, describe_record, out, ctx_);
  }

  // The fast path needs the table to hold every key seen so far (the pending ones merged) and the
  // dictionary of its keys; stations' path_policy backs off after a block with a new key.
  std::size_t const known = table_.size() + pending_.size();
  bool const over_limit = known > stations::max_dictionary_size;
  std::optional<dictionary_view> dictionary;
  if (paths_.try_fast(plan_.key_count == 1 && known > 0 && !over_limit)) {
    if (pending_.size() > 0) {
      stage_scope stage(ctx_, "group");
      merge_pending();
    }
    dictionary = dictionary_.view_of_names([&] { return dictionary_names(keys_of(table_, ctx_)); }, ctx_);
  }

  stage_scope stage(ctx_, "group");
  ctx_.resize(arrays_.kept, rows);
  auto const kept_end = thrust::copy_if(policy, thrust::counting_iterator<std::uint32_t>(0),
                                        thrust::counting_iterator<std::uint32_t>(rows), arrays_.kept.begin(),
                                        is_kept_record{thrust::raw_pointer_cast(arrays_.checks.data())});
  auto const kept = static_cast<std::uint32_t>(kept_end - arrays_.kept.begin());
  arrays_.kept.resize(kept);

  // The columns' scales: --scale, or the most digits after the point seen so far.
  std::vector<unsigned> scales = scales_;
  if (options_.format.scale < 0) {
    for (std::uint32_t j = 0; j < plan_.value_count; ++j) {
      unsigned const block = thrust::transform_reduce(
          policy, thrust::counting_iterator<std::uint32_t>(0), thrust::counting_iterator<std::uint32_t>(kept),
          value_digits{thrust::raw_pointer_cast(arrays_.kept.data()), thrust::raw_pointer_cast(arrays_.values.data()),
                       plan_.value_count, j},
          0u, larger{});
      scales[j] = std::max(scales[j], block);
    }
  }
  if (dictionary) {
    known_key_id const id_of{text, thrust::raw_pointer_cast(arrays_.kept.data()),
                             thrust::raw_pointer_cast(arrays_.keys.data()), *dictionary};
    if (fold_known(id_of, scales)) {
      paths_.fast_succeeded();
      table_scales_ = scales;
      scales_ = std::move(scales);
      records_ += kept;
      return out;
    }
    paths_.fast_failed();
  }
  paths_.general_ran(over_limit);

  bool compared = false;
  block_entries(text, scales);
  group_entries(entries_, block_, scratch_, &compared, ctx_);
  // The block's keys wait beside the table until they are as many as the table's: merging the table
  // with every block would sort all of its keys again for each block (a table of 80,000 keys and blocks
  // of 70,000 records spent most of its time there); waiting, each key is sorted again a few times.
  concatenate(pending_, scales_, block_, scales, next_pending_, ctx_);
  bool const merge = next_pending_.size() >= table_.size();
  if (merge) {
    concatenate(table_, table_scales_, next_pending_, scales, merged_, ctx_);
    group_entries(merged_, next_table_, scratch_, &compared, ctx_);
  }
  // The only changes to the partial answer, made last: a bad_alloc before them leaves no trace. Swaps
  // keep every array's capacity for the next block.
  if (merge) {
    std::swap(table_, next_table_);
    table_scales_ = scales;
    clear(pending_);
    dictionary_.invalidate();
  } else {
    std::swap(pending_, next_pending_);
  }
  scales_ = std::move(scales);
  compared_ = compared_ || compared;
  records_ += kept;
  return out;
}

void worker::finish() {
  if (pending_.size() > 0) merge_pending();
}

void worker::merge_pending() {
  concatenate(table_, table_scales_, pending_, scales_, merged_, ctx_);
  group_entries(merged_, next_table_, scratch_, &compared_, ctx_);
  std::swap(table_, next_table_);
  table_scales_ = scales_;
  clear(pending_);
  dictionary_.invalidate();
}

bool worker::fold_known(known_key_id const& id_of, std::vector<unsigned> const& scales) {
#if !ROWSCAN_HAS_CUB
  // A host worker is one thread: it adds each record to its key's row (--explain shows the GPU's sort).
  if (!explained_) return fold_known_in_order(id_of, scales);
#endif
  auto const policy = ctx_.policy();
  auto const n = static_cast<std::uint32_t>(arrays_.kept.size());
  std::size_t const keys = table_.size();
  ctx_.resize(ids_, n);
  thrust::transform(policy, thrust::counting_iterator<std::uint32_t>(0), thrust::counting_iterator<std::uint32_t>(n),
                    ids_.begin(), id_of);
  if (thrust::any_of(policy, ids_.begin(), ids_.end(), is_unknown_key{})) return false;
  ctx_.resize(order_, n);
  thrust::sequence(policy, order_.begin(), order_.end());
  thrust::sort_by_key(policy, ids_.begin(), ids_.end(), order_.begin());  // 16-bit keys: a radix sort
  ctx_.resize(unique_ids_, keys);
  reduced_.resize(plan_.value_count);
  std::size_t groups = 0;
  for (std::uint32_t j = 0; j < plan_.value_count; ++j) {
    ctx_.resize(reduced_[j], keys);
    auto const values =
        thrust::make_transform_iterator(order_.begin(), value_stats_at{thrust::raw_pointer_cast(arrays_.kept.data()),
                                                                       thrust::raw_pointer_cast(arrays_.values.data()),
                                                                       plan_.value_count, j, scales[j]});
    auto const ends = thrust::reduce_by_key(policy, ids_.begin(), ids_.end(), values, unique_ids_.begin(),
                                            reduced_[j].begin(), thrust::equal_to<station_id>{}, stats_plus{});
    groups = static_cast<std::size_t>(ends.first - unique_ids_.begin());
  }
  // The only changes to the partial answer, made last (fold's rule): the table lifted to the block's
  // scales, and each group added to its key's row.
  for (std::uint32_t j = 0; j < plan_.value_count; ++j) {
    lift_scale(table_.columns[j], 0, keys, scales[j] - table_scales_[j], ctx_);
    thrust::for_each(
        policy, thrust::counting_iterator<std::uint32_t>(0),
        thrust::counting_iterator<std::uint32_t>(static_cast<std::uint32_t>(groups)),
        add_to_row{thrust::raw_pointer_cast(unique_ids_.data()), thrust::raw_pointer_cast(reduced_[j].data()),
                   thrust::raw_pointer_cast(table_.columns[j].data())});
  }
  return true;
}

#if !ROWSCAN_HAS_CUB
bool worker::fold_known_in_order(known_key_id const& id_of, std::vector<unsigned> const& scales) {
  auto const policy = ctx_.policy();
  auto const n = static_cast<std::uint32_t>(arrays_.kept.size());
  std::size_t const keys = table_.size();
  ctx_.resize(ids_, n);
  station_id* const ids = thrust::raw_pointer_cast(ids_.data());
  for (std::uint32_t k = 0; k < n; ++k) {
    ids[k] = id_of(k);
    if (ids[k] == needs_general_path) return false;
  }
  reduced_.resize(plan_.value_count);
  for (std::uint32_t j = 0; j < plan_.value_count; ++j) {
    ctx_.resize(reduced_[j], keys);
    thrust::fill(policy, reduced_[j].begin(), reduced_[j].end(), stats{0, 0, 0, 0, 0});  // stats_plus's identity
    stats* const rows = thrust::raw_pointer_cast(reduced_[j].data());
    value_stats_at const at{thrust::raw_pointer_cast(arrays_.kept.data()),
                            thrust::raw_pointer_cast(arrays_.values.data()), plan_.value_count, j, scales[j]};
    for (std::uint32_t k = 0; k < n; ++k) rows[ids[k]] = stats_plus{}(rows[ids[k]], at(k));
  }
  for (std::uint32_t j = 0; j < plan_.value_count; ++j) {
    lift_scale(table_.columns[j], 0, keys, scales[j] - table_scales_[j], ctx_);
    thrust::transform(policy, table_.columns[j].begin(), table_.columns[j].end(), reduced_[j].begin(),
                      table_.columns[j].begin(), stats_plus{});
  }
  return true;
}
#endif

#if ROWSCAN_HAS_CUB
records_found worker::unquoted_records(char const* text, std::size_t size, char last_byte) {
  ctx_.grow(line_count_, 1);
  find_lines_in_one_scan(text, size, usual_record_bytes, lines_, thrust::raw_pointer_cast(line_count_.data()), ctx_);
  auto const n = static_cast<std::uint32_t>(lines_.size());
  ctx_.resize(arrays_.records, n);
  thrust::transform(ctx_.policy(), lines_.begin(), lines_.end(), thrust::counting_iterator<std::uint32_t>(0),
                    arrays_.records.begin(), numbered_line{});
  return records_found{n, n - (last_byte != '\n' ? 1u : 0u), 0};
}
#endif

job::bad_line worker::overlong_line(std::string_view prefix) const {
  return job::bad_line_at(0, 0, 0, overlong_words(), std::string(prefix.substr(0, line_excerpt_bytes)), true);
}

std::string worker::overlong_words() const {
  return "record longer than " + std::to_string(options_.carried) + " bytes" +
         (options_.format.quote != 0 ? " (a quoted field that does not end?)" : "");
}

std::vector<std::string> keys_of(key_table const& table, context const& ctx) {
  std::size_t const n = table.size();
  std::vector<std::uint64_t> offsets(n);
  std::vector<std::uint32_t> sizes(n);
  std::vector<char> chars(table.chars.size());
  copy_to_host(thrust::raw_pointer_cast(table.offsets.data()), n, offsets.data(), ctx);
  copy_to_host(thrust::raw_pointer_cast(table.sizes.data()), n, sizes.data(), ctx);
  copy_to_host(thrust::raw_pointer_cast(table.chars.data()), chars.size(), chars.data(), ctx);
  std::vector<std::string> keys(n);
  for (std::size_t e = 0; e < n; ++e) keys[e].assign(chars.data() + offsets[e], sizes[e]);
  return keys;
}

std::vector<group_row> rows_of(key_table const& table, context const& ctx) {
  std::size_t const n = table.size();
  std::vector<std::string> keys = keys_of(table, ctx);
  std::vector<group_row> rows(n);
  for (std::size_t e = 0; e < n; ++e) {
    rows[e].key = std::move(keys[e]);
    rows[e].values.resize(table.columns.size());
  }
  std::vector<stats> column(n);
  for (std::size_t j = 0; j < table.columns.size(); ++j) {
    copy_to_host(thrust::raw_pointer_cast(table.columns[j].data()), n, column.data(), ctx);
    for (std::size_t e = 0; e < n; ++e) {
      rows[e].values[j] = value_stats{column[e].count, column[e].missing, column[e].sum, column[e].min, column[e].max};
    }
  }
  // std::string's < compares bytes as unsigned char, the order of the answer.
  std::sort(rows.begin(), rows.end(), [](group_row const& a, group_row const& b) { return a.key < b.key; });
  return rows;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::group
