// SPDX-License-Identifier: Apache-2.0
// The stations block composition (rowscan/stations/worker.hpp): the path policy picks the fast reducer
// or the general grouper for each block.
#include "rowscan/stations/worker.hpp"

#include "rowscan/error.hpp"
#include "rowscan/lines.hpp"
#include "rowscan/stations/line_format.hpp"
#include "rowscan/stations/memory_bound.hpp"

#include <new>
#include <string>
#include <utility>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

worker::worker(context const& ctx, worker_options const& options, block_observer* observer)
    : ctx_(ctx), explained_(observer != nullptr),
#if !ROWSCAN_HAS_CUB
      shared_(options.shared),
#endif
      dictionary_(options.key_mask),
#if !ROWSCAN_HAS_CUB
      wide_dictionary_(options.key_mask),
#endif
      fast_(ctx, options.portable_only, observer), general_(ctx, options.key_mask, options.skip_invalid, observer) {}

void worker::start_from(station_table table) {
  table_ = std::move(table);
  known_keys_stale_ = true;
  pending_.clear();
  pending_rows_ = 0;
  dictionary_.invalidate();
#if !ROWSCAN_HAS_CUB
  wide_dictionary_.invalidate();
#endif
}

station_table const& worker::partial() {
#if !ROWSCAN_HAS_CUB
  if (!set_aside_.empty()) fold_set_aside(set_aside_.size());
#endif
  merge_pending();
  return table_;
}

station_table& worker::unmerged_parts(std::vector<station_table const*>& pending) {
#if !ROWSCAN_HAS_CUB
  if (!set_aside_.empty()) fold_set_aside(set_aside_.size());
#endif
  for (station_table const& t : pending_) pending.push_back(&t);
  return table_;
}

void worker::merge_pending() {
  if (pending_.empty()) return;
  std::vector<station_table const*> others;
  for (station_table const& t : pending_) others.push_back(&t);
  table_ = merge_all(table_, others, ctx_);  // std::bad_alloc leaves them as they were
  known_keys_stale_ = true;
  pending_.clear();
  pending_rows_ = 0;
  pending_lines_ = 0;
#if !ROWSCAN_HAS_CUB
  wide_dictionary_.invalidate();  // the table's rows moved: its ids are theirs
#endif
}

namespace {
#if !ROWSCAN_HAS_CUB
/// Past the 32-bit fold, a host worker's pending tables join its table once their rows number this share
/// (one over it) of its stations.
constexpr std::size_t host_join_share = 8;
#endif
}  // namespace

bool worker::pending_due() const {
  // pending_'s tables join the table once their rows number half its stations: each join sorts their
  // rows and groups them with the table's, so a table of a million stations is passed over once every few
  // blocks, and each block's rows are sorted and grouped once more. Waiting for as many rows as the table
  // has stations, or twice as many, measured slower: a join's arrays grow with the rows, and memory first
  // touched costs more than the passes saved (docs/stations.md, "A million stations").
#if ROWSCAN_HAS_CUB
  return 2 * pending_rows_ >= table_.size();
#else
  // A host worker's pending_ holds only the stations its table lacked (fold_new), and a block's stations
  // that wait in pending_ are not known to the table: each later block that meets them copies their names
  // again and they join once more. Joining once their rows number an eighth of the table's stations took
  // a third of the system time off a million stations, and less CPU time in all, than half
  // (docs/stations.md, "A million stations").
  if (!wide_fold()) return host_join_share * pending_rows_ >= table_.size();
  // In fold_wide the lines of pending_'s stations go to the general path until they join the table, and
  // each join costs a pass over the stations and their rows and a dictionary of every station: pending_
  // joins once the lines folded into it since the last join number half of those (a rent-or-buy rule:
  // the lines' cost has grown to about a join's). Waiting until pending_ held a quarter of the table's
  // stations left it out for good once fewer than that were still unseen (docs/stations.md, "A million
  // stations").
  return 2 * pending_lines_ >= table_.size() + pending_rows_;
#endif
}

void worker::release_outgrown_classes() {
  // The table grew: its arrays and their sort's temporaries move up to larger size classes once it passes
  // a power of two (the pool's classes), and the classes it grew out of will not be asked for again.
  // Until then its merges ask for the same classes. Released after every general block, the blocks of a
  // merge that comes every few blocks would go back in between, and each such merge would write fresh
  // pages (docs/stations.md, "A million stations"). The larger of the table and pending_'s rows counts, and
  // only a power not reached before: the rows fall when pending_ joins the table and rise with the next
  // block. Block-sized temporaries are asked for in every block and stay
  // (memory_pool.hpp).
  std::size_t const stations = table_.size() > pending_rows_ ? table_.size() : pending_rows_;
  std::size_t power = 1;
  while (power < stations) power *= 2;
  if (power <= released_at_) return;
  released_at_ = power;
  ctx_.pool().release_unused();
}

job::tally worker::fold_general(char const* text, std::size_t size) {
  if (!station_dictionary::over_limit(table_)) {
    known_keys_stale_ = true;
    return general_.fold(text, size, table_);
  }
  // The block's stations that the table has fold into its rows where they are, so only the new ones' names
  // are copied and only they wait for a join: each join then sorts and groups those alone, and joins come
  // once the new stations number half the table (docs/stations.md, "A million stations"). The table's
  // keys change only when it merges, so one key directory serves the searches of every block until then.
  if (known_keys_.rows != table_.size() || known_keys_stale_) {
    known_keys_ = make_key_directory(table_, ctx_);
    known_keys_stale_ = false;
  }
  station_table block;
  job::tally t = general_.fold_new(text, size, table_, known_keys_, block);
  pending_lines_ += t.lines;
  if (block.size() > 0) {
    pending_rows_ += block.size();
    pending_.push_back(std::move(block));
  }
  if (pending_due()) {
    try {
      merge_pending();
    } catch (std::bad_alloc const&) {
      // The block is folded into pending_, and both tables are as they were: a later block or
      // partial() merges them.
    }
  }
  return t;
}

job::tally worker::fold(char const* text, std::size_t size) {
  if (size == 0) return {};
#if !ROWSCAN_HAS_CUB
  if (!explained_) return wide_fold() ? fold_wide(text, size) : fold_in_order(text, size);
#endif
  bool const over_limit = station_dictionary::over_limit(table_);
  // The fast path changes nothing until it succeeds, and the general path lets no std::bad_alloc out
  // after it has merged a piece: a block that ran out of memory left no trace, and its halves may run.
  if (paths_.try_fast(station_dictionary::usable_for(table_))) {
    if (auto const lines = fast_.fold(text, size, dictionary_.view(table_, ctx_), table_)) {
      paths_.fast_succeeded();
      job::tally t;
      t.lines = *lines;
      return t;
    }
    paths_.fast_failed();
  }
  std::size_t const stations_before = table_.size();
  job::tally t = fold_general(text, size);
  if (table_.size() != stations_before) release_outgrown_classes();
  dictionary_.invalidate();
  paths_.general_ran(over_limit);
  return t;
}

namespace {
/// Bytes as the advice words them: "3 MiB", "412 KiB" or "900 bytes" (never "0 MiB").
std::string in_binary_units(std::uint64_t bytes) {
  if (bytes >= (std::uint64_t{1} << 20)) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (std::uint64_t{1} << 10)) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}
}  // namespace

#if !ROWSCAN_HAS_CUB
job::tally worker::fold_in_order(char const* text, std::size_t size) {
  // As on the GPU, a worker whose blocks keep meeting new stations backs off the fast path (and the
  // dictionary rebuilds it needs); one that learns from a few pieces of a block keeps it.
  // Cleared when a piece's lines were nearly all new stations: the general path then takes the rest.
  bool try_fast = paths_.try_fast(station_dictionary::usable_for(table_)) || table_.size() == 0;
  bool const over_limit = station_dictionary::over_limit(table_);
  job::tally block;  // the lines folded so far; block.bytes is where the next one starts
  std::size_t piece = first_learning_piece;
  std::size_t learned_bytes = 0;
  bool fast_stopped = false;  // the fast path met a line it did not know
  while (block.bytes < size) {
    if (try_fast && station_dictionary::usable_for(table_)) {
      lines_taken const known =
          fast_.fold_known_lines(text + block.bytes, size - block.bytes, dictionary_.view(table_, ctx_), table_);
      job::tally t;
      t.lines = known.lines;
      t.bytes = known.bytes;
      block = job::merge(std::move(block), t);
      if (block.bytes == size) break;
      fast_stopped = true;
    } else if (!try_fast || table_.size() > 0) {
      piece = size;  // backing off, or too many stations for ids: the general path takes the rest at once
    }
    // The first line the dictionary does not know: another worker may have learned its station.
    if (try_fast && take_shared_stations()) continue;
    // Else it starts a piece for the general path.
    char const* const here = text + block.bytes;
    std::size_t const end = whole_lines_through(here, size - block.bytes, piece);
    std::size_t const stations_before = table_.size();
    job::tally t;
    try {
      t = fold_general(here, end);
    } catch (std::bad_alloc const&) {
      if (block.bytes == 0) throw;  // nothing is folded yet: the driver may fold the block in halves
      // Part of the block is in the table: a retry would count it twice.
      throw device_error("out of memory while learning new stations (" + std::to_string(table_.size()) +
                         " stations so far); " + out_of_memory_advice(size));
    }
    t.bytes = end;
    block = job::merge(std::move(block), t);
    if (block.stop) return block;
    // Shared stations serve the workers' dictionaries; a table too large for one serves none, and an
    // offer costs a merge of the whole table.
    if (shared_ != nullptr && table_.size() > stations_before && station_dictionary::usable_for(table_))
      shared_->offer(table_, ctx_);
    dictionary_.invalidate();
    learned_bytes += end;
    piece *= 2;
    // A piece whose lines nearly all brought a station new to the table: the file has many more stations
    // than a block meets, and each further piece would cost a dictionary rebuild and a fast attempt that
    // stops at once; at a million stations a worker's first block took three times another's so
    // (docs/stations.md, "A million stations"). A file of 10,000 stations brings about 84% in the first
    // piece.
    if (nearly_all_new_stations(table_.size() - stations_before, t.lines)) try_fast = false;
  }
  if (learned_bytes == 0) {
    paths_.fast_succeeded();
    return block;
  }
  if (fast_stopped && 2 * learned_bytes >= size) paths_.fast_failed();  // the general path took most of it
  release_outgrown_classes();  // as in fold(): the table's arrays may have grown into larger size classes
  paths_.general_ran(over_limit);
  return block;
}
#endif

#if !ROWSCAN_HAS_CUB
job::tally worker::fold_wide(char const* text, std::size_t size) {
  job::tally block;      // the lines folded so far; block.bytes is where the next one starts
  bool general = false;  // some lines went to the general path
  while (block.bytes < size) {
    std::size_t const aside_before = set_aside_.size();
    lines_taken const known = fast_.fold_unknown_aside(text + block.bytes, size - block.bytes,
                                                       wide_dictionary_.view(table_, ctx_), table_, set_aside_);
    job::tally t;
    t.lines = known.lines;  // the lines set aside are among them: they are folded next
    t.bytes = known.bytes;
    block = job::merge(std::move(block), t);
    general |= set_aside_.size() > aside_before;
    // Lines set aside wait for a block's worth: each fold of them groups them into a table of pending_,
    // and each table's rows are sorted again when pending_ joins the table (docs/stations.md, "A million
    // stations").
    if (set_aside_.size() >= size) fold_set_aside(size);
    if (block.bytes == size) break;
    // A bad line, or a last line without '\n': the general path reports it or takes it, where it is.
    char const* const here = text + block.bytes;
    std::size_t const end = whole_lines_through(here, size - block.bytes, first_learning_piece);
    try {
      t = fold_general(here, end);
    } catch (std::bad_alloc const&) {
      throw device_error("out of memory while learning new stations (" + std::to_string(table_.size()) +
                         " stations so far); " + out_of_memory_advice(size));
    }
    t.bytes = end;
    block = job::merge(std::move(block), t);
    general = true;
    if (block.stop) return block;
  }
  if (!general) {
    paths_.fast_succeeded();
    return block;
  }
  release_outgrown_classes();
  paths_.general_ran(true);
  return block;
}

void worker::fold_set_aside(std::size_t block_size) {
  std::size_t const bytes = set_aside_.size();
  set_aside_.append(text_padding_bytes, '\0');  // the general path may read past the last line, as in a block
  job::tally t;
  try {
    t = fold_general(set_aside_.data(), bytes);
  } catch (std::bad_alloc const&) {
    // Part of the block is in the table already: a retry would count it twice.
    throw device_error("out of memory while learning new stations (" + std::to_string(table_.size()) +
                       " stations so far); " + out_of_memory_advice(block_size));
  }
  ROWSCAN_EXPECTS(!t.stopped() && t.skipped == 0, "a line set aside as valid was refused");
  set_aside_.clear();
}

bool worker::take_shared_stations() {
  if (shared_ == nullptr) return false;
  try {
    if (!shared_->take_into(table_, shared_seen_, ctx_)) return false;
  } catch (std::bad_alloc const&) {
    return false;  // the table is as it was; the general path learns the station, in the memory it can
  }
  dictionary_.invalidate();
  known_keys_stale_ = true;
  return true;
}
#endif

std::string worker::out_of_memory_advice(std::size_t chunk_size) const {
  std::uint64_t const stations = table_.size();
  std::uint64_t const name_bytes = table_.names.chars.size();
  std::uint64_t const table = table_memory_bound(stations, name_bytes);
  if (table <= block_memory_bound(chunk_size)) return job::block_worker::out_of_memory_advice(chunk_size);
  return "the station table fills it (" + std::to_string(stations) + " stations, " + std::to_string(name_bytes) +
         " bytes of names: up to " + in_binary_units(table) +
         " while it merges, " + table_terms_in_words() + "), and no --chunk-size makes the table "
         "smaller; run where more memory is free";
}

job::bad_line worker::overlong_line(std::string_view prefix) const {
  // parse_line decides on a prefix longer than max_line_bytes exactly as on the whole line.
  parsed_line const p = parse_line(prefix.data(), static_cast<std::uint32_t>(prefix.size()));
  ROWSCAN_EXPECTS(p.status != line_status::ok, "an overlong line parsed as valid");
  return job::bad_line_at(0, 0, p.error_at, describe(p.status), std::string(prefix.substr(0, line_excerpt_bytes)), true);
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
