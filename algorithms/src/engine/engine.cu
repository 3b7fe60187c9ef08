// SPDX-License-Identifier: Apache-2.0
// This system's engine (rowscan/engine.hpp): the workloads' jobs and --explain, on Thrust's CUDA system
// (gpu_engine) or on a host system (host_engine), whichever this translation unit is compiled for.
#include "rowscan/engine.hpp"

#include "rowscan/config.hpp"
#include "rowscan/group/summarize.hpp"
#include "rowscan/job/gpu.hpp"
#include "rowscan/lineitem/explain.hpp"
#include "rowscan/lineitem/summarize.hpp"
#include "rowscan/stations/explain.hpp"
#include "rowscan/stations/summarize.hpp"

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN
namespace {

class system_engine final : public engine {
 public:
  char const* system_name() const override {
#if ROWSCAN_HAS_CUB
    return "CUDA";
#elif THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP
    return "OMP";
#else
    return "CPP";
#endif
  }
  bool on_gpu() const override { return ROWSCAN_HAS_CUB; }

  std::optional<std::string> unavailable(int gpu_index) const override {
    return ROWSCAN_HAS_CUB ? job::gpu_unavailable(gpu_index) : std::nullopt;
  }
  void use(int gpu_index) const override { job::use_gpu(gpu_index); }
  int gpu_count() const override { return ROWSCAN_HAS_CUB ? job::gpu_count() : 0; }
  void start(std::vector<int> const& gpus) const override { job::start_gpus(gpus); }

  stations::summary stations(job::input_sequence& inputs, stations::summarize_options const& options) const override {
    return stations::summarize_each(inputs, options);
  }
  lineitem::summary lineitem(job::input_sequence& inputs, lineitem::summarize_options const& options) const override {
    return lineitem::summarize_each(inputs, options);
  }
  group::summary group(job::input_sequence& inputs, group::summarize_options const& options) const override {
    return group::summarize_each(inputs, options);
  }
  group::explained_group explain_group(std::string const& text, std::string const& label,
                                       group::summarize_options const& options) const override {
    return group::explain(text, label, options);
  }
  stations::explained_stations explain_stations(std::string const& text, std::string const& label) const override {
    return stations::explain(text, label);
  }
  lineitem::explained_lineitem explain_lineitem(std::string const& text, std::string const& label,
                                               std::vector<std::uint64_t> const& thresholds) const override {
    return lineitem::explain(text, label, thresholds);
  }
};

}  // namespace

/// This system's engine: one for the whole process (its globals, such as the pinned-memory record, are its own).
engine const& this_system_engine() {
  static system_engine const instance;
  return instance;
}

ROWSCAN_SYSTEM_END

#if ROWSCAN_HAS_CUB
engine const* gpu_engine() { return &this_system_engine(); }
#else
engine const* host_engine() { return &this_system_engine(); }
#endif

}  // namespace rowscan
