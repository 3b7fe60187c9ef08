// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/outcome.hpp: what folding pieces of the input found besides the answer, as the one
// monoid for positions (job::tally, with the input each position is in), and that tally worded as the
// run's error and its --skip-invalid record.
//
// A piece (a file, or a byte range of one) is folded without knowing how many lines of its file came
// before it, as a block is in the job driver. So its tally counts positions from its own start, and
// merging the pieces' tallies in input order places them: within one process as pieces finish, and
// between MPI ranks in the tree that brings their answers to rank 0. Pieces tile their files from
// byte 0: the first piece of a file opens it (job::tally::opens_source) and counts the byte order
// mark before its first line, so a later piece's byte offsets come out right after the merge.
#pragma once

#include "rowscan/error.hpp"
#include "rowscan/job/tally.hpp"
#include "rowscan/skipped_lines.hpp"
#include "rowscan/inputs/sources.hpp"

#include <optional>
#include <string>
#include <vector>

namespace rowscan::inputs {

/// The error that ends a run whose pieces merged into `t`, worded in full; nothing if none did.
inline std::optional<std::string> stop_message(job::tally const& t, std::vector<input_source> const& sources) {
  if (t.stop) return std::string(job::located(*t.stop, source_label(sources.at(t.stop->source))).what());
  return t.failure;
}

/// --skip-invalid's record of pieces that merged into `t`, each line located in its own file.
inline skipped_lines skipped_record(job::tally const& t, std::vector<input_source> const& sources) {
  skipped_lines out;
  out.count_more(t.skipped);
  for (job::bad_line const& line : t.first_skipped) out.keep(job::located(line, source_label(sources.at(line.source))));
  return out;
}

}  // namespace rowscan::inputs
