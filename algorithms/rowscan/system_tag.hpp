// SPDX-License-Identifier: Apache-2.0
// rowscan/system_tag.hpp: the Thrust systems an engine is compiled for, as types. A workload's entry
// (rowscan/workload.hpp) declares its per-system points once for each, and each system's copy of its
// sources defines them for its own (rowscan/this_system.hpp); no Thrust here.
#pragma once

namespace rowscan {

struct cuda_system_tag {};  ///< the GPU's engine: Thrust's CUDA system
struct host_system_tag {};  ///< the host's engine: Thrust's OpenMP or CPP system

}  // namespace rowscan
