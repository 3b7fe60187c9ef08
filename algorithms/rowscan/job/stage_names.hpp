// SPDX-License-Identifier: Apache-2.0
// rowscan/job/stage_names.hpp: the --stats stages whose work differs by system, named for it. For the
// compositions' translation units only (.cu: nvcc under CUDA), since it reads rowscan/config.hpp.
#pragma once

#include "rowscan/config.hpp"

namespace rowscan::job {

/// On a GPU, creating the device context and copying a block to the device; on the host systems,
/// starting the workers (their context and OpenMP threads) and copying a block to a worker's own buffer.
constexpr char const* setup_stage = ROWSCAN_HAS_CUB ? "device setup" : "worker setup";
constexpr char const* copy_stage = ROWSCAN_HAS_CUB ? "copy to device" : "copy to worker";

}  // namespace rowscan::job
