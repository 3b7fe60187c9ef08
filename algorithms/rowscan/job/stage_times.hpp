// SPDX-License-Identifier: Apache-2.0
// rowscan/job/stage_times.hpp: seconds per named stage of a run, in the order the stages first ran.
#pragma once

#include "rowscan/stage_observer.hpp"

#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace rowscan::job {

/// The stage_observer of a run (--stats): each stage's total time, added up over every worker (so with
/// several workers the totals are thread-seconds). Stages named in advance keep that order even if
/// they never run (they show 0), so a workload's report always lists the same stages.
class stage_times final : public stage_observer {
 public:
  stage_times() = default;
  explicit stage_times(std::vector<std::string> const& declared) {
    for (std::string const& name : declared) add(name.c_str(), 0);
  }
  stage_times(stage_times const& other) : stages_(other.stages()) {}
  stage_times& operator=(stage_times const& other) {
    if (this != &other) {
      auto copy = other.stages();
      std::lock_guard<std::mutex> lock(mutex_);
      stages_ = std::move(copy);
    }
    return *this;
  }

  void stage_done(char const* name, double seconds) override { add(name, seconds); }

  /// Adds seconds to the stage called name (appended if new); workers may call it at once.
  void add(char const* name, double seconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& stage : stages_) {
      if (stage.first == name) {
        stage.second += seconds;
        return;
      }
    }
    stages_.emplace_back(name, seconds);
  }

  /// The stage's total, 0 if it never ran.
  double seconds(char const* name) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto const& stage : stages_) {
      if (stage.first == name) return stage.second;
    }
    return 0;
  }

  /// Every stage and its seconds, in order (a copy: workers may still be adding).
  std::vector<std::pair<std::string, double>> stages() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stages_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::pair<std::string, double>> stages_;
};

}  // namespace rowscan::job
