// SPDX-License-Identifier: Apache-2.0
// rowscan/stage_observer.hpp: who is told how long each stage of a composition took (stage.hpp).
// Plain C++, so the host-only code that prints --stats needs no Thrust.
#pragma once

namespace rowscan {

/// Told the wall time of every stage scope of a context that names it (context::observe_stages).
class stage_observer {
 public:
  virtual ~stage_observer() = default;
  /// The stage called name took seconds; called from the thread that ran it.
  virtual void stage_done(char const* name, double seconds) = 0;
};

}  // namespace rowscan
