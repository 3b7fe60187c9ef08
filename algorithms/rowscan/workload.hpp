// SPDX-License-Identifier: Apache-2.0
// rowscan/workload.hpp: a workload as one entry, which the runs (rowscan/inputs/workloads.hpp) and the MPI
// ranks (rowscan/process/scale_out.hpp) take whole: neither they, the engines nor the job driver name one.
//
// A workload's entry is workload_entry<its partial answer, its options, its --explain> (the `workload` of
// rowscan/stations/workload.hpp, rowscan/lineitem/workload.hpp, rowscan/group/workload.hpp). Its members are
// defined by the workload, in two places:
//   - compiled once, in src/workloads/<name>.cpp: the wire form, and what src/workloads/entry.hpp gives
//     every entry unless the workload specializes it: run and explain, which call the per-system points of
//     the engine chosen (only there does the build say which engines it compiles), the merge
//     (merge_summaries beside the partial answer) and an empty answer of no input;
//   - compiled per Thrust system, beside its job (src/stations/summarize.cu, ...): lend and explain_text for
//     the system of that copy (rowscan/this_system.hpp): lend makes its workers, which the job driver (compiled
//     once) runs over the inputs, and merges their answers after the run (rowscan/job/lent_group.hpp).
// A new workload brings its entry, those definitions and its command; nothing else changes.
#pragma once

#include "rowscan/engine.hpp"
#include "rowscan/job/lent_group.hpp"
#include "rowscan/job/run_report.hpp"
#include "rowscan/system_tag.hpp"
#include "rowscan/wire.hpp"

#include <memory>
#include <string>

namespace rowscan {

template <class Partial, class Options, class Explained>
struct workload_entry {
  using partial = Partial;      ///< a partial answer (a job::run_report): of a piece, a share, a rank, the whole
  using options = Options;      ///< the job's options (a job::job_options)
  using explained = Explained;  ///< what --explain shows of a small text
  using lent = std::unique_ptr<job::lent_group<Partial>>;  ///< workers of one engine, lent to a run

  /// The answer of no input: the merge's identity.
  static Partial empty(Options const& options);
  /// The answers of two neighbouring inputs (a before b) as one; associative.
  static Partial merge(Partial a, Partial const& b);
  /// A partial answer as bytes between MPI ranks, and back: decode reads exactly what encode wrote.
  static void encode(wire_writer& out, Partial const& answer);
  static void decode(wire_reader& in, Partial& answer);

  /// The job over `inputs`, in turn, with one set of workers of engine `on` (run_lent over lend's).
  static Partial run(engine const& on, job::input_sequence& inputs, Options const& options);
  /// Engine `on`'s workers for a run (its current GPU's, under CUDA), to be run by the job driver.
  static lent lend(engine const& on, Options const& options);
  /// --explain of a small text (every stage's arrays, then its answer) on engine `on`.
  static Explained explain(engine const& on, std::string const& text, std::string const& label, Options const& options);

  /// lend and explain on one Thrust system, each defined by that system's copy of the workload's sources.
  static lent lend(cuda_system_tag, Options const& options);
  static lent lend(host_system_tag, Options const& options);
  static Explained explain_text(cuda_system_tag, std::string const& text, std::string const& label,
                                Options const& options);
  static Explained explain_text(host_system_tag, std::string const& text, std::string const& label,
                                Options const& options);
};

}  // namespace rowscan
