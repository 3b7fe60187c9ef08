// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/early_workers.hpp: host workers that fold a job's first pieces while the GPU starts, the first
// half of the hand-over (hand_over.hpp has the second). Each worker claims the next piece from one
// queue in input order and folds it alone, on its own thread, with the job driver's one-worker run.
//
// The early workers run the host engine (rowscan/engine.hpp) on threads of this process, beside the
// engine that takes the rest; the cpu build's host engine plays both parts when a test forces a hand-over.
#pragma once

#include "rowscan/inputs/claimed_pieces.hpp"
#include "rowscan/inputs/fold_piece.hpp"
#include "rowscan/inputs/sources.hpp"
#include "rowscan/inputs/outcome.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace rowscan::inputs {

/// The early workers of a workload whose answer is Summary: the queue, and what they folded.
template <class Summary>
struct early_workers : piece_queue {
  // Once runner is joined:
  std::vector<job::worker_share> shares;  ///< each worker's share of the work
  job::tally tally;                       ///< the merged tally of the pieces claimed (the first ones, in input order)
  Summary answer;                         ///< the merge of the workers' answers
  std::string failure;  ///< what went wrong outside the pieces' folds, if something did (the rest is then empty)
};

/// The early workers of one workload: share.workers threads claim share's pieces until none is left,
/// the hand-over took the rest, or a piece ended the run. Each folds its pieces with one one-worker run
/// of the workload (summarize_each: what the first piece taught it, such as the stations dictionary,
/// serves the later ones). Then share gets each worker's share of the work (blocks, bytes, busy
/// seconds, its first piece's time from share.start), the merged tally of the pieces claimed (always
/// the first pieces, in input order) and the merge of the workers' answers.
template <class Summary, class Options>
void run_early_workers(early_workers<Summary>& share, std::vector<input_source> const& sources,
                       std::vector<input_piece> const& claims, Options const& options,
                       workload<Summary, Options> const& work) {
  Options alone = options;  // one thread a worker: the parallelism is across pieces
  alone.workers = 1;
  alone.reader_threads = 1;
  alone.progress = {};
  std::vector<std::optional<job::tally>> tallies(claims.size());
  std::vector<Summary> answers(share.workers, work.empty);
  std::vector<job::worker_share> figures(share.workers);
  std::vector<std::string> failures(share.workers);  // an error of a worker's answer, not of a piece
  auto fold_claims = [&](unsigned w) {
    claimed_pieces mine(share, sources, claims, tallies, figures[w]);
    try {
      answers[w] = work.summarize_each(mine, alone);
    } catch (std::exception const& e) {
      if (!mine.failed(std::current_exception())) failures[w] = e.what();
    }
    share.claiming -= 1;
  };

  std::vector<std::thread> threads;  // share.claiming counts them from before they start
  for (unsigned w = 0; w < share.workers; ++w) {
    try {
      threads.emplace_back(fold_claims, w);
    } catch (std::system_error const&) {
      share.claiming -= share.workers - w;  // the system refused a thread: fewer workers fold
      break;
    }
  }
  for (std::thread& t : threads) t.join();
  for (std::string const& failure : failures) {
    if (!failure.empty()) throw error(failure);
  }

  share.shares = std::move(figures);
  share.tally = claimed_tally(tallies);
  share.answer = work.empty;
  for (Summary const& a : answers) share.answer = work.merge(std::move(share.answer), a);
}

/// Starts share.workers early workers on `claims` (on share.runner), folding with `work` (on the host
/// engine), and returns. sources and claims must live until share.runner is joined.
template <class Summary, class Options>
void start_early_workers(early_workers<Summary>& share, std::vector<input_source> const& sources,
                         std::vector<input_piece> const& claims, Options const& options,
                         workload<Summary, Options> const& work) {
  share.runner = std::thread([&share, &sources, &claims, options, work] {
    try {
      run_early_workers(share, sources, claims, options, work);
    } catch (std::exception const& e) {
      share.failure = e.what();
    }
  });
}

}  // namespace rowscan::inputs
