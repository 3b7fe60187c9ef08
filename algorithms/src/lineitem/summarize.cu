// The `rowscan lineitem` job (rowscan/lineitem/summarize.hpp): the driver and one lineitem worker.
#include "rowscan/lineitem/summarize.hpp"

#include "rowscan/context.hpp"
#include "rowscan/error.hpp"
#include "rowscan/lineitem/worker.hpp"

#include <algorithm>
#include <chrono>

namespace rowscan::lineitem {

std::vector<std::string> stage_names() {
  return {"device setup", "reader setup", "read (waiting)", "copy to device", "find records", "find fields", "parse",
          "query"};
}

std::size_t default_chunk_size() {
  // A block's device arrays take about 2.1 bytes per byte of text (records, '|' positions, statuses,
  // the block's columns) beside the two text slots; keep them within an eighth of free memory.
  std::size_t const share = device_memory_info().free_bytes / 8;
#if ROWSCAN_HAS_CUB
  std::size_t const preferred = std::size_t{512} << 20;
#else
  // Under OpenMP, copy_if is transform + serial scan + scatter with two 8-byte temporaries per byte of
  // text: a 512 MiB chunk faults in 8 GiB, and a 1 GB file loaded 2.5x slower than with 32 MiB chunks.
  std::size_t const preferred = std::size_t{32} << 20;
#endif
  return std::clamp(std::min(share, preferred), std::size_t{1} << 20, job::max_chunk_size);
}

summary summarize(int fd, std::string const& label, summarize_options const& options) {
  ROWSCAN_EXPECTS(!options.suppkey_below.empty(), "no l_suppkey threshold given");
  auto const start = std::chrono::steady_clock::now();
  summary out;
  out.times = job::stage_times(stage_names());
  out.chunk_size = job::chosen_chunk_size(options, {min_chunk_size, default_chunk_size});
  context const ctx = job::start_context(options, out);
  worker sums(ctx, {options.suppkey_below, out.chunk_size, options.skip_invalid});
  std::size_t const carried = std::min(out.chunk_size, max_carried_line);
  job::run_blocks(fd, label, options, {out.chunk_size, carried, 0}, ctx, sums, out);

  for (threshold_result const& r : sums.partial()) out.answers.push_back({r.suppkey_below, r.sum_cents, r.rows});
  out.rows = sums.rows();
  out.query_seconds = sums.query_seconds();
  out.load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() - out.query_seconds;
  return out;
}

}  // namespace rowscan::lineitem
