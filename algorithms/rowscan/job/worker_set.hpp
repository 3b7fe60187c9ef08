// SPDX-License-Identifier: Apache-2.0
// rowscan/job/worker_set.hpp: a workload's workers for one run, one per processor, each with a context
// of its own; what run_blocks is given, and where the workload takes the partial answers from.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/job/driver.hpp"

#include <cstddef>
#include <memory>
#include <vector>

namespace rowscan::job {
ROWSCAN_SYSTEM_BEGIN

template <class Worker>
class worker_set {
 public:
  /// worker_count(options) workers, each made by make(ctx) on a context of its own (start_context).
  template <class MakeWorker>
  worker_set(job_options const& options, run_report& report, MakeWorker make) {
    std::size_t const n = worker_count(options);
    contexts_.reserve(n);  // the slots point into it
    for (std::size_t w = 0; w < n; ++w) {
      contexts_.push_back(start_context(options, report));
      workers_.push_back(std::make_unique<Worker>(make(contexts_.back())));
      slots_.push_back({&contexts_.back(), workers_.back().get()});
    }
  }

  std::vector<worker_slot> const& slots() const { return slots_; }
  /// The context the workload merges and formats with after the run (the first worker's).
  context const& first_context() const { return contexts_.front(); }
  std::vector<std::unique_ptr<Worker>> const& workers() const { return workers_; }

 private:
  std::vector<context> contexts_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<worker_slot> slots_;
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::job
