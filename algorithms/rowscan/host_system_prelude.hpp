// SPDX-License-Identifier: Apache-2.0
// rowscan/host_system_prelude.hpp: read first (-include) by every file of the CUDA build's second copy
// of the compositions, the one for Thrust's OpenMP system (cmake/rowscan_host_system.cmake).
//
// One binary holds both copies, so no name may mean two things in it: that copy is compiled with
// -Drowscan=rowscan_host (its rowscan:: is rowscan_host::) and THRUST_CUB_WRAPPED_NAMESPACE
// (its Thrust and CUB live in rowscan_host_cccl::). These aliases let the same sources keep writing
// thrust:: and cub::.
#pragma once

namespace rowscan_host_cccl {
namespace thrust {}
namespace cub {}
}  // namespace rowscan_host_cccl

namespace thrust = rowscan_host_cccl::thrust;
namespace cub = rowscan_host_cccl::cub;
