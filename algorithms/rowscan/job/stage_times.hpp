// rowscan/job/stage_times.hpp: seconds per named stage of a run, in the order the stages first ran.
#pragma once

#include "rowscan/stage_observer.hpp"

#include <string>
#include <utility>
#include <vector>

namespace rowscan::job {

/// The stage_observer of a run (--stats): each stage's total time. Stages named in advance keep that
/// order even if they never run (they show 0), so a workload's report always lists the same stages.
class stage_times final : public stage_observer {
 public:
  stage_times() = default;
  explicit stage_times(std::vector<std::string> const& declared) {
    for (std::string const& name : declared) add(name.c_str(), 0);
  }

  void stage_done(char const* name, double seconds) override { add(name, seconds); }

  /// Adds seconds to the stage called name (appended if new).
  void add(char const* name, double seconds) {
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
    for (auto const& stage : stages_) {
      if (stage.first == name) return stage.second;
    }
    return 0;
  }

  std::vector<std::pair<std::string, double>> const& stages() const { return stages_; }

 private:
  std::vector<std::pair<std::string, double>> stages_;
};

}  // namespace rowscan::job
