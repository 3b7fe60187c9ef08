// SPDX-License-Identifier: Apache-2.0
// --devices (devices.hpp): the host engine or the GPU engine, whichever this build has.
#include "devices.hpp"

#include "rowscan/process/answer_first.hpp"
#include "command_line.hpp"
#include "option_values.hpp"
#include "rowscan/process/ranks.hpp"

#include "rowscan/error.hpp"
#include "rowscan/inputs/sources.hpp"
#include "rowscan/job/devices.hpp"
#include "rowscan/job/timeline.hpp"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace rowscan::app {
namespace {

job::device_choice device_choice_option(cxxopts::ParseResult const& args) {
  if (args.count("devices") == 0) return {};
  auto const text = args["devices"].as<std::string>();
  auto const choice = job::parse_device_choice(text);
  if (!choice) throw usage_error("--devices: '" + text + "' is not one of auto, cpu, gpu, gpu:N, gpu:N,M,..., gpu:all, cpu+gpu");
  return *choice;
}

/// The input's bytes as far as they are known up front: its files' sizes (inputs.hpp resolves
/// directories and reports a missing or unreadable file, as the job would), standard input's when it is
/// a regular file; a pipe is unbounded.
std::uint64_t known_input_bytes(std::vector<std::string> const& operands, bool recursive) {
  std::uint64_t total = 0;
  for (inputs::input_source const& source : inputs::resolve_inputs(operands, {recursive, false}).sources) {
    std::uint64_t bytes = source.size;
    if (source.path == "-") {
      struct stat status {};
      bytes = ::fstat(STDIN_FILENO, &status) == 0 && S_ISREG(status.st_mode) ? static_cast<std::uint64_t>(status.st_size)
                                                                             : UINT64_MAX;
    }
    total = bytes > UINT64_MAX - total ? UINT64_MAX : total + bytes;
  }
  return total;
}

}  // namespace

void add_devices_option(cxxopts::Options& options) {
  options.add_options()(
      "devices",
      "the processors that run the job: auto (the default: the host's cores for inputs that they finish "
      "as soon as a GPU would, or when no GPU is usable; the GPU otherwise), cpu, gpu (the first GPU), gpu:N, "
      "gpu:N,M,... (a worker on each GPU named, all fed from one queue), gpu:all (every GPU), "
      "or cpu+gpu (host workers start on the input at once, and the GPUs take it over on one queue "
      "once they are ready). An input known to hold no bytes is answered on the host's cores whatever WHERE "
      "names, and no GPU is touched",
      cxxopts::value<std::string>(), "WHERE");
  options.add_options(testing_group)(
      "gpu-joins-after", "host workers take the input's blocks from one queue at once, and the GPU (the cpu "
                         "build: a second set of host workers) joins them once K blocks were handed out: "
                         "forces a split of the work",
      cxxopts::value<std::string>(), "K");
}

void use_chosen_gpu(cxxopts::ParseResult const& args, engine const& on) {
  if (on.on_gpu()) on.use(device_choice_option(args).first_gpu());
}

std::vector<int> chosen_gpus(cxxopts::ParseResult const& args, engine const& on) {
  if (!on.on_gpu()) return {};
  auto const choice = device_choice_option(args);
  std::vector<int> gpus = choice.gpus;
  if (choice.all_gpus) {
    for (int g = 0; g < on.gpu_count(); ++g) gpus.push_back(g);
  }
  if (gpus.size() < 2) return {};  // one worker, on the GPU made current (use_chosen_gpu, hand_over_choice)
  return gpus;
}

std::optional<inputs::hand_over> hand_over_choice(cxxopts::ParseResult const& args, engine const& taker,
                                                   job::job_options const& options) {
  inputs::hand_over how;
  how.host = host_engine();
  // Relieved once a GPU takes part, the host's workers may take every core while the GPUs start.
  how.taker_relieves_host = job::gpus_relieve_host_workers();
  how.host_workers = how.taker_relieves_host ? job::host_worker_count()
                                             : std::min(job::host_worker_count(), job::max_host_workers_beside_gpus);
  auto const choice = device_choice_option(args);
  // cudaSetDevice makes the device's context (CUDA 12 and later): the start-up the host workers hide.
  // Several GPUs (options.gpus) start side by side, the first of them current after; making one
  // current first would make its context alone, before the others start.
  auto get_gpu_ready = [gpu = choice.first_gpu(), gpus = options.gpus, &taker] {
    if (gpus.empty()) taker.use(gpu);
    taker.start(gpus);
    job::timeline_mark("GPU context made");
  };
  if (taker.on_gpu()) how.get_ready = get_gpu_ready;
  if (auto const text = option_text(args, "gpu-joins-after")) {
    if (how.host == nullptr) {
      throw usage_error("--gpu-joins-after: this rowscan was built without its host engine (ROWSCAN_HOST_SYSTEM=OFF)");
    }
    how.join_after_blocks = static_cast<std::size_t>(parse_whole_number("gpu-joins-after", *text, 0, UINT64_MAX));
    return how;
  }
  bool const both = choice.kind == job::device_choice::cpu_and_gpu ||
                    (choice.kind == job::device_choice::automatic && job::auto_starts_on_the_host);
  if (taker.on_gpu() && how.host != nullptr && both && ranks::count() == 1) return how;
  if (taker.on_gpu()) get_gpu_ready();  // no hand-over: the GPU alone, from now
  return std::nullopt;
}

namespace {

engine const* last_choice = nullptr;

/// choose_engine's rules (rowscan/job/devices.hpp).
engine const& engine_for(cxxopts::ParseResult const& args, std::vector<std::string> const& files, bool stats) {
  auto const choice = device_choice_option(args);
  engine const* const host = host_engine();
  engine const* const gpu = gpu_engine();
  if (gpu == nullptr) {
    // The cpu build: the host's cores, and no GPU to name.
    bool const names_a_gpu = choice.kind == job::device_choice::gpu || choice.kind == job::device_choice::cpu_and_gpu;
    if (names_a_gpu) {
      throw usage_error("--devices " + args["devices"].as<std::string>() +
                        ": this rowscan was built without CUDA (the cpu preset); it runs on the host's cores");
    }
    return *host;
  }
  if (choice.kind == job::device_choice::cpu) {
    if (host == nullptr) {
      throw usage_error("--devices cpu: this rowscan was built without its host system (ROWSCAN_HOST_SYSTEM=OFF)");
    }
    return *host;
  }
  // --explain reads at most 4096 bytes: always a small input.
  bool const explain = args.count("explain") > 0;
  std::uint64_t const input_bytes = explain ? 0 : known_input_bytes(files, args.count("recursive") > 0);
  bool const may_stay_on_host = choice.kind == job::device_choice::automatic || choice.kind == job::device_choice::cpu_and_gpu;
  if (may_stay_on_host && host != nullptr && (explain || input_bytes <= job::small_input_bytes(job::host_worker_count()))) {
    return *host;
  }
  // Nothing to fold: an input known to hold no bytes is answered on the host, and no GPU is touched, not
  // even to count them: the driver's first call alone costs more than such a run (docs/performance.md,
  // "One run's timeline").
  if (host != nullptr && !explain && input_bytes == 0) {
    if (stats) std::cerr << "rowscan: the input holds no bytes: answered on the host's cores, no GPU touched\n";
    return *host;
  }
  process::answer_first(true);  // the GPU's teardown after the answer is not the user's wait (answer_first.hpp)
  std::optional<std::string> problem = gpu->unavailable(choice.first_gpu());
  for (int const g : choice.gpus) {
    if (!problem) problem = gpu->unavailable(g);
  }
  if (problem) {
    if (choice.kind == job::device_choice::gpu || host == nullptr) {
      throw error("no usable GPU: " + *problem + (host != nullptr ? "; --devices cpu runs on the host's cores" : std::string()));
    }
    if (stats) std::cerr << "rowscan: no usable GPU (" << *problem << "): running on the host's cores\n";
    return *host;
  }
  return *gpu;  // made current by hand_over_choice, while host workers fold if they can
}

}  // namespace

engine const& choose_engine(cxxopts::ParseResult const& args, std::vector<std::string> const& files, bool stats) {
  process::answer_first(false);  // forks here only when a test asks it to (ROWSCAN_ANSWER_FIRST=1)
  engine const& chosen = engine_for(args, files, stats);
  job::timeline_mark(chosen.on_gpu() ? "engine chosen: GPU" : "engine chosen: host");
  last_choice = &chosen;
  return chosen;
}

engine const* chosen_engine() { return last_choice; }

}  // namespace rowscan::app
