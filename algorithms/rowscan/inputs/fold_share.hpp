// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/fold_share.hpp: one process's share of the input, folded by the processors it has.
//
//   operands -resolve_inputs-> sources -share_of-> this process's pieces
//   -fold_share-> with a hand-over (host workers at once, the GPUs joining them on one queue: hand_over.hpp)
//                 or in one run of the workload's engine (claimed_pieces.hpp)
//   -> the share's answer, and the merged tally of its pieces (job::tally, positions placed by the merge)
//
// The tallies are what several processes (MPI ranks, rowscan/process/scale_out.hpp) merge besides their answers.
#pragma once

#include "rowscan/inputs/claimed_pieces.hpp"
#include "rowscan/inputs/fold_piece.hpp"
#include "rowscan/inputs/hand_over.hpp"
#include "rowscan/inputs/outcome.hpp"
#include "rowscan/inputs/sources.hpp"

#include <vector>

namespace rowscan::inputs {

/// The answer of a share's pieces, their merged tally in `tally` (in input order, up to the first
/// piece that ends the run). With `hand`, host workers start on it while the taker gets ready, and the
/// taker joins them on one queue (any input: a file, a compressed file or a stream is read by one
/// reader either way); otherwise the taker folds it alone, in one run. With `rethrow`, the error that
/// ends the run is thrown as the job threw it instead of kept in its piece's tally (a process alone,
/// without a hand-over).
template <class Summary, class Options>
Summary fold_share(std::vector<input_source> const& sources, std::vector<input_piece> const& share,
                   Options const& options, workload<Summary, Options> const& work, hand_over const* hand,
                   job::tally& tally, bool rethrow) {
  if (hand != nullptr) return fold_handing_over(sources, share, options, work, *hand, tally);
  return fold_in_turn(sources, share, options, work, tally, rethrow);
}

}  // namespace rowscan::inputs
