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
#include "rowscan/job/lent_workers.hpp"
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

/// The workers lent to a run; with `kept`, each worker keeps its blocks' columns, and each worker's go there.
std::unique_ptr<job::lent_group<summary>> lend_with(summarize_options const& options, std::deque<column_store>* kept) {
  ROWSCAN_EXPECTS(!options.suppkey_below.empty(), "no l_suppkey threshold given");
  auto const start = std::chrono::steady_clock::now();
  summary out;
  out.times = job::stage_times(stage_names());
  out.chunk_size = job::chosen_chunk_size(options, {min_chunk_size, default_chunk_size});
  std::size_t const chunk_size = out.chunk_size;
  std::size_t const carried = std::min(chunk_size, max_carried_line);
  return job::lend_workers<worker>(
      options, std::move(out), {chunk_size, carried, walk_padding_bytes},
      [&](context const& ctx) {
        return worker(ctx, {options.suppkey_below, chunk_size, options.skip_invalid, kept != nullptr});
      },
      [start, kept](job::worker_set<worker>& workers, summary out, std::string const&) {
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
        out.load_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() - out.query_seconds;
        job::timeline_mark("answer merged");
        return out;
      });
}

}  // namespace

std::unique_ptr<job::lent_group<summary>> lend(summarize_options const& options) { return lend_with(options, nullptr); }

summary summarize_each(job::input_sequence& inputs, summarize_options const& options) {
  auto const workers = job::lend_with_one_thread(options, !ROWSCAN_HAS_CUB, lend);
  return job::run_lent(inputs, options, *workers);  // the workers go after the answer: their memory freed
}

summary summarize_keeping(job::input_sequence& inputs, summarize_options const& options,
                          std::deque<column_store>& kept) {
  auto const lend_keeping = [&kept](summarize_options const& counted) { return lend_with(counted, &kept); };
  auto const workers = job::lend_with_one_thread(options, !ROWSCAN_HAS_CUB, lend_keeping);
  return job::run_lent(inputs, options, *workers);
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem

// The `lineitem` entry's points on this file's system (rowscan/workload.hpp).
template <>
auto rowscan::lineitem::workload::lend(this_system, options const& o) -> lent {
  return lineitem::lend(o);
}

template <>
auto rowscan::lineitem::workload::explain_text(this_system, std::string const& text, std::string const& label,
                                               options const& o) -> explained {
  return lineitem::explain(text, label, o.suppkey_below);
}
