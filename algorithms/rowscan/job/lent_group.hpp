// SPDX-License-Identifier: Apache-2.0
// rowscan/job/lent_group.hpp: a workload's workers lent to a run by one engine, and their answer after it
// (compiled once). An engine does not run a job: it lends the run a group of workers (a lane group), and
// once every block is folded the group's partial answers are merged into one, on the group's system.
//
//   workload::lend(engine, options) --lent_group--> run_blocks(inputs, the group[, a GPU's joining]) --> answer(label)
//
// So one run may hold the groups of several engines: the host's workers from its first block and a GPU's
// once its context is made (rowscan/inputs/hand_over.hpp), their answers merged by the workload's merge.
#pragma once

#include "rowscan/job/devices.hpp"
#include "rowscan/job/one_thread_scope.hpp"
#include "rowscan/job/run_blocks.hpp"

#include <string>

namespace rowscan::job {

/// An engine's workers lent to a run, whose partial answers are the workload's (Partial: a job::run_report).
template <class Partial>
class lent_group {
 public:
  virtual ~lent_group() = default;
  /// The workers as the driver takes them.
  virtual lane_group const& lanes() const = 0;
  /// The report the run adds to when this group's run drives it (bytes, lines, shares, stage times).
  virtual Partial& report() = 0;
  /// Once the run is over (label: its last input's, for errors): the workers' partial answers merged,
  /// with the report. Called once.
  virtual Partial answer(std::string const& label) = 0;
};

/// lend(options): a workload's workers lent with this thread's OpenMP held to one, so that the host systems'
/// team is made after the run, for the answer, instead of idling beside the workers' threads
/// (one_thread_scope.hpp; docs/job-driver.md, "One queue for every input"). A host engine's workers are
/// counted first, their default being OpenMP's count of threads.
template <class Options, class Lend>
auto lend_with_one_thread(Options options, bool on_host, Lend const& lend) {
  if (on_host && options.workers == 0) options.workers = host_worker_count();
  one_thread_scope const workers_only;
  return lend(options);
}

/// The run of `inputs` with one group, and its answer.
template <class Partial>
Partial run_lent(input_sequence& inputs, job_options const& options, lent_group<Partial>& group) {
  std::string const label = run_blocks(inputs, options, group.lanes(), group.report());
  return group.answer(label);
}

}  // namespace rowscan::job
