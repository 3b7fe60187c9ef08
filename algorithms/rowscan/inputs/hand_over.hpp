// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/hand_over.hpp: every processor at once. Host workers start on a job's first pieces at once
// (early_workers.hpp) while the GPU starts; when it is ready, the GPU takes every piece not yet
// claimed and folds them as one run of the job driver; the pieces' tallies and answers then merge as MPI
// ranks' do (scale_out.hpp), so the answer, every error position and --skip-invalid's report are
// those of one run, whatever the split.
//
//   claims:  [0][1][2][3][4][5][6][7][8][9]   one queue in input order (cut_into_claims)
//   early:    a  b  c  a  b  c                 host workers a, b, c: one piece at a time, each alone
//   GPU ready (CUDA's start-up) ------^        takes 6..9, joined into one range (joined)
//   tallies: 0..5 from the early workers, then the GPU's; answers merged (the merge is commutative)
//
// The early workers finish the pieces they hold after the hand-over and claim no more: at 2 MiB a
// piece is 20-40 ms of one core's work (50-100 MB/s on the H100 machine's cores), about as long as
// the GPU's first blocks take.
#pragma once

#include "rowscan/inputs/early_workers.hpp"
#include "rowscan/inputs/fold_piece.hpp"
#include "rowscan/inputs/sources.hpp"
#include "rowscan/inputs/outcome.hpp"

#include "rowscan/error.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace rowscan::inputs {

/// How a run hands over from early host workers to the processor that takes the rest.
struct hand_over {
  engine const* early_engine = nullptr;  ///< the early workers' engine: the host's
  unsigned workers = 1;           ///< early host workers
  std::uint64_t claim_bytes = 0;  ///< the size of the pieces they claim
  /// Testing: hand over only once this many pieces were claimed (or all were), so a test can force a
  /// split; 0: as soon as the taker is ready.
  std::size_t after_claims = 0;
  /// A test asked for this hand-over (--hand-over-after). Otherwise a share with a stream or a
  /// compressed file runs without one: a host worker would read such a file whole, alone.
  bool forced = false;
  /// Makes the taker ready (the GPU's context), while the early workers fold; nothing for the cpu build.
  std::function<void()> get_ready;
};

/// Whether a share is folded with the hand-over `how`: a forced one always; otherwise only when
/// every piece of the share is a regular text file, which claims can cut.
inline bool hands_over(hand_over const* how, std::vector<input_source> const& sources,
                       std::vector<input_piece> const& share) {
  if (how == nullptr) return false;
  return how->forced || std::all_of(share.begin(), share.end(),
                                    [&](input_piece const& piece) { return sources[piece.source].splittable; });
}

/// Folds a share's pieces with a hand-over (the diagram above): `tally` gets the merged tally of the
/// pieces in input order, up to the first that ends the run, and the answer's shares are the early
/// workers' then the taker's, their first-block times counted from this call.
template <class Summary, class Options>
Summary fold_handing_over(std::vector<input_source> const& sources, std::vector<input_piece> const& share,
                          Options const& options, workload<Summary, Options> const& work, hand_over const& how,
                          job::tally& tally) {
  auto const start = std::chrono::steady_clock::now();
  auto since_start = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  std::vector<input_piece> const claims = cut_into_claims(share, how.claim_bytes, sources);
  early_workers<Summary> early;
  early.count = claims.size();
  early.workers = std::max(1u, how.workers);
  early.start = start;
  early.claiming = early.workers;
  start_early_workers(early, sources, claims, options, work.on_engine(*how.early_engine));
  // However this ends, the early workers stop claiming and are waited for.
  struct stop_early_workers {
    piece_queue& early;
    ~stop_early_workers() {
      early.stopped = true;
      if (early.runner.joinable()) early.runner.join();
    }
  } const stop_them{early};

  if (how.get_ready) how.get_ready();
  std::size_t const wait_for = std::min(how.after_claims, claims.size());
  while (early.next < wait_for && early.claiming > 0 && !early.stopped) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::size_t const taken_from = std::min(early.next.exchange(claims.size()), claims.size());
  double const ready_at = since_start();

  // The taker's run over the rest, unless an early piece already ended the run.
  Summary rest = work.empty;
  job::tally rest_tally;
  if (!early.stopped) {
    Options rest_options = options;
    if (options.progress) {
      std::uint64_t before = 0;
      for (std::size_t i = 0; i < taken_from; ++i) before += claims[i].end - claims[i].begin;
      rest_options.progress = [&, before](std::uint64_t done) { options.progress(before + done); };
    }
    std::vector<input_piece> const remaining(claims.begin() + static_cast<std::ptrdiff_t>(taken_from), claims.end());
    rest = fold_in_turn(sources, joined(remaining), rest_options, work, rest_tally, false);
  }
  early.runner.join();
  if (!early.failure.empty()) throw error("host workers: " + early.failure);

  std::vector<job::worker_share> shares = std::move(early.shares);
  tally = std::move(early.tally);
  Summary answer = std::move(early.answer);
  bool const early_stop = tally.stopped();
  if (!early_stop) {
    tally = job::merge(std::move(tally), rest_tally);
    answer = work.merge(std::move(answer), rest);
    for (job::worker_share w : rest.shares) {
      w.first_block_at += ready_at;  // the taker's run counts from its own start
      shares.push_back(w);
    }
  }
  answer.shares = std::move(shares);
  answer.times.add("hand-over at", ready_at);
  return answer;
}

}  // namespace rowscan::inputs
