// SPDX-License-Identifier: Apache-2.0
#include "rowscan/lineitem/summarize.hpp"

#include "rowscan/bad_rows.hpp"
#include "rowscan/context.hpp"
#include "rowscan/stage_clock.hpp"
#include "rowscan/error.hpp"
#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/lineitem/columns.hpp"
#include "rowscan/lineitem/query.hpp"
#include "rowscan/out_of_memory.hpp"
#include "rowscan/records.hpp"

#include <thrust/copy.h>
#include <thrust/find.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <sys/stat.h>

namespace rowscan::lineitem {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

/// Host text of whole lines, at input_offset in the input, after lines_before lines.
struct text_piece {
  char const* data;
  std::size_t size;
  std::uint64_t input_offset;
  std::uint64_t lines_before;
};

/// The input_error for the bad record r of a piece (the device said `status`).
input_error bad_row_error(std::string const& label, text_piece const& piece, record_range r, row_status status,
                          std::size_t row) {
  return describe_bad_row(label, piece.data, piece.input_offset, r, status, piece.lines_before + row + 1);
}

/// The input's size if it is a regular file (so the store can be sized once), else 0.
std::uint64_t regular_file_size(int fd) {
  struct stat st{};
  return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
}

/// After the first chunk: room for the rows of the whole file at the first chunk's bytes per row (plus
/// 2%), so that the columns are allocated once instead of doubling (and copying) as they grow.
void reserve_for_input(column_store& store, std::uint64_t input_size, std::size_t first_size, std::size_t rows) {
  if (input_size <= first_size || rows == 0) return;
  double const rows_per_byte = static_cast<double>(rows) / static_cast<double>(first_size);
  store.reserve(static_cast<std::size_t>(static_cast<double>(input_size) * rows_per_byte * 1.02) + 1024);
}

/// The longest line the reader carries between blocks (dbgen's rows are under 200 bytes).
constexpr std::size_t max_carried_line = std::size_t{64} << 10;

/// The error for a line longer than max_line bytes that starts at byte `start` of the input: the
/// reader's when it straddles two blocks, load's when it lies inside one.
input_error overlong_line_error(std::string const& label, std::uint64_t line, std::uint64_t start, std::size_t max_line,
                                std::size_t chunk_size) {
  return input_error(label, line, start,
                     max_line == chunk_size ? "line longer than the chunk size (" + std::to_string(chunk_size) + " bytes)"
                                            : "line longer than " + std::to_string(max_line) + " bytes");
}

/// Whether a record (its '\n' counted, as the reader counts it) is longer than the reader would carry.
struct longer_than {
  std::uint32_t max_bytes;
  ROWSCAN_HD bool operator()(record_range r) const { return r.end - r.begin > max_bytes; }
};

/// Loads the rows of one piece of text into the store: copy -> find_lines -> find_fields -> parse_rows,
/// then, if a row is bad, throws its error or (skip_invalid) drops the bad rows and records them.
/// Returns the piece's lines, bad ones included. Out of device memory (std::bad_alloc) it leaves the
/// store and `skipped` as they were.
struct piece_loader {
  std::string const& label;
  summarize_options const& options;
  std::size_t chunk_size;  ///< options.chunk_size, or the default when that is 0
  context const& ctx;
  stage_clock& clock;
  chunk_buffers& buffers;
  column_store& store;
  skipped_lines& skipped;
  stage_times& times;

  std::size_t operator()(text_piece const& piece, std::uint64_t input_size, bool first_piece) const {
    std::size_t const old_size = store.size();
    try {
      return load(piece, input_size, first_piece);
    } catch (std::bad_alloc const&) {
      store.resize(old_size);  // shrinking: no allocation
      throw;
    }
  }

 private:
  std::size_t load(text_piece const& piece, std::uint64_t input_size, bool first_piece) const {
    ctx.resize(buffers.text, piece.size);
    thrust::copy(piece.data, piece.data + piece.size, buffers.text.begin());
    clock.lap(times.copy);

    find_lines(thrust::raw_pointer_cast(buffers.text.data()), piece.size, buffers.records, ctx);
    clock.lap(times.find_records);

    find_fields(buffers, piece.size, ctx);
    clock.lap(times.find_fields);

    std::size_t const rows = buffers.records.size();
    if (first_piece) reserve_for_input(store, input_size, piece.size, rows);
    std::size_t const old_size = store.size();
    chunk_check const check = parse_rows(buffers, store, ctx);
    // A row longer than the reader carries stops the run where it lies inside one block too (never
    // skipped, like one across two blocks): otherwise the chunk size would decide whether it is read.
    std::size_t const overlong = first_overlong_row(piece);
    if (overlong < rows && (options.skip_invalid || check.ok || overlong <= check.bad_row)) {
      record_range const r = buffers.records[static_cast<std::ptrdiff_t>(overlong)];
      throw overlong_line_error(label, piece.lines_before + overlong + 1, piece.input_offset + r.begin, max_carried_line,
                                chunk_size);
    }
    if (!check.ok) {
      if (!options.skip_invalid) throw bad_row_error(label, piece, check.bad_record, check.status, check.bad_row);
      skip_bad_rows(piece, check.bad_row, old_size);
    }
    clock.lap(times.parse);
    return rows;
  }

  /// Index of the first row longer than max_carried_line, or the row count; a find_if only in chunks long
  /// enough to hold one.
  std::size_t first_overlong_row(text_piece const& piece) const {
    auto const& records = buffers.records;
    if (piece.size <= max_carried_line) return records.size();
    auto const found = thrust::find_if(ctx.policy(), records.begin(), records.end(),
                                       longer_than{static_cast<std::uint32_t>(max_carried_line)});
    return static_cast<std::size_t>(found - records.begin());
  }

  /// count_if + find_if for the positions (bad_rows.hpp), then remove_if from the store's tail.
  void skip_bad_rows(text_piece const& piece, std::size_t first_bad, std::size_t old_size) const {
    auto describe = [&](std::size_t row) {
      auto const status = static_cast<row_status>(static_cast<std::uint8_t>(buffers.statuses[row]));
      return bad_row_error(label, piece, buffers.records[row], status, row);
    };
    skipped_lines const here = skipped_rows(buffers.statuses.begin(), first_bad, buffers.records.size(), is_bad_row{},
                                            skipped.wanted(), describe, ctx);
    drop_bad_rows(buffers, store, old_size, ctx);
    skipped.append(here);  // nothing here allocates on the device any more
  }
};

}  // namespace

std::size_t default_chunk_size() {
  // A chunk's device arrays take about 1.6 bytes per byte of text (records, '|' positions, statuses);
  // keep them within an eighth of free memory, which the column store (12 bytes a row) leaves mostly free.
  std::size_t const share = device_memory_info().free_bytes / 8;
#if ROWSCAN_HAS_CUB
  std::size_t const preferred = std::size_t{512} << 20;
#else
  // Under OpenMP, copy_if is transform + serial scan + scatter with two 8-byte temporaries per byte of
  // text: a 512 MiB chunk faults in 8 GiB, and a 1 GB file loaded 2.5x slower than with 32 MiB chunks.
  std::size_t const preferred = std::size_t{32} << 20;
#endif
  return std::clamp(std::min(share, preferred), std::size_t{1} << 20, max_chunk_size);
}

summary summarize(int fd, std::string const& label, summarize_options const& options) {
  ROWSCAN_EXPECTS(!options.suppkey_below.empty(), "no l_suppkey threshold given");
  summary out;
  out.chunk_size = options.chunk_size == 0 ? default_chunk_size() : options.chunk_size;
  if (out.chunk_size < min_chunk_size || out.chunk_size > max_chunk_size) {
    throw error("chunk size must be between " + std::to_string(min_chunk_size) + " and " +
                std::to_string(max_chunk_size) + " bytes, not " + std::to_string(out.chunk_size));
  }
  auto const load_start = clock_type::now();
  context ctx;
  ctx.fail_allocations_above(options.fail_allocations_above);
  stage_clock clock(ctx, options.time_stages);
  io::reader_options reading;
  reading.block_size = out.chunk_size;
  reading.max_line = std::min(out.chunk_size, max_carried_line);
  io::chunked_reader reader(fd, label, reading);
  std::uint64_t const input_size = regular_file_size(fd);
  chunk_buffers buffers;
  column_store store;

  piece_loader const load{label, options, out.chunk_size, ctx, clock, buffers, store, out.skipped, out.times};

  io::text_chunk chunk{};
  while (reader.next(chunk)) {
    clock.lap(out.times.read);

    // Out of device memory, the chunk is loaded again as two halves (out_of_memory.hpp).
    auto split_after = [&](std::size_t middle) {
      auto const* newline = static_cast<char const*>(std::memchr(chunk.data + middle, '\n', chunk.size - middle));
      return newline != nullptr ? static_cast<std::size_t>(newline - chunk.data) + 1 : chunk.size;
    };
    auto part = [&](std::size_t begin, std::size_t end, std::size_t lines_before) {
      text_piece const piece{chunk.data + begin, end - begin, chunk.input_offset + begin, out.lines + lines_before};
      return load(piece, input_size, out.chunks == 0 && begin == 0);
    };
    out.lines += in_halves_if_out_of_memory(chunk.size, split_after, part, label, chunk.input_offset);
    out.rows = store.size();

    out.bytes += chunk.size;
    ++out.chunks;
    if (chunk.overlong_line) {  // after the chunk's whole lines, which may hold an earlier error
      throw overlong_line_error(label, out.lines + 1, chunk.input_offset + chunk.size, reading.max_line, out.chunk_size);
    }
  }
  ctx.synchronize();
  out.times.load = seconds_since(load_start);

  auto const query_start = clock_type::now();
  std::vector<threshold_result> const results = sums_below(store, options.suppkey_below, ctx);
  out.times.query = seconds_since(query_start);
  out.answers.reserve(results.size());
  for (auto const& r : results) out.answers.push_back({r.suppkey_below, r.sum_cents, r.rows});
  return out;
}

}  // namespace rowscan::lineitem
