// SPDX-License-Identifier: Apache-2.0
// A build without CUDA has no GPU engine (rowscan/engine.hpp).
#include "rowscan/engine.hpp"
#include "rowscan/session/kept_columns.hpp"
#include "rowscan/session/device_keeper.hpp"

namespace rowscan {

engine const* gpu_engine() { return nullptr; }

column_keeper const* gpu_column_keeper() { return nullptr; }

device_keeper const* gpu_keeper() { return nullptr; }

}  // namespace rowscan
