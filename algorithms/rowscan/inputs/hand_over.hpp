// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/hand_over.hpp: every processor on one queue (--devices cpu+gpu). One run of the job driver
// reads the share's pieces: the host's workers are lent to it at once, and fold while the GPUs start; when
// their contexts are made, on a thread of the run's, the GPUs' workers join the same queue
// (job::joining_group) and relieve the host's workers, whose cores the GPUs' reader needs
// (job::gpus_relieve_host_workers says why).
//
//   host engine's workers (lent: job/lent_group.hpp) --one run, this thread--> reads the pieces in input order
//   GPU engine's workers (made on the run's joining thread, once get_ready returns) --join--> the same queue
//       --their first batch--> the host's workers finish the block they hold and take no more
//   then: the two groups' answers merged (the merge is commutative); the tally is the run's, in input order
//
// So the answer, every error position and --skip-invalid's report are those of one run, whatever the
// split; a test forces a split by making the GPU join only after K blocks (--gpu-joins-after).
#pragma once

#include "rowscan/inputs/claimed_pieces.hpp"
#include "rowscan/inputs/fold_piece.hpp"
#include "rowscan/inputs/sources.hpp"
#include "rowscan/inputs/outcome.hpp"

#include "rowscan/job/lent_group.hpp"
#include "rowscan/job/run_blocks.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rowscan::inputs {

/// How a run shares its queue between the host's workers and the GPUs that join once they are ready.
struct hand_over {
  engine const* host = nullptr;  ///< the engine whose workers start at once: the host's
  unsigned host_workers = 1;     ///< its workers
  /// Testing: the taker joins only once this many blocks were handed out (or the input ended), so a
  /// test can force a split; 0: as soon as it is ready.
  std::size_t join_after_blocks = 0;
  /// Whether the taker's workers relieve the host's once they take part (job::joining_group::relieves_first).
  bool taker_relieves_host = true;
  /// Makes the taker ready (the GPUs' contexts), while the host's workers fold; nothing for the cpu build.
  std::function<void()> get_ready;
};

/// Folds a share's pieces with the host's workers and the taker's on one queue (the diagram above):
/// `tally` gets the merged tally of the pieces in input order, up to the first that ends the run; the
/// answer is the merge of both groups' answers, with a stage saying when the taker joined.
template <class Summary, class Options>
Summary fold_handing_over(std::vector<input_source> const& sources, std::vector<input_piece> const& share,
                          Options const& options, workload<Summary, Options> const& work, hand_over const& how,
                          job::tally& tally) {
  claimed_pieces pieces(sources, share);
  Options host_options = options;
  host_options.workers = std::max(1u, how.host_workers);
  host_options.gpus.clear();
  std::unique_ptr<job::lent_group<Summary>> const host = work.lend(*how.host, host_options);

  std::unique_ptr<job::lent_group<Summary>> taker;  // made on the run's joining thread, let go here
  job::joining_group joining;
  joining.make = [&]() -> job::lane_group const& {
    if (how.get_ready) how.get_ready();  // the GPUs' contexts: the start-up the host's workers hide
    taker = work.lend(*work.on, options);
    return taker->lanes();
  };
  // A GPU that joins takes the ready blocks filling its device slot (64 MiB: 16 of the host's 4 MiB blocks)
  // and holds them until their copy lands, while it gathers the next slot's.
  std::size_t constexpr blocks_a_gpu_holds = 32;
  joining.blocks = work.on->on_gpu() ? blocks_a_gpu_holds : 0;
  joining.join_after_blocks = how.join_after_blocks;  // a forced split: the driver waits there for the taker
  joining.relieves_first = how.taker_relieves_host;

  std::string label;
  bool ended_by_a_piece = false;  // its error is kept in its tally, and the run's answer is not wanted
  try {
    label = job::run_blocks(pieces, host_options, host->lanes(), host->report(), &joining);
  } catch (...) {
    if (!pieces.failed(std::current_exception())) throw;  // not a piece's: the run's own
    ended_by_a_piece = true;
  }
  tally = pieces.merged();
  if (ended_by_a_piece) return work.empty;
  Summary answer = host->answer(label);
  if (taker) answer = work.merge(std::move(answer), taker->answer(label));
  if (joining.joined_at >= 0) answer.times.add("taker joined at", joining.joined_at);
  return answer;
}

}  // namespace rowscan::inputs
