// SPDX-License-Identifier: Apache-2.0
// One GPU per node-local rank (rowscan/device_choice.hpp).
#include "rowscan/device_choice.hpp"

#include "rowscan/config.hpp"
#include "rowscan/cuda_check.hpp"

namespace rowscan {

void use_device_of_local_rank(int local_rank) {
#if ROWSCAN_HAS_CUB
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return;
  check_cuda(cudaSetDevice(local_rank % devices), "cudaSetDevice for this rank's GPU");
#else
  (void)local_rank;
#endif
}

}  // namespace rowscan
