// SPDX-License-Identifier: Apache-2.0
// rowscan/job/one_thread_scope.hpp: the calling thread's OpenMP regions held to one thread (compiled once).
#pragma once

namespace rowscan::job {

/// While it lives, the OpenMP regions that this thread starts run on one thread (the host systems' Thrust
/// runs on OpenMP; under CUDA nothing this thread does starts one). Host workers fold under it, the
/// parallelism being across blocks; a workload merges its workers' partial answers under it: they are small,
/// and a team's barriers cost more than the team saves on a busy machine (docs/stations.md, "6. Output";
/// docs/data/output_stage-cpu.csv); and a workload lends its workers under it, so that the OpenMP team is made
/// only after the run, for the output, not beside the workers' own threads (docs/job-driver.md, "One queue for
/// every input").
class one_thread_scope {
 public:
  one_thread_scope();
  ~one_thread_scope();
  one_thread_scope(one_thread_scope const&) = delete;
  one_thread_scope& operator=(one_thread_scope const&) = delete;

 private:
  int before_ = 0;
};

}  // namespace rowscan::job
