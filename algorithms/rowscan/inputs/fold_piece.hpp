// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/fold_piece.hpp: a workload, and one piece of the input folded with it (a whole file, or a byte
// range of one whose lines are those that start in it). Every way of running a job is made of these:
// one process over its files, MPI ranks over their shares (scale_out.hpp), host workers and a GPU
// over claimed pieces (hand_over.hpp).
#pragma once

#include "rowscan/error.hpp"
#include "rowscan/io/byte_range.hpp"
#include "rowscan/io/input_file.hpp"
#include "rowscan/engine.hpp"
#include "rowscan/job/run_report.hpp"

#include "rowscan/inputs/sources.hpp"
#include "rowscan/inputs/outcome.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <vector>
#include <string>
#include <unistd.h>

namespace rowscan::inputs {

/// What a workload gives the scale-out: its job on an engine, and the merge of its answers.
template <class Summary, class Options>
struct workload {
  engine const* on;  ///< the engine that folds the inputs
  /// The job over several inputs, in turn, with the same workers (job::input_sequence).
  Summary (*run)(engine const& on, job::input_sequence& inputs, Options const& options);
  Summary (*merge)(Summary, Summary const&);
  Summary empty;  ///< the answer of no input: the merge's identity

  Summary summarize_each(job::input_sequence& inputs, Options const& options) const { return run(*on, inputs, options); }
  /// The same workload on another engine (the host workers of a hand-over).
  workload on_engine(engine const& other) const {
    workload moved = *this;
    moved.on = &other;
    return moved;
  }
};

/// Opens a piece for reading into `input`: whole, or its byte range moved to line starts, the
/// descriptor at its first byte. Sets record.source and record.begin. Returns the most bytes to read,
/// or nothing if the range starts and ends inside one line (which belongs to an earlier range).
inline std::optional<std::uint64_t> open_piece(input_source const& source, input_piece const& piece,
                                               std::optional<io::input_file>& input, piece_record& record) {
  record.source = piece.source;
  input.emplace(source.path, io::text_options{source.crlf});
  if (piece.whole) {
    record.begin = input->bom_bytes();  // positions count the file's bytes, the byte order mark included
    return UINT64_MAX;
  }
  // A byte order mark is not part of the first line: a range at the file's start begins after it.
  std::uint64_t const begin =
      std::max<std::uint64_t>(input->bom_bytes(), io::line_start_at_or_after(input->fd(), piece.begin, source.size, input->label()));
  std::uint64_t const end = io::line_start_at_or_after(input->fd(), piece.end, source.size, input->label());
  record.begin = begin;
  if (begin == end) return std::nullopt;
  if (::lseek(input->fd(), static_cast<off_t>(begin), SEEK_SET) < 0) {
    throw error(input->label() + ": cannot seek to byte " + std::to_string(begin));
  }
  return end - begin;
}

/// A piece's counts and skipped lines, from the run's report, into its record; throws the decoder's
/// error instead if a compressed input was cut short (the cut is the error, not what it caused).
inline void record_run(io::input_file const& input, job::run_report const& run, piece_record& record) {
  if (auto failure = input.decode_failure()) throw error(*failure);
  record.bytes = run.bytes;
  record.lines = run.lines;
  record.skipped = run.skipped.count();
  for (input_error const& e : run.skipped.first()) {
    std::uint64_t const byte = e.byte_offset() + input.dropped_before_line(e.line() - 1);  // --crlf's CRs
    record.first_skipped.push_back({input.label(), e.line(), byte, e.why(), e.column(), e.quote()});
  }
}

/// The error that ended a piece's fold, kept in its record instead of thrown: a bad line as
/// record.bad_stop, anything else worded in full as record.failure.
/// `input`, if given, is the piece's open input, whose --crlf CRs the bad line's byte offset does not count yet.
inline void record_failure(std::exception_ptr const& thrown, input_source const& source, piece_record& record,
                           io::input_file const* input = nullptr) {
  try {
    std::rethrow_exception(thrown);
  } catch (input_error const& e) {
    std::uint64_t const byte = e.byte_offset() + (input != nullptr ? input->dropped_before_line(e.line() - 1) : 0);
    record.bad_stop = placed_line{source_label(source), e.line(), byte, e.why(), e.column(), e.quote()};
  } catch (std::bad_alloc const&) {
    record.failure = source_label(source) + ": out of memory (a smaller --chunk-size needs less)";
  } catch (std::exception const& e) {
    record.failure = e.what();
  }
}

}  // namespace rowscan::inputs
