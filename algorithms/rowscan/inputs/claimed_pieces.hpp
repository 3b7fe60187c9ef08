// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/claimed_pieces.hpp: a share's pieces of the input, opened in input order and folded by one
// run, each piece an input of the run (job::input_sequence): by one engine (fold_in_turn), or by the
// host's workers and the GPUs on one queue (hand_over.hpp). One run keeps one set of workers and what
// they learned (the stations dictionary) across every file of the list.
#pragma once

#include "rowscan/inputs/fold_piece.hpp"
#include "rowscan/inputs/sources.hpp"
#include "rowscan/inputs/outcome.hpp"

#include "rowscan/error.hpp"

#include <cstddef>
#include <deque>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace rowscan::inputs {

/// One run's inputs (job::input_sequence): a share's pieces, opened in turn by the run that reads them
/// and kept open until the run has folded them (the run reads a piece while it folds those before it);
/// each piece's tally kept as the piece is done, until one ends the run.
class claimed_pieces : public job::input_sequence {
 public:
  claimed_pieces(std::vector<input_source> const& sources, std::vector<input_piece> const& pieces)
      : sources_(sources), pieces_(pieces), tallies_(pieces.size()) {}

  bool next(int& fd, std::string& label, std::uint64_t& max_bytes) override {
    while (!stopped_ && next_ < pieces_.size()) {
      std::size_t const i = next_++;
      open_.emplace_back();
      open_piece_state& piece = open_.back();
      piece.index = i;
      auto const bytes = open_piece(sources_[pieces_[i].source], pieces_[i], piece.input, piece.opened);
      if (!bytes) {  // a range inside one line: no line of its own
        tallies_[i] = piece_start(piece.opened);
        open_.pop_back();
        continue;
      }
      fd = piece.input->fd();
      label = piece.input->label();
      max_bytes = *bytes;
      return true;
    }
    return false;
  }

  void done(job::run_report const& run) override {
    open_piece_state& piece = open_.front();
    tallies_[piece.index] = piece_tally(*piece.input, piece.opened, run);
    open_.pop_front();
  }

  /// The earliest piece not done yet ended the run with `thrown`: its tally keeps the error (a compressed
  /// input's cut, when there was one), and no other piece is opened. False if no piece was open (the
  /// error is the worker's, not a piece's).
  bool failed(std::exception_ptr const& thrown) {
    if (open_.empty()) return false;
    open_piece_state& piece = open_.front();
    io::input_file const* const input = piece.input ? &*piece.input : nullptr;
    auto const cut = input != nullptr ? input->decode_failure() : std::nullopt;
    job::tally t = piece_start(piece.opened);
    if (cut) {
      t.failure = *cut;
    } else {
      t = failed_piece(thrown, sources_[piece.opened.source], piece.opened, input);
    }
    stopped_ = true;
    tallies_[piece.index] = std::move(t);
    open_.clear();
    return true;
  }

  /// Throws `thrown`, the error that ended the earliest piece not done, as a run over that piece's whole
  /// file throws it: a compressed input's cut instead of what it caused, and a bad line placed in the file
  /// (the --crlf CRs dropped before it and a byte order mark counted in its byte offset).
  [[noreturn]] void rethrow(std::exception_ptr const& thrown) {
    if (open_.empty() || !open_.front().input) std::rethrow_exception(thrown);
    io::input_file const& input = *open_.front().input;
    opened_piece const& opened = open_.front().opened;
    if (auto const cut = input.decode_failure()) throw error(*cut);
    try {
      std::rethrow_exception(thrown);
    } catch (input_error const& e) {
      std::uint64_t const dropped = input.dropped_before_line(e.line() - 1);
      if (dropped == 0 && opened.begin == 0) throw;
      std::string const label = opened.begin != 0 ? source_label(sources_[opened.source]) : input.label();
      throw input_error(label, e.line() + opened.lines, e.byte_offset() + dropped + opened.begin, e.why(), e.column(),
                        e.quote());
    }
  }

  /// The merged tally of the pieces done so far: always the first ones, in input order, since the
  /// pieces are done in turn and nothing after a piece that ends the run is opened.
  job::tally merged() const {
    job::tally out;
    for (std::optional<job::tally> const& piece : tallies_) {
      if (!piece) break;
      out = job::merge(std::move(out), *piece);
    }
    return out;
  }

 private:
  /// A piece opened and not done yet: where its text sits in its file, and the file.
  struct open_piece_state {
    std::size_t index = 0;
    opened_piece opened;
    std::optional<io::input_file> input;
  };

  std::vector<input_source> const& sources_;
  std::vector<input_piece> const& pieces_;
  std::vector<std::optional<job::tally>> tallies_;  // each piece's, once done
  std::size_t next_ = 0;                            // the next piece to open
  bool stopped_ = false;                            // a piece ended the run
  std::deque<open_piece_state> open_;               // opened and not done, in input order
};

/// Folds the pieces of a share in input order, in one run of the workload's engine; their merged tally
/// goes to `tally`, up to the first piece that ends the run. With `rethrow`, that piece's error is thrown as a
/// run over its file throws it (claimed_pieces::rethrow) instead of being kept in its tally.
template <class Summary, class Options>
Summary fold_in_turn(std::vector<input_source> const& sources, std::vector<input_piece> const& share,
                     Options const& options, workload<Summary, Options> const& work,
                     job::tally& tally, bool rethrow) {
  claimed_pieces pieces(sources, share);
  Summary answer = work.empty;
  try {
    answer = work.summarize_each(pieces, options);
  } catch (...) {
    std::exception_ptr const thrown = std::current_exception();
    if (rethrow) pieces.rethrow(thrown);
    if (!pieces.failed(thrown)) throw;  // not a piece's error: the run's own
  }
  tally = pieces.merged();
  return answer;
}

}  // namespace rowscan::inputs
