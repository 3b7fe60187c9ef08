// SPDX-License-Identifier: Apache-2.0
// The lineitem block composition (rowscan/lineitem/worker.hpp): parse a block into columns, check
// it, and add its sums to the worker's.
#include "rowscan/lineitem/worker.hpp"

#include "rowscan/job/skipped_rows.hpp"
#include "rowscan/lineitem/one_pass.hpp"
#include "rowscan/read_back.hpp"
#include "rowscan/records.hpp"
#include "rowscan/stage.hpp"

#include <thrust/copy.h>
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

  std::size_t const valid_rows = store_.size();
  auto const query_start = std::chrono::steady_clock::now();
  {
    stage_scope stage(ctx_, "query");
    partial_sums block = sums_below(store_, options_.suppkey_below, ctx_);
    if (options_.keep_columns) keep_rows();
    // The only change to the partial answer, made last: a bad_alloc before it leaves no trace.
    sums_ = merge(std::move(sums_), block);
  }
  query_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - query_start).count();
  queried_rows_ += valid_rows;
  rows_ += valid_rows;
  return out;
}

/// Appends the block's columns to the kept ones, whose arrays grow by doubling (thrust::device_vector::resize), so
/// that a block costs a copy of its rows and no allocation of its own; out of memory, the kept rows stay as they were.
void worker::keep_rows() {
  std::size_t const at = kept_.size();
  try {
    ctx_.resize(kept_.suppkey, at + store_.size());
    ctx_.resize(kept_.quantity, at + store_.size());
    ctx_.resize(kept_.price_cents, at + store_.size());
  } catch (...) {
    kept_.resize(at);  // shrinks what grew: never throws
    throw;
  }
  thrust::copy(ctx_.policy(), store_.suppkey.begin(), store_.suppkey.end(), kept_.suppkey.begin() + at);
  thrust::copy(ctx_.policy(), store_.quantity.begin(), store_.quantity.end(), kept_.quantity.begin() + at);
  thrust::copy(ctx_.policy(), store_.price_cents.begin(), store_.price_cents.end(), kept_.price_cents.begin() + at);
}

column_store worker::take_kept() {
  ctx_.synchronize();  // keep_rows's copies, on this worker's stream
  return std::move(kept_);
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
