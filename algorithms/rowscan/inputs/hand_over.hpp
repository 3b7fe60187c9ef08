// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/hand_over.hpp: every processor on one queue (--devices cpu+gpu). The host's workers start
// on the input at once, while the GPUs start; when their contexts are made the GPUs' workers join the
// same queue (job::shared_run) and every worker takes the next blocks whenever it is free, to the end.
//
//   host engine's run (a thread of its own) --drives--> reads the share's pieces in input order, one queue
//   GPU engine's run (this thread, once get_ready returns) --joins--> its workers take from that queue
//   then: the two runs' answers merged (the merge is commutative); the tally is the driver's, in input order
//
// So the answer, every error position and --skip-invalid's report are those of one run, whatever the
// split; a test forces a split by making the GPU join only after K blocks (--gpu-joins-after).
#pragma once

#include "rowscan/inputs/claimed_pieces.hpp"
#include "rowscan/inputs/fold_piece.hpp"
#include "rowscan/inputs/sources.hpp"
#include "rowscan/inputs/outcome.hpp"

#include "rowscan/job/shared_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace rowscan::inputs {

/// How a run shares its queue between the host's workers and the GPUs that join once they are ready.
struct hand_over {
  engine const* host = nullptr;  ///< the engine whose workers start at once: the host's
  unsigned host_workers = 1;     ///< its workers
  /// Testing: the taker joins only once this many blocks were handed out (or the input ended), so a
  /// test can force a split; 0: as soon as it is ready.
  std::size_t join_after_blocks = 0;
  /// Makes the taker ready (the GPUs' contexts), while the host's workers fold; nothing for the cpu build.
  std::function<void()> get_ready;
};

/// Folds a share's pieces with the host's workers and the taker's on one queue (the diagram above):
/// `tally` gets the merged tally of the pieces in input order, up to the first that ends the run; the
/// answer is the merge of both runs' answers, with a stage saying when the taker joined.
template <class Summary, class Options>
Summary fold_handing_over(std::vector<input_source> const& sources, std::vector<input_piece> const& share,
                          Options const& options, workload<Summary, Options> const& work, hand_over const& how,
                          job::tally& tally) {
  auto const start = std::chrono::steady_clock::now();
  // A GPU that joins takes the ready blocks filling its device slot (64 MiB: 16 of the host's 4 MiB blocks)
  // and holds them until their copy lands, while it gathers the next slot's.
  std::size_t constexpr blocks_a_gpu_holds = 32;
  job::shared_run shared(work.on->on_gpu() ? blocks_a_gpu_holds : 0);
  shared.hold_at(how.join_after_blocks);  // a forced split: the driver waits there for the taker to join
  claimed_pieces pieces(sources, share);  // read only by the run that drives

  Options host_options = options;
  host_options.shared = &shared;
  host_options.workers = std::max(1u, how.host_workers);
  host_options.gpus.clear();
  Summary host_answer = work.empty;
  std::exception_ptr host_thrown;
  std::thread host([&] {
    try {
      host_answer = work.on_engine(*how.host).summarize_each(pieces, host_options);
    } catch (...) {
      host_thrown = std::current_exception();
    }
  });

  Summary taker_answer = work.empty;
  std::exception_ptr taker_thrown;
  double joined_at = 0;
  try {
    if (how.get_ready) how.get_ready();
    shared.wait_for_blocks(how.join_after_blocks);
    joined_at = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    Options taker_options = options;
    taker_options.shared = &shared;
    taker_answer = work.summarize_each(pieces, taker_options);
  } catch (...) {
    taker_thrown = std::current_exception();  // the host's workers go on alone, and this is said after
    shared.no_more_joiners();
  }
  host.join();

  // The run that drove threw the error that ended it: a piece's, kept in its tally, or the run's own.
  for (std::exception_ptr const& thrown : {host_thrown, taker_thrown}) {
    if (thrown && !pieces.failed(thrown)) std::rethrow_exception(thrown);
  }
  tally = pieces.merged();
  Summary answer = work.merge(std::move(host_answer), taker_answer);
  answer.times.add("taker joined at", joined_at);
  return answer;
}

}  // namespace rowscan::inputs
