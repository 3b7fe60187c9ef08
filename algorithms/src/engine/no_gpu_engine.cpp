// SPDX-License-Identifier: Apache-2.0
// A build without CUDA has no GPU engine (rowscan/engine.hpp).
#include "rowscan/engine.hpp"

namespace rowscan {

engine const* gpu_engine() { return nullptr; }

}  // namespace rowscan
