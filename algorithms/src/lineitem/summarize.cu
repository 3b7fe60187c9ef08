// SPDX-License-Identifier: Apache-2.0
// The `rowscan lineitem` job (rowscan/lineitem/summarize.hpp): the driver and one lineitem worker.
#include "rowscan/lineitem/summarize.hpp"

#include "rowscan/context.hpp"
#include "rowscan/error.hpp"
#include "rowscan/job/stage_names.hpp"
#include "rowscan/job/stage_times.hpp"
#include "rowscan/job/worker_set.hpp"
#include "rowscan/lineitem/worker.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN

std::vector<std::string> stage_names() {
  return {job::setup_stage, "reader setup", "read (waiting)", job::hand_over_stage, "one pass", "find records",
          "find fields",    "parse",        "query"};
}

std::size_t default_chunk_size() {
  // A block's device arrays take about 2.2 bytes per byte of text (records, '|' positions, statuses,
  // the block's columns) beside the two text slots. On the host, copy_if is transform + serial scan +
  // scatter with two 8-byte temporaries per byte of text, and peak RSS is about 24 bytes per chunk byte
  // per worker. Measured on the 2-core machine, scale 1 (`rowscan generate lineitem --scale 1`, 760 MB),
  // `--suppkey-below 5000`, with two other builds running (wall times varied 2-10x between repeats;
  // user time is steadier):
  //   chunk    wall            user     peak RSS
  //   1 MiB    5.2-94.5 s      18.6 s    29 MB
  //   4 MiB    9.1-22.8 s       8.2 s   105 MB
  //   8 MiB    16.0-22.4 s     14.3 s   199 MB
  //   16 MiB   15.3-18.5 s      9.1 s   417 MB
  //   32 MiB   15.4-17.0 s      6.4 s   781 MB
  // 4 MiB: the fastest wall time in two of three rounds, an eighth of 32 MiB's memory.
  // On the GPU (H100 machine, scale 10, 7.8 GB hot in the page cache, whole process, median of 5):
  //   16 MiB 0.754 s, 32 MiB 0.751 s, 64 MiB 0.680 s, 128 MiB 0.755 s, 512 MiB 1.098 s
  // Large blocks keep the reader's threads and the copy waiting on each other (a 512 MiB block is a
  // fifteenth of the file, and nothing overlaps the first and last); 64 MiB holds about 0.2 GB of
  // device memory (docs/performance.md, the memory table).
  return job::preferred_chunk_size(std::size_t{64} << 20, std::size_t{4} << 20);
}

summary summarize(int fd, std::string const& label, summarize_options const& options) {
  job::single_input input(fd, label, options.max_input_bytes);
  return summarize_each(input, options);
}

summary summarize_each(job::input_sequence& inputs, summarize_options const& options) {
  ROWSCAN_EXPECTS(!options.suppkey_below.empty(), "no l_suppkey threshold given");
  auto const start = std::chrono::steady_clock::now();
  summary out;
  out.times = job::stage_times(stage_names());
  out.chunk_size = job::chosen_chunk_size(options, {min_chunk_size, default_chunk_size});
  job::worker_set<worker> workers(options, out, [&](context const& ctx) {
    return worker(ctx, {options.suppkey_below, out.chunk_size, options.skip_invalid});
  });
  std::size_t const carried = std::min(out.chunk_size, max_carried_line);
  job::run_blocks_each(inputs, options, {out.chunk_size, carried, walk_padding_bytes}, workers.slots(), out);

  partial_sums all;  // the workers' sums added up
  for (auto const& w : workers.workers()) {
    all = all.empty() ? w->partial() : merge(all, w->partial());
    out.rows += w->rows();
    out.query_seconds += w->query_seconds();
    out.queried_rows += w->queried_rows();
  }
  for (threshold_result const& r : all) out.answers.push_back({r.suppkey_below, r.sum_cents, r.rows});
  out.load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() - out.query_seconds;
  job::timeline_mark("answer merged");
  return out;  // the workers go now: their device memory and streams are freed
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
