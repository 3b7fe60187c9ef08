// SPDX-License-Identifier: Apache-2.0
// A CUDA build made with ROWSCAN_HOST_SYSTEM=OFF has no host engine (rowscan/engine.hpp).
#include "rowscan/engine.hpp"

namespace rowscan {

engine const* host_engine() { return nullptr; }

}  // namespace rowscan
