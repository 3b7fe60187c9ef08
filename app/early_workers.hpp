// SPDX-License-Identifier: Apache-2.0
// app/early_workers.hpp: host workers that fold a job's first pieces while the GPU starts, the first
// half of the hand-over (hand_over.hpp has the second). Each worker claims the next piece from one
// queue in input order and folds it alone, on its own thread, with the job driver's one-worker run.
//
// In the CUDA build the early workers are the host system's copy of the tool (namespace rowscan_host,
// cmake/rowscan_host_system.cmake), started by the CUDA copy: no type of namespace rowscan crosses
// between the two, only the struct below (outside it) and wire bytes (partial_wire.hpp), as between
// MPI ranks. The cpu build runs them in its own copy, when a test forces a hand-over.
#pragma once

#include "fold_piece.hpp"
#include "inputs.hpp"
#include "input_outcome.hpp"
#include "partial_wire.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace rowscan_shared {

/// What the copy that hands over and the early workers share, for one hand-over.
struct early_workers {
  // Set before the workers start:
  std::string plan;        ///< wire bytes: the command, its options, the sources and the pieces to claim
  std::size_t count = 0;   ///< the pieces in the plan
  unsigned workers = 1;    ///< host workers to start
  std::chrono::steady_clock::time_point start;  ///< the run's start: first-piece times count from it
  // While they run:
  std::atomic<std::size_t> next{0};     ///< the next piece to claim; the hand-over sets it to count
  std::atomic<bool> stopped{false};     ///< a piece ended the run: nobody claims another
  std::atomic<unsigned> claiming{0};    ///< workers still claiming pieces: set to workers before they start
  std::thread runner;                   ///< starts the workers, waits for them, then writes result
  // Once runner is joined:
  std::string result;   ///< wire bytes: each worker's share, the claimed pieces' records in order, the answer
  std::string failure;  ///< what went wrong outside the pieces' folds, if something did (result is then empty)
};

}  // namespace rowscan_shared

namespace rowscan::app {

/// Starts share.workers early workers on share.plan (on share.runner), and returns. The plan names
/// the command; each command's workload runs run_early_workers.
void start_early_workers(rowscan_shared::early_workers& share);

/// The plan: the command, its options, the sources and the pieces to claim.
template <class Options>
std::string early_plan(std::string const& command, Options const& options, std::vector<input_source> const& sources,
                       std::vector<input_piece> const& claims) {
  wire_writer out;
  out.text(command);
  encode(out, options);
  out.text(encode_sources(sources));
  out.text(encode_pieces(claims));
  return out.bytes();
}

/// The early workers of one workload: share.workers threads claim share's pieces until none is left,
/// the hand-over took the rest, or a piece ended the run; then share.result gets each worker's share
/// of the work (blocks, bytes, busy seconds, its first piece's time from share.start), the records of
/// the pieces claimed (always the first pieces, in input order) and the merge of their answers.
template <class Summary, class Options>
void run_early_workers(rowscan_shared::early_workers& share, std::vector<input_source> const& sources,
                       std::vector<input_piece> const& claims, Options const& options,
                       workload<Summary, Options> const& work) {
  Options alone = options;  // each piece on one thread: the parallelism is across pieces
  alone.workers = 1;
  alone.reader_threads = 1;
  alone.progress = {};
  std::vector<std::optional<piece_record>> records(claims.size());
  std::vector<Summary> answers(share.workers, work.empty);
  std::vector<job::worker_share> figures(share.workers);
  auto seconds = [](auto duration) { return std::chrono::duration<double>(duration).count(); };
  auto fold_claims = [&](unsigned w) {
    while (!share.stopped) {
      std::size_t const i = share.next.fetch_add(1);
      if (i >= claims.size()) break;
      auto const begin = std::chrono::steady_clock::now();
      piece_record record;
      Summary piece = fold_piece_recorded(sources[claims[i].source], claims[i], alone, work, record);
      if (record.bad_stop || record.failure) share.stopped = true;
      job::worker_share& f = figures[w];
      if (f.blocks == 0) f.first_block_at = seconds(begin - share.start);
      f.blocks += piece.chunks;
      f.bytes += record.bytes;
      f.busy_seconds += seconds(std::chrono::steady_clock::now() - begin);
      answers[w] = work.merge(std::move(answers[w]), piece);
      records[i] = std::move(record);
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

  wire_writer out;
  encode(out, figures);
  std::size_t claimed = 0;  // every claimed piece is folded, and claims are made in order
  while (claimed < records.size() && records[claimed]) ++claimed;
  out.number(claimed);
  for (std::size_t i = 0; i < claimed; ++i) encode(out, *records[i]);
  Summary answer = work.empty;
  for (Summary const& a : answers) answer = work.merge(std::move(answer), a);
  encode(out, answer);
  share.result = out.bytes();
}

}  // namespace rowscan::app

#if ROWSCAN_HOST_SYSTEM_BUILT
namespace rowscan_host::app {
void start_early_workers(rowscan_shared::early_workers& share);  // the host system's copy (see above)
}
#endif
