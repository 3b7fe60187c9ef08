// SPDX-License-Identifier: Apache-2.0
// rowscan/system.hpp: the Thrust system a translation unit is compiled for, and the namespace that keeps
// its code apart from the other system's in one binary.
//
// The CUDA build links two engines (rowscan/engine.hpp): the compositions compiled by nvcc for Thrust's
// CUDA system, and the same sources compiled by the host compiler for its OpenMP system. Everything
// compiled per system is declared between ROWSCAN_SYSTEM_BEGIN and ROWSCAN_SYSTEM_END, an inline
// namespace named for the system (as Thrust and CUB version their own): rowscan::stations::worker is
// rowscan::stations::cuda_system::worker in one engine and rowscan::stations::host_system::worker in the
// other, while the code of both writes rowscan::stations::worker. What is compiled once (the CLI, the
// inputs, the formats, the reader) is declared outside it and shared by both.
//
// The second system's Thrust and CUB are wrapped too (THRUST_CUB_WRAPPED_NAMESPACE, set by
// cmake/rowscan_host_system.cmake), so that their templates, instantiated for two device systems, never
// share a symbol. rowscan::thrust names this translation unit's Thrust, wrapped or not.
#pragma once

#include <thrust/detail/config.h>

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#  define ROWSCAN_SYSTEM cuda_system
#else
#  define ROWSCAN_SYSTEM host_system
#endif

#define ROWSCAN_SYSTEM_BEGIN inline namespace ROWSCAN_SYSTEM {
#define ROWSCAN_SYSTEM_END }

namespace rowscan {
namespace thrust = THRUST_NS_QUALIFIER;
}  // namespace rowscan
