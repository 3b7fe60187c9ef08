// SPDX-License-Identifier: Apache-2.0
// rowscan/job/stage_names.hpp: the --stats stages whose work differs by system, named for it. For the
// compositions' translation units only (.cu: nvcc under CUDA), since it reads rowscan/config.hpp.
#pragma once

#include "rowscan/config.hpp"

namespace rowscan::job {
ROWSCAN_SYSTEM_BEGIN

/// On a GPU, creating the device context; on the host systems, starting the workers (their context
/// and OpenMP threads).
constexpr char const* setup_stage = ROWSCAN_HAS_CUB ? "device setup" : "worker setup";
/// How the driver hands a block over: on a GPU, copying it to the device; on the host systems, waiting
/// for an idle worker, which folds the reader's block where it lies.
constexpr char const* hand_over_stage = ROWSCAN_HAS_CUB ? "copy to device" : "waiting for a worker";

ROWSCAN_SYSTEM_END
}  // namespace rowscan::job
