// SPDX-License-Identifier: Apache-2.0
// rowscan/job/worker_set.hpp: a workload's workers for one run, one per processor, each with a context
// of its own (under CUDA, on its own GPU: worker_devices); what a run is lent (lent_workers.hpp), and where the
// workload takes the partial answers from.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/job/driver.hpp"
#include "rowscan/job/timeline.hpp"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

namespace rowscan::job {
ROWSCAN_SYSTEM_BEGIN

template <class Worker>
class worker_set {
 public:
  /// A worker per device of worker_devices(options), each made by make(ctx) on a context of its own
  /// (start_context) with its device current. The first worker's device is current afterwards. Several
  /// GPUs' contexts are best made side by side beforehand (engine::start; the CLI does).
  template <class MakeWorker>
  worker_set(job_options const& options, run_report& report, MakeWorker make) {
    std::vector<int> const devices = worker_devices(options);
    contexts_.reserve(devices.size());  // the slots point into it
    for (int const device : devices) {
      use_device(device);
      contexts_.push_back(start_context(options, report));
      workers_.push_back(std::make_unique<Worker>(make(contexts_.back())));
      slots_.push_back({&contexts_.back(), workers_.back().get(), device});
    }
    use_device(devices.front());
    timeline_mark("workers made");
  }
  /// Each worker and its context go with their own device current (their memory and streams are its).
  ~worker_set() {
    while (!workers_.empty()) {
      try {
        use_device(slots_.back().device);
      } catch (...) {  // a device that cannot be made current: free what can be freed from here
      }
      workers_.pop_back();
      contexts_.pop_back();
      slots_.pop_back();
    }
  }
  worker_set(worker_set const&) = delete;
  worker_set& operator=(worker_set const&) = delete;

  std::vector<worker_slot> const& slots() const { return slots_; }
  /// The context the workload merges and formats with after the run (the first worker's).
  context const& first_context() const { return contexts_.front(); }
  /// Whether the workers share one device's memory, so that their partial answers merge there: host
  /// workers, or one GPU worker. Workers of a GPU list (job_options::gpus) each have their own.
  bool on_one_device() const {
    return std::all_of(slots_.begin(), slots_.end(), [](worker_slot const& slot) { return slot.device == no_device; });
  }
  std::vector<std::unique_ptr<Worker>> const& workers() const { return workers_; }

 private:
  std::vector<context> contexts_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<worker_slot> slots_;
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::job
