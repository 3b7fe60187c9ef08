// SPDX-License-Identifier: Apache-2.0
// A session: one engine for many queries, and the cache of their files (rowscan/session.hpp).
#include "rowscan/session.hpp"

#include "rowscan/error.hpp"
#include "rowscan/inputs/fold_share.hpp"
#include "rowscan/inputs/outcome.hpp"
#include "rowscan/inputs/workloads.hpp"
#include "rowscan/job/devices.hpp"
#include "rowscan/lineitem/merge_summaries.hpp"
#include "rowscan/lineitem/workload.hpp"
#include "rowscan/session/device_keeper.hpp"
#include "rowscan/session/kept_columns.hpp"
#include "rowscan/stations/workload.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

namespace rowscan {

struct session::state {
  engine const* on;
  unsigned threads;
  resident::resident_cache cache;
  device_keeper const* keeper;  ///< the GPU's, which holds its runs' contexts for the session; null on the host
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

/// Whether every operand is a file of which the cache holds a `kind` entry as the file is now, read as it is read
/// (no --crlf): then nothing resolve_inputs would find (a directory, an error) can differ.
bool all_resident(resident::resident_cache const& cache, std::vector<std::string> const& operands,
                  inputs::input_settings const& settings, resident::entry_kind kind) {
  if (operands.empty() || settings.crlf || settings.header || settings.whole_files) return false;
  for (std::string const& path : operands) {
    if (path == "-" || !cache.holds(path, kind)) return false;
  }
  return true;
}

/// A query's options with the session's threads, and its cancel flag heard after each block.
template <class Options>
void apply_settings(session::state const& s, Options& options, query_settings const& settings) {
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
}

/// The query's sources: resolve_inputs's, or, when every operand is a file of which a `kind` entry holds it
/// unchanged, each operand as a plain file (resolve_inputs would open it to classify it; the query reads nothing
/// of it).
std::vector<inputs::input_source> sources_of(resident::resident_cache const& cache,
                                             std::vector<std::string> const& operands, query_settings const& settings,
                                             resident::entry_kind kind) {
  std::vector<inputs::input_source> sources;
  if (all_resident(cache, operands, settings.inputs, kind)) {
    for (std::string const& path : operands) sources.push_back({path, 0, true, false});
    if (settings.warnings != nullptr) settings.warnings->clear();
    return sources;
  }
  inputs::resolved_inputs resolved = inputs::resolve_inputs(operands, settings.inputs);
  if (settings.warnings != nullptr) *settings.warnings = inputs::skipped_warning(resolved);
  return std::move(resolved.sources);
}

/// One query: the CLI's run of one process (rowscan/process/scale_out.hpp, summarize_inputs) over the sources, each
/// cacheable file read from its resident text (the options already have the query's settings).
template <class Summary, class Options>
Summary run_from_text(session::state& s, std::vector<inputs::input_source> sources, Options options,
                      inputs::workload<Summary, Options> const& work) {
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

template <class Summary, class Options>
Summary run_query(session::state& s, std::vector<std::string> const& operands, Options options,
                  query_settings const& settings, inputs::workload<Summary, Options> const& work) {
  apply_settings(s, options, settings);
  std::vector<inputs::input_source> sources = sources_of(s.cache, operands, settings, resident::entry_kind::text);
  return run_from_text(s, std::move(sources), std::move(options), work);
}

/// lineitem's columns of one file, kept by the cache (rowscan/session/kept_columns.hpp), with what the run that
/// parsed them reported of the file (a query answered from them reports the same).
class column_entry final : public resident::resident_entry {
 public:
  column_entry(resident::file_identity const& id, std::shared_ptr<kept_columns> columns, lineitem::summary const& run)
      : resident_entry(resident::entry_kind::lineitem_columns, id, columns->bytes()),
        columns_(std::move(columns)),
        text_bytes_(run.bytes),
        lines_(run.lines) {}

  /// The query's answer from the columns: one transform_reduce per eight thresholds.
  lineitem::summary query(std::vector<std::uint64_t> const& thresholds) const {
    auto const start = std::chrono::steady_clock::now();
    lineitem::summary out;
    out.answers = columns_->sums_below(thresholds);
    out.query_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out.rows = out.queried_rows = columns_->rows();
    out.bytes = text_bytes_;
    out.lines = lines_;
    return out;
  }

 private:
  std::shared_ptr<kept_columns> columns_;
  std::uint64_t text_bytes_;
  std::uint64_t lines_;
};

/// The answer of a run over one file's pieces, and the columns it parsed (column_keeper::summarize_keeping).
struct kept_lineitem : lineitem::summary {
  std::shared_ptr<kept_columns> columns;
};

/// The keeper of an engine's columns: nullptr for an engine that keeps none.
column_keeper const* column_keeper_of(engine const& on) {
  return on.on_gpu() ? gpu_column_keeper() : host_column_keeper();
}

kept_lineitem summarize_keeping(engine const& on, job::input_sequence& inputs,
                                lineitem::summarize_options const& options) {
  kept_lineitem out;
  static_cast<lineitem::summary&>(out) = column_keeper_of(on)->summarize_keeping(inputs, options, out.columns);
  return out;
}

kept_lineitem merge_kept(kept_lineitem a, kept_lineitem const& b) {
  kept_lineitem out;
  static_cast<lineitem::summary&>(out) = lineitem::merge_summaries(std::move(a), b);
  return out;
}

/// Whether a lineitem query may take its files' columns from the cache, or keep them: a run of its own over whole
/// files, with a chunk that carries every line the default chunk carries (a smaller one stops on a long line
/// that the columns were made without), and thresholds to answer.
bool columns_serve(engine const& on, lineitem::summarize_options const& options) {
  column_keeper const* const keeper = column_keeper_of(on);
  return keeper != nullptr && !options.suppkey_below.empty() &&
         options.max_input_bytes == UINT64_MAX && options.fail_allocations_above == 0 &&
         (options.chunk_size == 0 ||
          (options.chunk_size >= keeper->longest_carried_line && options.chunk_size <= job::max_chunk_size));
}

/// `rowscan lineitem` over files, each file's columns taken from the cache or kept by the run that reads it:
///   each source in input order -> its columns entry (a hit): their sums, no file read
///                                -> else: the CLI's run over its pieces, parsing every block into columns;
///                                   the columns kept when every row was valid and they fit the budget
///   -> the answers added up, the tallies merged in input order (the first error, the skipped lines)
lineitem::summary lineitem_from_columns(session::state& s, std::vector<inputs::input_source> const& sources,
                                        lineitem::summarize_options const& options) {
  inputs::workload<kept_lineitem, lineitem::summarize_options> const keeping{
      s.on,        &summarize_keeping, nullptr,  // no hand-over in a session: nothing to lend
      &merge_kept, kept_lineitem{lineitem::empty_summary(options.suppkey_below), nullptr},
      nullptr,     nullptr};
  auto const plain = inputs::workload_of<lineitem::workload>(*s.on, options);
  std::vector<inputs::input_piece> const all = inputs::share_of(sources, 0, 1);
  lineitem::summary answer = lineitem::empty_summary(options.suppkey_below);
  job::tally outcome;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    std::optional<resident::file_identity> id;
    auto const found = s.cache.find(resident::entry_kind::lineitem_columns, sources[i].path, id);
    if (found) {
      answer = lineitem::merge_summaries(std::move(answer),
                                         static_cast<column_entry const&>(*found).query(options.suppkey_below));
      continue;
    }
    std::vector<inputs::input_piece> pieces;
    std::copy_if(all.begin(), all.end(), std::back_inserter(pieces), [&](auto const& p) { return p.source == i; });
    std::uint64_t const reserved = id ? most_column_bytes(id->size) : 0;
    job::tally t;
    if (!id || !s.cache.reserve(reserved)) {  // no room to keep them: the CLI's run, which parses no columns
      answer = lineitem::merge_summaries(std::move(answer),
                                         inputs::fold_in_turn(sources, pieces, options, plain, t, /*rethrow=*/true));
    } else {
      try {
        kept_lineitem run = inputs::fold_in_turn(sources, pieces, options, keeping, t, /*rethrow=*/true);
        if (!t.stopped() && t.skipped == 0 && run.columns && resident::identity_of(sources[i].path) == id) {
          s.cache.keep(std::make_shared<column_entry>(*id, run.columns, run), reserved);
        } else {  // a row was skipped, or the file changed as it was read
          s.cache.unreserve(reserved);
        }
        answer = lineitem::merge_summaries(std::move(answer), run);
      } catch (...) {
        s.cache.unreserve(reserved);  // nothing of a file whose query failed is kept
        throw;
      }
    }
    outcome = job::merge(std::move(outcome), t);
    if (outcome.stopped()) break;
  }
  if (auto const stop = inputs::stop_message(outcome, sources)) throw error(*stop);
  answer.skipped = inputs::skipped_record(outcome, sources);
  return answer;
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
  // On a GPU each file is loaded into device memory, and runs fold that copy (rowscan/job/resident_device.hpp);
  // in host memory where the GPU has no room.
  device_keeper const* const keeper = on.on_gpu() ? gpu_keeper() : nullptr;
  resident::loader load = [load_threads, keeper](std::string const& path, std::string const& label,
                                                 resident::file_identity const& expected) {
    if (keeper != nullptr) {
      if (auto text = resident::load_to_device(path, label, expected, *keeper)) return text;
    }
    return resident::load_text(path, label, expected, load_threads);
  };
  state_.reset(new state{
      &on, threads, resident::resident_cache(options.cache_bytes.value_or(default_cache_bytes(on)), load), keeper});
  // Each query's workers take the contexts the last one left (a stream, a pool holding its memory).
  if (keeper != nullptr) keeper->hold_contexts(true);
}

session::~session() {
  if (state_->keeper != nullptr) state_->keeper->hold_contexts(false);
}

engine const& session::on() const { return *state_->on; }

stations::summary session::stations(std::vector<std::string> const& operands, stations::summarize_options options,
                                    query_settings const& settings) {
  auto const work = inputs::workload_of<stations::workload>(*state_->on, options);
  return run_query(*state_, operands, std::move(options), settings, work);
}

lineitem::summary session::lineitem(std::vector<std::string> const& operands, lineitem::summarize_options options,
                                    query_settings const& settings) {
  // lineitem keeps its files' parsed columns, where it may (docs/python.md, "The cache"); else their text.
  bool const columns = columns_serve(*state_->on, options);
  apply_settings(*state_, options, settings);
  std::vector<inputs::input_source> sources = sources_of(
      state_->cache, operands, settings, columns ? resident::entry_kind::lineitem_columns : resident::entry_kind::text);
  if (columns && std::all_of(sources.begin(), sources.end(), cacheable)) {
    return lineitem_from_columns(*state_, sources, options);
  }
  auto const work = inputs::workload_of<lineitem::workload>(*state_->on, options);
  return run_from_text(*state_, std::move(sources), std::move(options), work);
}

resident::cache_figures session::cache() const { return state_->cache.figures(); }

void session::clear_cache() { state_->cache.clear(); }

}  // namespace rowscan
