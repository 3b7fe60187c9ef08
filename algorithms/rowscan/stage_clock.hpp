// SPDX-License-Identifier: Apache-2.0
// rowscan/stage_clock.hpp: per-stage wall times for --stats.
#pragma once

#include "rowscan/context.hpp"

#include <chrono>

namespace rowscan {

/// Adds the seconds since the last lap to a stage's total. With exact timing on it first waits for the
/// device, so asynchronous work is charged to the stage that enqueued it.
class stage_clock {
 public:
  stage_clock(context const& ctx, bool synchronize) : ctx_(ctx), synchronize_(synchronize) {}
  void lap(double& stage_total) {
    if (synchronize_) ctx_.synchronize();
    auto const now = std::chrono::steady_clock::now();
    stage_total += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  context const& ctx_;
  bool synchronize_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace rowscan
