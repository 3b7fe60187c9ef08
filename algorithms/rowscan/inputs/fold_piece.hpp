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
#include "rowscan/job/lent_group.hpp"
#include "rowscan/job/run_report.hpp"
#include "rowscan/wire.hpp"

#include "rowscan/inputs/sources.hpp"
#include "rowscan/inputs/outcome.hpp"
#include "rowscan/job/tally.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <vector>
#include <string>
#include <unistd.h>

namespace rowscan::inputs {

/// A workload's entry (rowscan/workload.hpp) on the engine chosen, as the runs take it (workloads.hpp
/// makes one): its job on an engine, the merge of its answers and their wire form.
template <class Summary, class Options>
struct workload {
  engine const* on;  ///< the engine that folds the inputs
  /// The job over several inputs, in turn, with the same workers (job::input_sequence).
  Summary (*run)(engine const& on, job::input_sequence& inputs, Options const& options);
  /// An engine's workers lent to a run (the host's beside a GPU's: hand_over.hpp).
  std::unique_ptr<job::lent_group<Summary>> (*lend)(engine const& on, Options const& options);
  Summary (*merge)(Summary, Summary const&);
  Summary empty;  ///< the answer of no input: the merge's identity
  void (*encode)(wire_writer& out, Summary const& answer);  ///< the answer as bytes between MPI ranks
  void (*decode)(wire_reader& in, Summary& answer);

  Summary summarize_each(job::input_sequence& inputs, Options const& options) const { return run(*on, inputs, options); }
  /// The same workload on another engine (the host's workers beside the GPUs: hand_over.hpp).
  workload on_engine(engine const& other) const {
    workload moved = *this;
    moved.on = &other;
    return moved;
  }
};

/// Where an opened piece's text sits in its file, for its tally (inputs/outcome.hpp).
struct opened_piece {
  std::size_t source = 0;   ///< the piece's file (its index in the sources)
  std::uint64_t begin = 0;  ///< the text's first byte in the file: after moving to a line start, and after a byte order mark
  bool opens_file = false;  ///< the text holds the file's first line: its tally counts from byte 0, the mark included
  std::uint64_t lines = 0;  ///< lines before the text that its tally covers (a header record's, input_source::header)
};

/// Reads a header record from fd (its position moves past it; a pipe's bytes are consumed), byte by
/// byte up to its '\n' outside quotes: the header's bytes (0 for an empty file) and its lines.
inline std::uint64_t read_past_header(int fd, char quote, std::string const& label, std::uint64_t& lines) {
  std::uint64_t bytes = 0;
  bool inside = false;
  char c = 0;
  for (;;) {
    ssize_t const got = ::read(fd, &c, 1);
    if (got < 0) throw error(label + ": cannot read the header");
    if (got == 0) break;
    ++bytes;
    if (c == '\n') ++lines;
    if (quote != 0 && c == quote) inside = !inside;
    else if (c == '\n' && !inside) return bytes;
  }
  if (bytes > 0 && c != '\n') ++lines;  // a header with no record after it
  return bytes;
}

/// Opens a piece for reading into `input`: whole, or its byte range moved to line starts, the
/// descriptor at its first byte; `opened` says where it starts. Returns the most bytes to read,
/// or nothing if the range starts and ends inside one line (which belongs to an earlier range).
inline std::optional<std::uint64_t> open_piece(input_source const& source, input_piece const& piece,
                                               std::optional<io::input_file>& input, opened_piece& opened) {
  opened.source = piece.source;
  if (source.resident_fd >= 0) {
    input.emplace(io::reopen_resident(source.resident_fd, source_label(source)), source_label(source),
                  io::text_options{source.crlf});
  } else {
    input.emplace(source.path, io::text_options{source.crlf});
  }
  if (piece.whole) {
    opened.begin = input->bom_bytes();  // positions count the file's bytes, the byte order mark included
    opened.opens_file = true;
    if (source.header) opened.begin += read_past_header(input->fd(), source.quote, input->label(), opened.lines);
    return UINT64_MAX;
  }
  // A byte order mark is not part of the first line: a range at the file's start begins after it.
  std::uint64_t const begin =
      std::max<std::uint64_t>(input->bom_bytes(), io::line_start_at_or_after(input->fd(), piece.begin, source.size, input->label()));
  std::uint64_t const end = io::line_start_at_or_after(input->fd(), piece.end, source.size, input->label());
  opened.begin = begin;
  opened.opens_file = begin == input->bom_bytes();
  if (begin == end) return std::nullopt;
  if (::lseek(input->fd(), static_cast<off_t>(begin), SEEK_SET) < 0) {
    throw error(input->label() + ": cannot seek to byte " + std::to_string(begin));
  }
  return end - begin;
}

/// The tally a piece starts from: its file, and the bytes before its text that it covers (the byte
/// order mark, when it opens the file).
inline job::tally piece_start(opened_piece const& opened) {
  job::tally t;
  t.source = opened.source;
  t.opens_source = opened.opens_file;
  t.bytes = opened.opens_file ? opened.begin : 0;
  t.lines = opened.opens_file ? opened.lines : 0;
  return t;
}

/// A bad line the job driver reported for a piece's text (`e`, 1-based, the text's byte offset), as a
/// bad line of the piece's tally: its file, and its byte counting the --crlf CRs dropped before it and
/// what the piece covers before its text.
inline job::bad_line piece_line(input_error const& e, opened_piece const& opened, io::input_file const* input) {
  std::uint64_t const dropped = input != nullptr ? input->dropped_before_line(e.line() - 1) : 0;
  std::uint64_t const lead = opened.opens_file ? opened.begin : 0;
  std::uint64_t const lines = opened.opens_file ? opened.lines : 0;
  return {e.line() - 1 + lines, e.byte_offset() + dropped + lead, e.why(), e.column(), e.quote(), opened.source};
}

/// A piece's tally, from the run's report over its text; throws the decoder's error instead if a
/// compressed input was cut short (the cut is the error, not what it caused).
inline job::tally piece_tally(io::input_file const& input, opened_piece const& opened, job::run_report const& run) {
  if (auto failure = input.decode_failure()) throw error(*failure);
  job::tally t = piece_start(opened);
  t.bytes += run.bytes;
  t.lines += run.lines;
  t.skipped = run.skipped.count();
  for (input_error const& e : run.skipped.first()) t.first_skipped.push_back(piece_line(e, opened, &input));
  return t;
}

/// The tally of a piece whose fold ended the run with `thrown`: a bad line as its stop, anything else
/// worded in full as its failure. `input`, if given, is the piece's open input, whose --crlf CRs the
/// bad line's byte offset does not count yet.
inline job::tally failed_piece(std::exception_ptr const& thrown, input_source const& source, opened_piece const& opened,
                               io::input_file const* input = nullptr) {
  job::tally t = piece_start(opened);
  try {
    std::rethrow_exception(thrown);
  } catch (input_error const& e) {
    t.stop = piece_line(e, opened, input);
  } catch (std::bad_alloc const&) {
    t.failure = source_label(source) + ": out of memory (a smaller --chunk-size needs less)";
  } catch (std::exception const& e) {
    t.failure = e.what();
  }
  return t;
}

}  // namespace rowscan::inputs
