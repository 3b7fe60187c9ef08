// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/fold_share.hpp: one process's share of the input, folded by the processors it has.
//
//   operands -resolve_inputs-> sources -share_of-> this process's pieces
//   -fold_share-> with a hand-over (host workers first, then the taker: hand_over.hpp)
//                 or in one run of the workload's engine (claimed_pieces.hpp)
//   -> the share's answer, and a record per piece (outcome.hpp), which place() puts in the input
//
// The records are what several processes (MPI ranks, app/scale_out.hpp) merge besides their answers.
#pragma once

#include "rowscan/inputs/claimed_pieces.hpp"
#include "rowscan/inputs/fold_piece.hpp"
#include "rowscan/inputs/hand_over.hpp"
#include "rowscan/inputs/outcome.hpp"
#include "rowscan/inputs/sources.hpp"

#include <vector>

namespace rowscan::inputs {

/// The answer of a share's pieces, their records in `records` (in input order, up to the first that
/// ends the run). With `hand`, and a share that claims can cut (hands_over), host workers start on it
/// while the taker gets ready; otherwise the taker (made ready first, if `hand` has it) folds it alone,
/// in one run. With `rethrow`, the error that ends the run is thrown as the job threw it instead of
/// kept in its piece's record (a process alone, without a hand-over).
template <class Summary, class Options>
Summary fold_share(std::vector<input_source> const& sources, std::vector<input_piece> const& share,
                   Options const& options, workload<Summary, Options> const& work, hand_over const* hand,
                   std::vector<piece_record>& records, bool rethrow) {
  if (hands_over(hand, sources, share)) return fold_handing_over(sources, share, options, work, *hand, records);
  if (hand != nullptr && hand->get_ready) hand->get_ready();  // the taker alone (its GPU made current)
  return fold_in_turn(sources, share, options, work, records, rethrow);
}

}  // namespace rowscan::inputs
