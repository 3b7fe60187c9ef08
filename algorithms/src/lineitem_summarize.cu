#include "rowscan/lineitem/summarize.hpp"

#include "rowscan/context.hpp"
#include "rowscan/stage_clock.hpp"
#include "rowscan/error.hpp"
#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/lineitem/columns.hpp"
#include "rowscan/lineitem/query.hpp"
#include "rowscan/records.hpp"

#include <thrust/copy.h>

#include <algorithm>
#include <chrono>
#include <sys/stat.h>

namespace rowscan::lineitem {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

/// The input's size if it is a regular file (so the store can be sized once), else 0.
std::uint64_t regular_file_size(int fd) {
  struct stat st{};
  return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
}

/// After the first chunk: room for the rows of the whole file at the first chunk's bytes per row (plus
/// 2%), so that the columns are allocated once instead of doubling (and copying) as they grow.
void reserve_for_input(column_store& store, std::uint64_t input_size, io::text_chunk const& first, std::size_t rows) {
  if (input_size <= first.size || rows == 0) return;
  double const rows_per_byte = static_cast<double>(rows) / static_cast<double>(first.size);
  store.reserve(static_cast<std::size_t>(static_cast<double>(input_size) * rows_per_byte * 1.02) + 1024);
}

/// The longest line the reader carries between blocks (dbgen's rows are under 200 bytes).
constexpr std::size_t max_carried_line = std::size_t{64} << 10;

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
  stage_clock clock(ctx, options.time_stages);
  io::reader_options reading;
  reading.block_size = out.chunk_size;
  reading.max_line = std::min(out.chunk_size, max_carried_line);
  io::chunked_reader reader(fd, label, reading);
  std::uint64_t const input_size = regular_file_size(fd);
  chunk_buffers buffers;
  column_store store;

  io::text_chunk chunk{};
  while (reader.next(chunk)) {
    clock.lap(out.times.read);

    buffers.text.resize(chunk.size);
    thrust::copy(chunk.data, chunk.data + chunk.size, buffers.text.begin());
    clock.lap(out.times.copy);

    find_lines(thrust::raw_pointer_cast(buffers.text.data()), chunk.size, buffers.records, ctx);
    clock.lap(out.times.find_records);

    find_fields(buffers, chunk.size, ctx);
    clock.lap(out.times.find_fields);

    std::size_t const rows = buffers.records.size();
    if (out.chunks == 0) reserve_for_input(store, input_size, chunk, rows);
    chunk_check const check = parse_rows(buffers, store, ctx);
    if (!check.ok) throw_bad_row(label, chunk.data, chunk.input_offset, check, out.rows + check.bad_row + 1);
    clock.lap(out.times.parse);

    out.bytes += chunk.size;
    out.rows += rows;
    ++out.chunks;
    if (chunk.overlong_line) {  // after the chunk's whole lines, which may hold an earlier error
      throw input_error(label, out.rows + 1, chunk.input_offset + chunk.size,
                        reading.max_line == out.chunk_size
                            ? "line longer than the chunk size (" + std::to_string(out.chunk_size) + " bytes)"
                            : "line longer than " + std::to_string(reading.max_line) + " bytes");
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
