// SPDX-License-Identifier: Apache-2.0
// The lineitem block composition (rowscan/lineitem/worker.hpp): parse a block into columns, check
// it, and add its sums to the worker's.
#include "rowscan/lineitem/worker.hpp"

#include "rowscan/job/skipped_rows.hpp"
#include "rowscan/lineitem/one_pass.hpp"
#include "rowscan/read_back.hpp"
#include "rowscan/records.hpp"
#include "rowscan/stage.hpp"

#include <thrust/find.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN
namespace {
/// Room for a block's records: dbgen's rows have 95 to 153 bytes (126.6 on average at scale factor 1),
/// so a block of rows this long or longer fills at most size / 64 + 2 records; a block of shorter lines
/// (bad ones) is counted first instead (find_lines_in_one_scan).
constexpr std::size_t usual_row_bytes = 64;
}  // namespace

partial_sums merge(partial_sums a, partial_sums const& b) {
  ROWSCAN_EXPECTS(a.size() == b.size(), "merging sums of different thresholds");
  for (std::size_t k = 0; k < a.size(); ++k) {
    ROWSCAN_EXPECTS(a[k].suppkey_below == b[k].suppkey_below, "merging sums of different thresholds");
    a[k].sum_cents += b[k].sum_cents;
    a[k].rows += b[k].rows;
  }
  return a;
}

worker::worker(context const& ctx, worker_options options, block_observer* observer)
    : ctx_(ctx), options_(std::move(options)), observer_(observer) {
  for (std::uint64_t const z : options_.suppkey_below) sums_.push_back({z, 0, 0});
}

job::tally worker::fold(char const* text, std::size_t size) {
  job::tally out;
  if (size == 0) return out;
  if (observer_ == nullptr && !options_.keep_columns) {  // --explain shows the step-by-step composition, always
    std::optional<one_pass_result> clean;
    {
      stage_scope stage(ctx_, "one pass");
      clean = sums_in_one_pass(text, size, options_.suppkey_below, ctx_);
    }
    if (clean) {
      sums_ = merge(std::move(sums_), clean->sums);
      rows_ += clean->rows;
      out.lines = clean->rows;
      return out;
    }
  }
  // A bad or long row (or more than eight thresholds): the composition that stores what it finds, to
  // say which row is wrong and where, or skip it.
  store_.resize(0);  // keeps the capacity: steady state does not reallocate
  {
    stage_scope stage(ctx_, "find records");
#if ROWSCAN_HAS_CUB
    ctx_.grow(buffers_.line_count, 1);
    find_lines_in_one_scan(text, size, usual_row_bytes, buffers_.records,
                           thrust::raw_pointer_cast(buffers_.line_count.data()), ctx_);
#else
    find_lines_walking(text, size, usual_row_bytes, buffers_.records, ctx_);  // a host worker is one thread
#endif
  }
  std::size_t const rows = buffers_.records.size();
  out.lines = rows;
  chunk_check check;
  if (observer_ == nullptr) {  // one pass over the text finds each row's fields and parses them
    stage_scope stage(ctx_, "parse");
    check = parse_rows_walking(text, buffers_, store_, ctx_);
  } else {  // --explain shows the composition step by step: the '|' list, then the parse
    {
      stage_scope stage(ctx_, "find fields");
      find_fields(text, size, buffers_, ctx_);
    }
    {
      stage_scope stage(ctx_, "parse");
      check = parse_rows(text, buffers_, store_, ctx_);
    }
    observer_->parsed(text, size, buffers_, store_, ctx_);
  }

  // A row longer than the reader carries stops the run where it lies inside one block too (never
  // skipped, like one across two blocks): otherwise the chunk size would decide whether it is read.
  std::size_t const overlong = first_overlong_row(size);
  if (overlong < rows && (options_.skip_invalid || check.ok || overlong <= check.bad_row)) {
    std::uint64_t const begin = read_back(buffers_.records, overlong, ctx_).begin;
    std::string start(line_excerpt_bytes, '\0');  // the line's first bytes, for its quote
    copy_to_host(text + begin, start.size(), start.data(), ctx_);
    out.stop = job::bad_line_at(overlong, begin, 0, overlong_words(max_carried_line), start, true);
    return out;
  }
  if (!check.ok) {
    if (!options_.skip_invalid) {
      out.stop = describe_bad_row(text, check.bad_record, check.status, check.bad_row, ctx_);
      return out;
    }
    stage_scope stage(ctx_, "parse");
    auto describe = [&](std::size_t row) {
      auto const status = static_cast<row_status>(read_back(buffers_.statuses, row, ctx_));
      return describe_bad_row(text, read_back(buffers_.records, row, ctx_), status, row, ctx_);
    };
    job::skip_bad_rows(buffers_.statuses.begin(), check.bad_row, rows, is_bad_row{}, describe, out, ctx_);
    drop_bad_rows(buffers_, store_, 0, ctx_);
  }

  if (options_.keep_columns) kept_.reserve(kept_.size() + 1);  // the push below cannot throw after the sums change
  auto const query_start = std::chrono::steady_clock::now();
  {
    stage_scope stage(ctx_, "query");
    sums_ = merge(std::move(sums_), sums_below(store_, options_.suppkey_below, ctx_));  // the only change to the partial answer, made last: a bad_alloc before it leaves no trace
  }
  query_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - query_start).count();
  queried_rows_ += store_.size();
  rows_ += store_.size();
  if (options_.keep_columns) {
    kept_.push_back(std::move(store_));  // the next block's store is a new one
    store_ = column_store{};
  }
  return out;
}

job::bad_line worker::overlong_line(std::string_view prefix) const {
  std::size_t const carried = options_.chunk_size < max_carried_line ? options_.chunk_size : max_carried_line;
  return job::bad_line_at(0, 0, 0, overlong_words(carried), std::string(prefix.substr(0, line_excerpt_bytes)), true);
}

std::string worker::overlong_words(std::size_t max_line) const {
  return max_line == options_.chunk_size ? "line longer than the chunk size (" + std::to_string(options_.chunk_size) + " bytes)"
                                         : "line longer than " + std::to_string(max_line) + " bytes";
}

/// Index of the first row longer than max_carried_line, or the row count; a find_if only in blocks long
/// enough to hold one.
std::size_t worker::first_overlong_row(std::size_t size) const {
  auto const& records = buffers_.records;
  if (size <= max_carried_line) return records.size();
  auto const found = thrust::find_if(ctx_.policy(), records.begin(), records.end(),
                                     line_longer_than{static_cast<std::uint32_t>(max_carried_line)});
  return static_cast<std::size_t>(found - records.begin());
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
