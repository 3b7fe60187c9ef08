// SPDX-License-Identifier: Apache-2.0
// rowscan/job/lent_workers.hpp: a workload's workers on this file's Thrust system, lent to a run as a
// lent_group (rowscan/job/lent_group.hpp): a worker per processor (worker_set.hpp), its lanes
// (driver.hpp's system_lanes), and the workload's answer of them once the run is over.
#pragma once

#include "rowscan/job/driver.hpp"
#include "rowscan/job/lent_group.hpp"
#include "rowscan/job/worker_set.hpp"
#include "rowscan/system.hpp"

#include <functional>
#include <memory>
#include <string>
#include <utility>

namespace rowscan::job {
ROWSCAN_SYSTEM_BEGIN

template <class Worker, class Partial>
class lent_workers final : public lent_group<Partial> {
 public:
  /// The workload's answer of its workers after the run: their partial answers merged into `report`.
  using answer_of = std::function<Partial(worker_set<Worker>& workers, Partial report, std::string const& label)>;

  /// A worker per device of worker_devices(options), each made by make(ctx) (worker_set), into a report that
  /// holds the run's chunk size and stage names; layout: how the workload cuts the input for them.
  template <class MakeWorker>
  lent_workers(job_options const& options, Partial report, block_layout const& layout, MakeWorker make,
               answer_of answer)
      : device_(current_device()),
        answer_(std::move(answer)),
        report_(std::move(report)),
        workers_(options, report_, make),
        lanes_(workers_.slots(), layout, report_.chunk_size) {}
  /// The workers go with the GPU that was current when they were made (a lent group may be made on
  /// another thread than the one that lets it go).
  ~lent_workers() override {
    try {
      use_device(device_);
    } catch (...) {  // a device that cannot be made current: free what can be freed from here
    }
  }
  lent_workers(lent_workers const&) = delete;
  lent_workers& operator=(lent_workers const&) = delete;

  lane_group const& lanes() const override { return lanes_; }
  Partial& report() override { return report_; }
  Partial answer(std::string const& label) override {
    use_device(device_);
    return answer_(workers_, std::move(report_), label);
  }

 private:
  int device_;
  answer_of answer_;  // before the workers: what it holds (state the workers point to) goes after them
  Partial report_;
  worker_set<Worker> workers_;
  system_lanes lanes_;
};

/// lent_workers as the run takes them.
template <class Worker, class Partial, class MakeWorker>
std::unique_ptr<lent_group<Partial>> lend_workers(job_options const& options, Partial report,
                                                  block_layout const& layout, MakeWorker make,
                                                  typename lent_workers<Worker, Partial>::answer_of answer) {
  return std::make_unique<lent_workers<Worker, Partial>>(options, std::move(report), layout, make, std::move(answer));
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::job
