// SPDX-License-Identifier: Apache-2.0
// app/devices.hpp: --devices, the processor a job runs on (rowscan/job/devices.hpp has the rules).
#pragma once

#include <cxxopts.hpp>

#include <string>
#include <vector>

namespace rowscan::app {

/// Adds --devices to a command's options.
void add_devices_option(cxxopts::Options& options);

/// Decides where the job of a parsed command line runs. True: on the host system's copy (the caller
/// returns run_on_host_system). False: here, on the GPU it selected (in the CUDA build) or the host
/// (in the cpu build). files are the input operands; stats says whether to tell stderr why a GPU was
/// passed over. Throws usage_error for a bad --devices, rowscan::error when --devices gpu cannot be met.
bool hand_to_host_system(cxxopts::ParseResult const& args, std::vector<std::string> const& files, bool stats);

}  // namespace rowscan::app
