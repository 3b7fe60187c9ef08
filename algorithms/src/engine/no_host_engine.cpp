// SPDX-License-Identifier: Apache-2.0
// A CUDA build made with ROWSCAN_HOST_SYSTEM=OFF has no host engine (rowscan/engine.hpp).
#include "rowscan/engine.hpp"
#include "rowscan/session/kept_columns.hpp"

namespace rowscan {

engine const* host_engine() { return nullptr; }

column_keeper const* host_column_keeper() { return nullptr; }

}  // namespace rowscan
