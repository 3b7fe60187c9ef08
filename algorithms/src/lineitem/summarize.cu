// SPDX-License-Identifier: Apache-2.0
// The `rowscan lineitem` job (rowscan/lineitem/summarize.hpp): the driver and one lineitem worker.
#include "rowscan/lineitem/summarize.hpp"
#include "rowscan/lineitem/explain.hpp"
#include "rowscan/lineitem/workload.hpp"
#include "rowscan/this_system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/error.hpp"
#include "rowscan/job/stage_names.hpp"
#include "rowscan/job/stage_times.hpp"
#include "rowscan/job/worker_set.hpp"
#include "rowscan/lineitem/worker.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
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
  // per worker. 4 MiB on the host: among the fastest chunks measured, at an eighth of 32 MiB's memory;
  // 64 MiB on a GPU: the fastest whole process of the sizes measured (docs/data/chunk_size_choice.csv,
  // docs/data/lineitem-h100.csv). Large blocks keep the reader's threads and the copy waiting on each other (a 512 MiB
  // block is a fifteenth of the file, and nothing overlaps the first and last); 64 MiB holds about 0.2 GB of device
  // memory (docs/performance.md, the memory table).
  return job::preferred_chunk_size(std::size_t{64} << 20, std::size_t{4} << 20);
}

summary summarize(int fd, std::string const& label, summarize_options const& options) {
  job::single_input input(fd, label, options.max_input_bytes);
  return summarize_each(input, options);
}

namespace {

/// summarize_each; with `kept`, each worker keeps its blocks' columns, and each worker's go there.
summary summarize_with(job::input_sequence& inputs, summarize_options const& options, std::deque<column_store>* kept) {
  ROWSCAN_EXPECTS(!options.suppkey_below.empty(), "no l_suppkey threshold given");
  auto const start = std::chrono::steady_clock::now();
  summary out;
  out.times = job::stage_times(stage_names());
  out.chunk_size = job::chosen_chunk_size(options, {min_chunk_size, default_chunk_size});
  job::worker_set<worker> workers(options, out, [&](context const& ctx) {
    return worker(ctx, {options.suppkey_below, out.chunk_size, options.skip_invalid, kept != nullptr});
  });
  std::size_t const carried = std::min(out.chunk_size, max_carried_line);
  job::run_blocks_each(inputs, options, {out.chunk_size, carried, walk_padding_bytes}, workers.slots(), out);

  partial_sums all;  // the workers' sums added up
  for (auto const& w : workers.workers()) {
    all = all.empty() ? w->partial() : merge(all, w->partial());
    out.rows += w->rows();
    out.query_seconds += w->query_seconds();
    out.queried_rows += w->queried_rows();
    if (kept != nullptr) {
      kept->push_back(w->take_kept());
    }
  }
  for (threshold_result const& r : all) out.answers.push_back({r.suppkey_below, r.sum_cents, r.rows});
  out.load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() - out.query_seconds;
  job::timeline_mark("answer merged");
  return out;  // the workers go now: their device memory and streams are freed
}

}  // namespace

summary summarize_each(job::input_sequence& inputs, summarize_options const& options) {
  return summarize_with(inputs, options, nullptr);
}

summary summarize_keeping(job::input_sequence& inputs, summarize_options const& options,
                          std::deque<column_store>& kept) {
  return summarize_with(inputs, options, &kept);
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem

// The `lineitem` entry's points on this file's system (rowscan/workload.hpp).
template <>
auto rowscan::lineitem::workload::job(this_system, job::input_sequence& inputs, options const& o) -> partial {
  return lineitem::summarize_each(inputs, o);
}

template <>
auto rowscan::lineitem::workload::explain_text(this_system, std::string const& text, std::string const& label,
                                               options const& o) -> explained {
  return lineitem::explain(text, label, o.suppkey_below);
}
