// SPDX-License-Identifier: Apache-2.0
// rowscan/process/scale_out.hpp: a workload over many inputs and many processes. The FILE operands are resolved
// into sources (inputs.hpp); each rank folds its share, piece by piece, with the workload's summarize
// (the job driver); the pieces' tallies (job::tally, the one monoid for positions) and the ranks'
// partial answers merge in a tree to rank 0 (ranks.hpp), which alone gets the answer, every bad
// line placed in its file by the merge (rowscan/inputs/outcome.hpp).
//
//   operands -resolve (rank 0), broadcast-> sources -share_of-> pieces -summarize-> partial answers
//   -merge (in the rank)-> the rank's answer and tally
//   -merge_to_root(job::merge, the workload's merge)-> rank 0: the answer, or the first error in input order
//
// Without mpirun there is one rank and no MPI call is made; errors then propagate as they are thrown.
#pragma once

#include "rowscan/error.hpp"
#include "rowscan/inputs/fold_share.hpp"
#include "rowscan/inputs/partial_wire.hpp"
#include "rowscan/process/ranks.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rowscan::process {

/// Sources as bytes and back (rank 0 resolves; the others receive its list).
std::string encode_sources(std::vector<inputs::input_source> const& sources);
std::vector<inputs::input_source> decode_sources(std::string const& bytes);


/// --stats under MPI: what each rank read and how long it took, and the merge.
struct rank_figures {
  std::uint64_t bytes = 0;
  std::uint64_t lines = 0;
  double seconds = 0;  ///< folding the rank's share, from the start of the run
};
struct scale_out_report {
  std::vector<rank_figures> ranks;  ///< on rank 0, one per rank
  double merge_seconds = 0;         ///< from the moment every rank had folded to rank 0 holding the answer
};

/// The sources, resolved by rank 0 and sent to every rank; on every rank the same usage_error or
/// rowscan::error when they cannot be resolved.
/// Prints the warning about skipped subdirectories (inputs::skipped_warning) once, on rank 0.
std::vector<inputs::input_source> shared_sources(std::vector<std::string> const& operands, inputs::input_settings const& settings);

/// The rank's figures sent to rank 0 (--stats).
std::vector<rank_figures> gather_figures(rank_figures const& mine);

/// The bytes of a share, or 0 when one of its pieces' text size is unknown (compressed, a stream).
std::uint64_t share_bytes(std::vector<inputs::input_source> const& sources, std::vector<inputs::input_piece> const& share);

/// The answer of the operands' inputs, on rank 0 (nothing on the other ranks). total_known, if given,
/// hears the size of this rank's share once it is known (0 if a piece is compressed or a stream). Throws the run's error
/// on rank 0: the first in input order, whichever rank found it; with one rank and no hand-over, as the
/// job threw it. With `hand`, each rank's share is folded by host workers and the GPUs on one queue
/// (rowscan/inputs/hand_over.hpp).
template <class Summary, class Options>
std::optional<Summary> summarize_inputs(std::vector<std::string> const& operands, inputs::input_settings const& settings,
                                        Options const& options,
                                        inputs::workload<Summary, Options> const& work, scale_out_report* report = nullptr,
                                        std::function<void(std::uint64_t)> const& total_known = {},
                                        inputs::hand_over const* hand = nullptr) {
  auto const start = std::chrono::steady_clock::now();
  std::vector<inputs::input_source> const sources = shared_sources(operands, settings);
  std::vector<inputs::input_piece> const share = inputs::share_of(sources, ranks::rank(), ranks::count());
  if (total_known) total_known(share_bytes(sources, share));
  bool const alone = ranks::count() == 1;

  job::tally outcome;
  Summary answer = inputs::fold_share(sources, share, options, work, hand, outcome, alone);
  double const fold_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (report != nullptr) report->ranks = gather_figures({outcome.all_bytes(), outcome.all_lines(), fold_seconds});
  if (!alone) {
    using inputs::decode;
    using inputs::encode;  // the tallies'; the answers' are the workload's
    ranks::barrier();  // the merge's time starts when every rank has folded its share
    auto const merge_start = std::chrono::steady_clock::now();
    wire_writer mine;
    encode(mine, outcome);
    work.encode(mine, answer);
    std::string const merged = ranks::merge_to_root(mine.bytes(), [&](std::string const& a, std::string const& b) {
      wire_reader earlier(a), later(b);
      job::tally first, second;
      Summary x, y;
      decode(earlier, first);
      work.decode(earlier, x);
      decode(later, second);
      work.decode(later, y);
      wire_writer both;
      encode(both, job::merge(std::move(first), second));
      work.encode(both, work.merge(std::move(x), y));
      return both.bytes();
    });
    if (!ranks::is_root()) return std::nullopt;
    wire_reader in(merged);
    decode(in, outcome);
    work.decode(in, answer);
    if (report != nullptr) {
      report->merge_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - merge_start).count();
    }
  }
  if (auto const stop = inputs::stop_message(outcome, sources)) throw error(*stop);
  answer.skipped = inputs::skipped_record(outcome, sources);
  return answer;
}

}  // namespace rowscan::process
