// SPDX-License-Identifier: Apache-2.0
// rowscan/stage.hpp: naming the stages of a composition, for --stats and for Nsight.
//
//   { stage_scope s(ctx, "sort"); thrust::sort_by_key(ctx.policy(), ...); }
//
// A scope marks one stage of the work a composition enqueues. Under CUDA it is an NVTX range, so
// Nsight Systems shows the stages on the timeline. When the context has a stage_observer (--stats),
// the scope's end first waits for the stream, so that asynchronous work is charged to the stage that
// enqueued it, and then tells the observer how long the stage took. Without an observer a scope
// never waits: the algorithms' signatures and their speed do not depend on whether anyone times them.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/stage_observer.hpp"

#include <chrono>
#include <exception>

#if ROWSCAN_HAS_CUB
#  include <nvtx3/nvToolsExt.h>
#endif

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

/// One stage of a composition, from construction to destruction (see the file's comment).
class stage_scope {
 public:
  stage_scope(context const& ctx, char const* name)
      : ctx_(ctx), name_(name), exceptions_(std::uncaught_exceptions()), start_(std::chrono::steady_clock::now()) {
#if ROWSCAN_HAS_CUB
    nvtxRangePushA(name);
#endif
  }
  ~stage_scope() {
#if ROWSCAN_HAS_CUB
    nvtxRangePop();
#endif
    stage_observer* const observer = ctx_.observer();
    if (observer == nullptr || std::uncaught_exceptions() > exceptions_) return;  // unwinding: not a stage's time
    try {
      ctx_.synchronize();
    } catch (...) {
      return;  // a device fault stays sticky: the next synchronization reports it
    }
    observer->stage_done(name_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }
  stage_scope(stage_scope const&) = delete;
  stage_scope& operator=(stage_scope const&) = delete;

 private:
  context const& ctx_;
  char const* name_;
  int exceptions_;
  std::chrono::steady_clock::time_point start_;
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan
