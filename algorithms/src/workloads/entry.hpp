// SPDX-License-Identifier: Apache-2.0
// The members of a workload's entry (rowscan/workload.hpp) that every workload shares: lend and explain call
// the per-system point of the engine chosen, with the tag of that engine's system, and run is the driver over
// lend's workers; merge is the
// merge_summaries beside the partial answer, and the answer of no input an empty one, unless the workload
// specializes them. Only rowscan_workloads' sources know which engines the build compiles (CMakeLists.txt
// here), so only they include this; each workload's source instantiates its entry.
#pragma once

#include "rowscan/engine.hpp"
#include "rowscan/error.hpp"
#include "rowscan/job/lent_group.hpp"
#include "rowscan/system_tag.hpp"
#include "rowscan/workload.hpp"

#include <string>
#include <utility>

#if !defined(ROWSCAN_GPU_ENGINE) || !defined(ROWSCAN_HOST_ENGINE)
#  error "entry.hpp is rowscan_workloads': the build says there which engines it compiles"
#endif

namespace rowscan::workloads {

/// call(tag) with the tag of `on`'s system: a generic lambda, instantiated only for the systems built.
template <class Call>
auto on_system(engine const& on, Call const& call) -> decltype(call(host_system_tag{})) {
#if ROWSCAN_GPU_ENGINE
  if (on.on_gpu()) return call(cuda_system_tag{});
#endif
#if ROWSCAN_HOST_ENGINE
  if (!on.on_gpu()) return call(host_system_tag{});
#endif
  throw error(std::string("this build has no engine on ") + on.system_name());
}

}  // namespace rowscan::workloads

namespace rowscan {

template <class Partial, class Options, class Explained>
Partial workload_entry<Partial, Options, Explained>::empty(Options const&) {
  return Partial{};
}

template <class Partial, class Options, class Explained>
Partial workload_entry<Partial, Options, Explained>::merge(Partial a, Partial const& b) {
  return merge_summaries(std::move(a), b);  // beside Partial, found by its namespace
}

template <class Partial, class Options, class Explained>
auto workload_entry<Partial, Options, Explained>::lend(engine const& on, Options const& options) -> lent {
  return job::lend_with_one_thread(options, !on.on_gpu(), [&](Options const& counted) {
    return workloads::on_system(on, [&](auto system) { return lend(system, counted); });
  });
}

template <class Partial, class Options, class Explained>
Partial workload_entry<Partial, Options, Explained>::run(engine const& on, job::input_sequence& inputs,
                                                         Options const& options) {
  return job::run_lent(inputs, options, *lend(on, options));  // the workers go after their answer
}

template <class Partial, class Options, class Explained>
Explained workload_entry<Partial, Options, Explained>::explain(engine const& on, std::string const& text,
                                                               std::string const& label, Options const& options) {
  return workloads::on_system(on, [&](auto system) { return explain_text(system, text, label, options); });
}

}  // namespace rowscan
