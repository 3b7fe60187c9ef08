// SPDX-License-Identifier: Apache-2.0
// app/fold_piece.hpp: a workload, and one piece of the input folded with it (a whole file, or a byte
// range of one whose lines are those that start in it). Every way of running a job is made of these:
// one process over its files, MPI ranks over their shares (scale_out.hpp), host workers and a GPU
// over claimed pieces (hand_over.hpp).
#pragma once

#include "rowscan/error.hpp"
#include "rowscan/io/byte_range.hpp"
#include "rowscan/io/input_file.hpp"

#include "inputs.hpp"
#include "input_outcome.hpp"

#include <cstdint>
#include <new>
#include <vector>
#include <string>
#include <unistd.h>

namespace rowscan::app {

/// What a workload gives the scale-out: its job and the merge of its answers.
template <class Summary, class Options>
struct workload {
  Summary (*summarize)(int fd, std::string const& label, Options const& options);
  Summary (*merge)(Summary, Summary const&);
  Summary empty;  ///< the answer of no input: the merge's identity
};

/// Folds one piece of a source with the workload, filling the record's counts and skipped lines.
template <class Summary, class Options>
Summary fold_piece(input_source const& source, input_piece const& piece, Options options,
                   workload<Summary, Options> const& work, piece_record& record) {
  record.source = piece.source;
  io::input_file input(source.path);
  if (!piece.whole) {
    std::uint64_t const begin = io::line_start_at_or_after(input.fd(), piece.begin, source.size, input.label());
    std::uint64_t const end = io::line_start_at_or_after(input.fd(), piece.end, source.size, input.label());
    record.begin = begin;
    if (begin == end) return work.empty;  // inside one line, which belongs to an earlier range
    if (::lseek(input.fd(), static_cast<off_t>(begin), SEEK_SET) < 0) {
      throw error(input.label() + ": cannot seek to byte " + std::to_string(begin));
    }
    options.max_input_bytes = end - begin;
  }
  Summary answer;
  try {
    answer = work.summarize(input.fd(), input.label(), options);
  } catch (...) {
    // A compressed input cut short: the cut is the error, not what it caused.
    if (auto failure = input.decode_failure()) throw error(*failure);
    throw;
  }
  if (auto failure = input.decode_failure()) throw error(*failure);
  record.bytes = answer.bytes;
  record.lines = answer.lines;
  record.skipped = answer.skipped.count();
  for (input_error const& e : answer.skipped.first()) {
    record.first_skipped.push_back({input.label(), e.line(), e.byte_offset(), e.why()});
  }
  return answer;
}

/// fold_piece, with the error that ends the run kept in the record instead of thrown (a bad line as
/// record.bad_stop, anything else worded in full as record.failure): for pieces whose errors must wait
/// for the earlier pieces' before one of them is the run's. The answer is then work.empty.
template <class Summary, class Options>
Summary fold_piece_recorded(input_source const& source, input_piece const& piece, Options const& options,
                            workload<Summary, Options> const& work, piece_record& record) {
  try {
    return fold_piece(source, piece, options, work, record);
  } catch (input_error const& e) {
    record.bad_stop = placed_line{source_label(source), e.line(), e.byte_offset(), e.why()};
  } catch (std::bad_alloc const&) {
    record.failure = source_label(source) + ": out of memory (a smaller --chunk-size needs less)";
  } catch (std::exception const& e) {
    record.failure = e.what();
  }
  return work.empty;
}

/// Folds the pieces of a share one after another, in this process's one run at a time; their records
/// go to `records`, up to the first that ends the run. With `rethrow`, that piece's error is thrown as
/// the job threw it instead.
template <class Summary, class Options>
Summary fold_in_turn(std::vector<input_source> const& sources, std::vector<input_piece> const& share,
                     Options const& options, workload<Summary, Options> const& work,
                     std::vector<piece_record>& records, bool rethrow) {
  Summary answer = work.empty;
  std::uint64_t bytes_before = 0;  // of the earlier pieces, for the progress display
  for (input_piece const& piece : share) {
    Options piece_options = options;
    if (options.progress) {
      piece_options.progress = [&, before = bytes_before](std::uint64_t done) { options.progress(before + done); };
    }
    bytes_before += piece.end - piece.begin;
    piece_record record;
    input_source const& source = sources[piece.source];
    answer = work.merge(std::move(answer), rethrow ? fold_piece(source, piece, piece_options, work, record)
                                                   : fold_piece_recorded(source, piece, piece_options, work, record));
    records.push_back(std::move(record));
    if (records.back().bad_stop || records.back().failure) break;  // nothing later can matter
  }
  return answer;
}

}  // namespace rowscan::app
