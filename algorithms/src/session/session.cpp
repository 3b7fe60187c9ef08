// SPDX-License-Identifier: Apache-2.0
// A session: one engine for many queries, and the cache of their files (rowscan/session.hpp).
#include "rowscan/session.hpp"

#include "rowscan/error.hpp"
#include "rowscan/inputs/fold_share.hpp"
#include "rowscan/inputs/outcome.hpp"
#include "rowscan/inputs/workloads.hpp"
#include "rowscan/job/devices.hpp"
#include "rowscan/lineitem/workload.hpp"
#include "rowscan/session/device_keeper.hpp"
#include "rowscan/stations/workload.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

namespace rowscan {

struct session::state {
  engine const* on;
  unsigned threads;
  resident::resident_cache cache;
};

namespace {

/// The engine `devices` names (session_options::devices).
engine const& engine_for(std::string const& devices) {
  engine const* const gpu = gpu_engine();
  if (devices == "cpu" || (devices == "auto" && (gpu == nullptr || gpu->unavailable(job::default_gpu)))) {
    if (host_engine() == nullptr) throw error("devices: this build has no engine for the host's cores");
    return *host_engine();
  }
  if (devices == "gpu" || devices == "auto") {
    if (gpu == nullptr) throw error("devices: this build has no GPU engine (it is the cpu build)");
    if (auto const why = gpu->unavailable(job::default_gpu)) throw error("devices: no usable GPU: " + *why);
    return *gpu;
  }
  throw usage_error("devices: '" + devices + "' is not auto, cpu or gpu");
}

/// A quarter of MemAvailable (/proc/meminfo), or 0 if it cannot be read.
std::uint64_t quarter_of_available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t kib = 0;
    if (fields >> name >> kib && name == "MemAvailable:") return kib * 1024 / 4;
  }
  return 0;
}

/// Whether a source's bytes may be kept: a plain regular file read whole (not standard input, not
/// compressed, no CRs dropped, no header read past), whose text is its bytes.
bool cacheable(inputs::input_source const& source) {
  return source.path != "-" && source.splittable && !source.crlf && !source.header;
}

/// Whether every operand is a file whose bytes the cache holds as the file is now, read as it is read
/// (no --crlf): then nothing resolve_inputs would find (a directory, an error) can differ.
bool all_resident(resident::resident_cache const& cache, std::vector<std::string> const& operands,
                  inputs::input_settings const& settings) {
  if (operands.empty() || settings.crlf || settings.header || settings.whole_files) return false;
  for (std::string const& path : operands) {
    if (path == "-" || !cache.holds(path)) return false;
  }
  return true;
}

/// One query: the CLI's run of one process (rowscan/process/scale_out.hpp, summarize_inputs) over the operands, each
/// cacheable file read from its resident text.
template <class Summary, class Options>
Summary run_query(session::state& s, std::vector<std::string> const& operands, Options options,
                  query_settings const& settings, inputs::workload<Summary, Options> const& work) {
  if (s.threads != 0) {
    options.workers = s.threads;
    options.reader_threads = s.threads;
  }
  if (settings.cancel != nullptr) {
    if (settings.cancel->load()) throw cancelled();
    // Called by the driver after each block it hands out: the run stops there, as on a read error.
    options.progress = [cancel = settings.cancel, before = std::move(options.progress)](std::uint64_t done) {
      if (before) before(done);
      if (cancel->load(std::memory_order_relaxed)) throw cancelled();
    };
  }
  std::vector<inputs::input_source> sources;
  if (all_resident(s.cache, operands, settings.inputs)) {
    // Each operand is a file whose bytes the cache holds, unchanged: resolve_inputs would open it to
    // classify it (it was text), and the query reads nothing of it.
    for (std::string const& path : operands) sources.push_back({path, 0, true, false});
    if (settings.warnings != nullptr) settings.warnings->clear();
  } else {
    inputs::resolved_inputs resolved = inputs::resolve_inputs(operands, settings.inputs);
    if (settings.warnings != nullptr) *settings.warnings = inputs::skipped_warning(resolved);
    sources = std::move(resolved.sources);
  }
  std::vector<resident::resident_cache::held> held;
  try {
    for (inputs::input_source& source : sources) {
      if (!cacheable(source)) continue;
      resident::resident_cache::held h = s.cache.acquire(source.path, inputs::source_label(source));
      if (h.text) {
        source.resident_fd = h.text->fd();
        source.size = h.text->bytes();
      }
      held.push_back(std::move(h));
    }
    // Every file on the GPU already: two workers fold its copy, one's kernels running while the other waits for
    // a result on the host (the driver's lanes on one GPU, as --devices gpu:0,0 runs them).
    bool const all_on_device =
        !held.empty() && held.size() == sources.size() &&
        std::all_of(held.begin(), held.end(), [](auto const& h) { return h.text && h.text->on_device; });
    if (all_on_device && options.gpus.empty()) options.gpus = {job::default_gpu, job::default_gpu};
    std::vector<inputs::input_piece> const all = inputs::share_of(sources, 0, 1);
    job::tally outcome;
    Summary answer = inputs::fold_share(sources, all, options, work, nullptr, outcome, /*rethrow=*/true);
    if (auto const stop = inputs::stop_message(outcome, sources)) throw error(*stop);
    answer.skipped = inputs::skipped_record(outcome, sources);
    for (resident::resident_cache::held const& h : held) s.cache.keep(h);
    return answer;
  } catch (...) {
    for (resident::resident_cache::held const& h : held) s.cache.release(h);  // nothing of a failed query is kept
    throw;
  }
}

}  // namespace

std::uint64_t default_cache_bytes(engine const& on) {
  std::uint64_t const host = quarter_of_available_memory();
  device_keeper const* const keeper = on.on_gpu() ? gpu_keeper() : nullptr;
  return keeper != nullptr ? std::min(host, keeper->free_bytes() / 2) : host;
}

std::uint64_t default_cache_bytes() { return default_cache_bytes(engine_for("auto")); }

session::session(session_options const& options) {
  engine const& on = engine_for(options.devices);
  on.start({});  // a GPU's context now, not in the first query
  unsigned const threads = options.threads;
  unsigned const load_threads = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  // On a GPU each loaded file is copied to the device too, and runs fold that copy (rowscan/job/resident_device.hpp).
  device_keeper const* const keeper = on.on_gpu() ? gpu_keeper() : nullptr;
  resident::loader load = [load_threads, keeper](std::string const& path, std::string const& label,
                                                 resident::file_identity const& expected) {
    auto text = resident::load_text(path, label, expected, load_threads);
    if (text && keeper != nullptr && keeper->keep(text->fd(), text->bytes(), text->longest_line)) {
      text->on_device = true;
      text->free_copy = keeper->drop;
    }
    return text;
  };
  state_.reset(
      new state{&on, threads, resident::resident_cache(options.cache_bytes.value_or(default_cache_bytes(on)), load)});
}

session::~session() = default;

engine const& session::on() const { return *state_->on; }

stations::summary session::stations(std::vector<std::string> const& operands, stations::summarize_options options,
                                    query_settings const& settings) {
  auto const work = inputs::workload_of<stations::workload>(*state_->on, options);
  return run_query(*state_, operands, std::move(options), settings, work);
}

lineitem::summary session::lineitem(std::vector<std::string> const& operands, lineitem::summarize_options options,
                                    query_settings const& settings) {
  auto const work = inputs::workload_of<lineitem::workload>(*state_->on, options);
  return run_query(*state_, operands, std::move(options), settings, work);
}

resident::cache_figures session::cache() const { return state_->cache.figures(); }

void session::clear_cache() { state_->cache.clear(); }

}  // namespace rowscan
