// SPDX-License-Identifier: Apache-2.0
// rowscan/device_choice.hpp: which GPU a process uses when several share a node (scale-out: one MPI
// rank per GPU). No Thrust here.
#pragma once

namespace rowscan {

/// Under CUDA, makes GPU local_rank % (the node's GPU count) this process's device, before any other
/// device call; a node without GPUs is left to fail at the first one, as without MPI. On the host
/// systems it does nothing.
void use_device_of_local_rank(int local_rank);

}  // namespace rowscan
