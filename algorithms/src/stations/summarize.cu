// SPDX-License-Identifier: Apache-2.0
// The `rowscan stations` job (rowscan/stations/summarize.hpp): the driver, one stations worker, and the
// answer in name order.
#include "rowscan/stations/summarize.hpp"
#include "rowscan/stations/explain.hpp"
#include "rowscan/stations/workload.hpp"
#include "rowscan/this_system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/error.hpp"
#include "rowscan/job/stage_names.hpp"
#include "rowscan/job/stage_times.hpp"
#include "rowscan/job/lent_workers.hpp"
#include "rowscan/job/worker_set.hpp"
#include "rowscan/stage.hpp"
#include "rowscan/stations/memory_bound.hpp"
#include "rowscan/stations/merge_summaries.hpp"
#include "rowscan/stations/shared_stations.hpp"
#include "rowscan/stations/stats.hpp"
#include "rowscan/stations/table.hpp"
#include "rowscan/stations/worker.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN
namespace {

/// From this many stations in the workers' tables, the answer's stage (their merge, the sort by name)
/// runs on the OpenMP team: below it the work is small and a team's barriers cost more than the team
/// saves on a busy machine (docs/stations.md, "6. Output"); at a million stations the stage takes
/// seconds on one thread (docs/stations.md, "A million stations").
constexpr std::size_t output_team_from_stations = std::size_t{1} << 16;

std::uint64_t key_mask(unsigned key_bits) {
  return key_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
}

/// The workers' tables merged in pairs, each round's pairs side by side on threads of their own with
/// the contexts of different workers (merge_tables is associative and commutative, so any grouping
/// gives the same table): about log2(W) merges one after another instead of W, which halved the answer's
/// stage at 10,000 stations on 32 cores (docs/data/host_windows_stats-h100x2.csv). A round holds at most W / 2 merges
/// at once, each within its worker's term of memory_bound.hpp.
station_table merged_in_pairs(job::worker_set<worker> const& workers) {
  std::vector<job::worker_slot> const& slots = workers.slots();
  std::vector<station_table const*> round;  // this round's tables; the first round's are the workers'
  for (auto const& w : workers.workers()) round.push_back(&w->partial());
  std::vector<station_table> merged;        // the tables the last round made
  while (round.size() > 1) {
    std::size_t const pairs = round.size() / 2;
    std::vector<station_table> next(pairs);
    std::vector<std::exception_ptr> failures(pairs);
    auto merge_pair = [&](std::size_t k) {
      try {
        // This thread's OpenMP regions (the host systems) run on one thread while several merges run side
        // by side; a round's lone merge keeps the caller's setting (output_team_from_stations).
        std::optional<job::one_thread_scope> one_thread;
        if (pairs > 1) one_thread.emplace();
        next[k] = merge_tables(*round[2 * k], *round[2 * k + 1], *slots[k].ctx);
      } catch (...) {
        failures[k] = std::current_exception();
      }
    };
    std::vector<std::thread> threads;
    for (std::size_t k = 1; k < pairs; ++k) {
      try {
        threads.emplace_back(merge_pair, k);
      } catch (std::system_error const&) {
        merge_pair(k);  // no thread to be had: this one merges it
      }
    }
    merge_pair(0);
    for (std::thread& t : threads) t.join();
    for (std::exception_ptr const& failure : failures) {
      if (failure) std::rethrow_exception(failure);
    }
    if (round.size() % 2 == 1) {  // the odd one waits for the next round: moved, unless it is a worker's
      next.push_back(merged.empty() ? *round.back() : std::move(merged.back()));
    }
    merged = std::move(next);
    round.clear();
    for (station_table const& t : merged) round.push_back(&t);
  }
  if (!merged.empty()) return std::move(merged.front());
  return round.empty() ? station_table{} : *round.front();  // a lone worker's table
}

/// Every worker's table and pending tables (worker::unmerged_parts) merged at once, when some worker has
/// tables pending: the largest table first, and the rows of every other table sorted and grouped with it
/// once (merge_all). Each worker's partial() and then the merges in pairs passed over a million stations
/// three times (docs/stations.md, "A million stations"). The other workers' tables share most of their
/// stations with the largest: those fold into its rows where they are (find_known, as a worker folds a
/// block's), and only the rest join it; sorted and grouped with it, each shared station cost a row of
/// every array of the merge. Without pending tables, merged_in_pairs.
station_table merged_at_once(job::worker_set<worker> const& workers, context const& ctx) {
  std::vector<station_table*> tables;
  std::vector<station_table const*> pending;
  for (auto const& w : workers.workers()) tables.push_back(&w->unmerged_parts(pending));
  if (pending.empty()) return merged_in_pairs(workers);
  auto const fewer_rows = [](station_table const* a, station_table const* b) { return a->size() < b->size(); };
  auto const largest = std::max_element(tables.begin(), tables.end(), fewer_rows);
  station_table& first = **largest;
  tables.erase(largest);
  std::vector<station_table> fresh;  // the other tables' stations that the largest lacks
  fresh.reserve(tables.size());
  if (first.size() > 0) {
    key_directory const directory = make_key_directory(first, ctx);
    for (station_table const* t : tables) {
      known_rows const k = find_known(first, directory, t->keys, names_by_row(*t),
                                      thrust::raw_pointer_cast(t->names.chars.data()) + t->names.chars.size(), ctx);
      fresh.push_back(fresh_rows_of(*t, k, ctx));
      fold_known_rows(first, t->stats, k, ctx);
    }
  }
  std::vector<station_table const*> others = pending;
  if (first.size() > 0) {
    for (station_table const& t : fresh) others.push_back(&t);
  } else {
    others.insert(others.end(), tables.begin(), tables.end());
  }
  return merge_all(first, others, ctx);
}

}  // namespace

std::vector<std::string> stage_names() {
#if ROWSCAN_HAS_CUB
  return {job::setup_stage, "reader setup", "read (waiting)", job::hand_over_stage, "dictionary", "find + parse", "sort",
          "reduce",       "merge",        "general path",   "output"};
#else  // a host worker folds each line into its station's row as it parses it (fast_reducer.hpp)
  return {job::setup_stage, "reader setup", "read (waiting)", job::hand_over_stage, "dictionary", "find + parse + fold",
          "merge",        "general path", "output"};
#endif
}

std::size_t default_chunk_size() {
  // A chunk is the text held on the device at once, in two slots (one copied while the other is
  // worked on); with 4 bytes per line of half of it, twice for the sort, the device needs at most about
  // 1.7 times the chunk size. On a GPU, 64 MiB blocks keep 16 reader threads busy with 4 MiB slices
  // while the pinned ring stays small (its allocation is paid before the first byte is read). On the
  // host every worker folds one block at a time with its own arrays, so memory is about workers x 1.7 x
  // the chunk (memory_bound.hpp counts up to 14 bytes per chunk byte), and 8 MiB measured faster and
  // eight times smaller than 128 MiB on two cores (docs/data/chunk_size_choice.csv).
  return job::preferred_chunk_size(std::size_t{128} << 20, std::size_t{8} << 20);
}

summary summarize(int fd, std::string const& label, summarize_options const& options) {
  job::single_input input(fd, label, options.max_input_bytes);
  return summarize_each(input, options);
}

namespace {

/// The run's answer: every worker's table merged, in name order, with the paths its blocks took.
summary answer_of_workers(job::worker_set<worker>& workers, summary out, std::string const& label) {
  {
    context const& ctx = workers.first_context();
    stage_scope stage(ctx, "output");
    std::size_t stations = 0;  // the rows of what the workers hold, merged or pending: at least the stations
    for (auto const& w : workers.workers()) {
      std::vector<station_table const*> pending;
      stations += w->unmerged_parts(pending).size();
      for (station_table const* t : pending) stations += t->size();
    }
    std::optional<job::one_thread_scope> one_thread;
    if (stations < output_team_from_stations) one_thread.emplace();
    start_thread_team();  // the output's team, made now that the workers' threads are gone (if it is used)
    for (auto const& w : workers.workers()) {
      out.fast_chunks += w->paths().fast_blocks();
      out.general_chunks += w->paths().general_blocks();
      out.over_limit_chunks += w->paths().over_limit_blocks();
    }
    // A table's rows by name, on the host.
    auto answer_of = [&](station_table const& table, context const& on) {
      try {
        return summaries_by_name(table, on);
      } catch (std::bad_alloc const&) {
        throw error(label + ": out of memory for the answer's " + std::to_string(table.size()) + " stations (" +
                    std::to_string(table.names.chars.size()) +
                    " bytes of names; the table needs up to " + table_terms_in_words() + "), which no "
                    "--chunk-size changes; run where more memory is free");
      }
    };
    if (workers.on_one_device()) {
      station_table const all = merged_at_once(workers, ctx);  // where they are
      out.names_compared = all.names_compared;
      out.stations = answer_of(all, ctx);
    } else {
      // GPUs of their own: each sorts its table by name where it is, and the host merges the sorted
      // lists (merge_summaries, as between MPI ranks).
      summary all;
      for (std::size_t i = 0; i < workers.workers().size(); ++i) {
        job::worker_slot const& slot = workers.slots()[i];
        job::use_device(slot.device);
        station_table const& mine = workers.workers()[i]->partial();
        summary part;
        part.stations = answer_of(mine, *slot.ctx);
        all = merge_summaries(std::move(all), part);
        out.names_compared = out.names_compared || mine.names_compared;
      }
      job::use_device(workers.slots().front().device);
      out.stations = std::move(all.stations);
    }
  }
  job::timeline_mark("answer merged");
  return out;
}

}  // namespace

std::unique_ptr<job::lent_group<summary>> lend(summarize_options const& options) {
  summary out;
  out.times = job::stage_times(stage_names());
  out.chunk_size = job::chosen_chunk_size(options, {min_chunk_size, default_chunk_size});
  // What one host worker learns, the others take (shared_stations.hpp); a lone worker has no one to tell.
  // The answer holds it, so that it outlives the workers that point to it.
  auto learned = std::make_shared<shared_stations>();
  shared_stations* const share = job::worker_devices(options).size() > 1 ? learned.get() : nullptr;
  std::size_t const block_size = std::max<std::size_t>(out.chunk_size / 2, 1);  // two device slots
  return job::lend_workers<worker>(
      options, std::move(out), {block_size, carried_line_bytes, text_padding_bytes},
      [&](context const& ctx) {
        return worker(ctx, {key_mask(options.key_bits), options.portable_only, options.skip_invalid, share});
      },
      [learned](job::worker_set<worker>& workers, summary report, std::string const& label) {
        return answer_of_workers(workers, std::move(report), label);
      });
}

summary summarize_each(job::input_sequence& inputs, summarize_options const& options) {
  auto const workers = job::lend_with_one_thread(options, !ROWSCAN_HAS_CUB, lend);
  return job::run_lent(inputs, options, *workers);  // the workers go after the answer: their memory freed
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations

// The `stations` entry's points on this file's system (rowscan/workload.hpp).
template <>
auto rowscan::stations::workload::lend(this_system, options const& o) -> lent {
  return stations::lend(o);
}

template <>
auto rowscan::stations::workload::explain_text(this_system, std::string const& text, std::string const& label,
                                               options const&) -> explained {
  return stations::explain(text, label);
}
