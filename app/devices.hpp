// SPDX-License-Identifier: Apache-2.0
// app/devices.hpp: --devices, the engine a job runs on (rowscan/engine.hpp; rowscan/job/devices.hpp has
// the rules).
#pragma once

#include "rowscan/inputs/hand_over.hpp"

#include "rowscan/engine.hpp"

#include <cxxopts.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rowscan::app {

/// Adds --devices (and the testing option --gpu-joins-after) to a command's options.
void add_devices_option(cxxopts::Options& options);

/// The engine that runs the job of a parsed command line: the host's, or the GPU's (which it does not
/// start yet: hand_over_choice does). files are the input operands; stats says whether to tell stderr
/// why a GPU was passed over. Throws usage_error for a bad --devices or one this build cannot run,
/// rowscan::error when --devices gpu cannot be met.
engine const& choose_engine(cxxopts::ParseResult const& args, std::vector<std::string> const& files, bool stats);

/// The engine choose_engine chose last, or nullptr before it did (for the wording of errors).
engine const* chosen_engine();

/// Makes the GPU that --devices names current when `on` is the GPU's engine, for a job without a
/// hand-over such as --explain.
void use_chosen_gpu(cxxopts::ParseResult const& args, engine const& on);

/// The GPUs whose workers run the job (job_options::gpus) when --devices names several (gpu:N,M,...,
/// gpu:all on a machine with more than one) and `on` is the GPU's engine; empty otherwise (one worker,
/// on the GPU that use_chosen_gpu or hand_over_choice makes current).
std::vector<int> chosen_gpus(cxxopts::ParseResult const& args, engine const& on);

/// The hand-over of a job run by `taker` (rowscan/inputs/hand_over.hpp: host workers and the GPUs on one
/// queue), if it has one: under --devices cpu+gpu with a GPU engine and one process (MPI ranks share a
/// node's cores already), or in any build when a test forces one with --gpu-joins-after K. options are
/// the job's: its GPUs (job_options::gpus, from chosen_gpus). A GPU taker is started here too: in the
/// hand-over's get_ready, so that host workers fold while the contexts are made, or now when there is
/// no hand-over.
std::optional<inputs::hand_over> hand_over_choice(cxxopts::ParseResult const& args, engine const& taker,
                                                   job::job_options const& options);

}  // namespace rowscan::app
