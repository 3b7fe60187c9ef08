// SPDX-License-Identifier: Apache-2.0
// app/devices.hpp: --devices, the processor a job runs on (rowscan/job/devices.hpp has the rules).
#pragma once

#include "hand_over.hpp"

#include <cxxopts.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rowscan::app {

/// Adds --devices (and the testing option --hand-over-after) to a command's options.
void add_devices_option(cxxopts::Options& options);

/// Decides where the job of a parsed command line runs. True: on the host system's copy (the caller
/// returns run_on_host_system). False: here, on the GPU it selected (in the CUDA build) or the host
/// (in the cpu build). files are the input operands; stats says whether to tell stderr why a GPU was
/// passed over. Throws usage_error for a bad --devices, rowscan::error when --devices gpu cannot be met.
bool hand_to_host_system(cxxopts::ParseResult const& args, std::vector<std::string> const& files, bool stats);

/// Makes the GPU that --devices names current (the CUDA build's own copy; nothing elsewhere), for a
/// job without a hand-over such as --explain.
void use_chosen_gpu(cxxopts::ParseResult const& args);

/// The hand-over of a job kept here (hand_over.hpp), if it has one: under --devices auto in the CUDA
/// build's own copy, with one process (MPI ranks share a node's cores already); or in any build when
/// a test forces one with --hand-over-after K. chunk_size is the job's option (0: the default).
/// In the CUDA build's own copy it also starts the job's GPU: in the hand-over's get_ready, so that
/// host workers fold while the context is made, or now when there is no hand-over.
std::optional<hand_over> hand_over_choice(cxxopts::ParseResult const& args, std::string const& command,
                                          std::size_t chunk_size);

}  // namespace rowscan::app
