// SPDX-License-Identifier: Apache-2.0
// The `rowscan lineitem` job (rowscan/lineitem/summarize.hpp): the driver and one lineitem worker.
#include "rowscan/lineitem/summarize.hpp"

#include "rowscan/context.hpp"
#include "rowscan/error.hpp"
#include "rowscan/job/worker_set.hpp"
#include "rowscan/lineitem/worker.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

namespace rowscan::lineitem {

std::vector<std::string> stage_names() {
  return {"device setup", "reader setup", "read (waiting)", "copy to device", "find records", "find fields", "parse",
          "query"};
}

std::size_t default_chunk_size() {
  // A block's device arrays take about 2.1 bytes per byte of text (records, '|' positions, statuses,
  // the block's columns) beside the two text slots. On the host, copy_if is transform + serial scan +
  // scatter with two 8-byte temporaries per byte of text: a 512 MiB chunk faults in 8 GiB, and a 1 GB
  // file loaded 2.5x slower than with 32 MiB chunks.
  return job::preferred_chunk_size(std::size_t{512} << 20, std::size_t{32} << 20);
}

summary summarize(int fd, std::string const& label, summarize_options const& options) {
  ROWSCAN_EXPECTS(!options.suppkey_below.empty(), "no l_suppkey threshold given");
  auto const start = std::chrono::steady_clock::now();
  summary out;
  out.times = job::stage_times(stage_names());
  out.chunk_size = job::chosen_chunk_size(options, {min_chunk_size, default_chunk_size});
  job::worker_set<worker> workers(options, out, [&](context const& ctx) {
    return worker(ctx, {options.suppkey_below, out.chunk_size, options.skip_invalid});
  });
  std::size_t const carried = std::min(out.chunk_size, max_carried_line);
  job::run_blocks(fd, label, options, {out.chunk_size, carried, 0}, workers.slots(), out);

  partial_sums all;  // the workers' sums added up
  for (auto const& w : workers.workers()) {
    all = all.empty() ? w->partial() : merge(all, w->partial());
    out.rows += w->rows();
    out.query_seconds += w->query_seconds();
  }
  for (threshold_result const& r : all) out.answers.push_back({r.suppkey_below, r.sum_cents, r.rows});
  out.load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() - out.query_seconds;
  return out;
}

}  // namespace rowscan::lineitem
