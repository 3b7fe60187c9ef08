// SPDX-License-Identifier: Apache-2.0
// rowscan/hd.hpp: ROWSCAN_HD marks functions that run on the device system as well as the host.
// Plain C++ (no Thrust), so host-only sources of a CUDA build can share those functions.
#pragma once

#if defined(__CUDACC__)
#  define ROWSCAN_HD __host__ __device__
#else
#  define ROWSCAN_HD
#endif
