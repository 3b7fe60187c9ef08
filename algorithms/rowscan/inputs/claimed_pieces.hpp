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
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace rowscan::inputs {

/// One run's inputs (job::input_sequence): a share's pieces, opened in turn by the run that reads them;
/// each piece's tally kept as the piece is done, until one ends the run.
class claimed_pieces : public job::input_sequence {
 public:
  claimed_pieces(std::vector<input_source> const& sources, std::vector<input_piece> const& pieces)
      : sources_(sources), pieces_(pieces), tallies_(pieces.size()) {}

  bool next(int& fd, std::string& label, std::uint64_t& max_bytes) override {
    while (!stopped_ && next_ < pieces_.size()) {
      std::size_t const i = next_++;
      current_ = i;
      opened_ = opened_piece{};
      auto const bytes = open_piece(sources_[pieces_[i].source], pieces_[i], input_, opened_);
      if (!bytes) {  // a range inside one line: no line of its own
        finish(piece_start(opened_));
        continue;
      }
      fd = input_->fd();
      label = input_->label();
      max_bytes = *bytes;
      return true;
    }
    return false;
  }

  void done(job::run_report const& run) override { finish(piece_tally(*input_, opened_, run)); }

  /// The piece being read ended the run with `thrown`: its tally keeps the error (a compressed
  /// input's cut, when there was one), and no other piece is opened. False if no piece was being
  /// read (the error is the worker's, not a piece's).
  bool failed(std::exception_ptr const& thrown) {
    if (!current_) return false;
    auto const cut = input_ ? input_->decode_failure() : std::nullopt;
    job::tally t = piece_start(opened_);
    if (cut) {
      t.failure = *cut;
    } else {
      t = failed_piece(thrown, sources_[opened_.source], opened_, input_ ? &*input_ : nullptr);
    }
    stopped_ = true;
    finish(std::move(t));
    return true;
  }

  /// Throws `thrown`, the error that ended the piece being read, as a run over that piece's whole file
  /// throws it: a compressed input's cut instead of what it caused, and a bad line placed in the file
  /// (the --crlf CRs dropped before it and a byte order mark counted in its byte offset).
  [[noreturn]] void rethrow(std::exception_ptr const& thrown) {
    if (!current_ || !input_) std::rethrow_exception(thrown);
    if (auto const cut = input_->decode_failure()) throw error(*cut);
    try {
      std::rethrow_exception(thrown);
    } catch (input_error const& e) {
      std::uint64_t const dropped = input_->dropped_before_line(e.line() - 1);
      if (dropped == 0 && opened_.begin == 0) throw;
      std::string const label = opened_.begin != 0 ? source_label(sources_[opened_.source]) : input_->label();
      throw input_error(label, e.line() + opened_.lines, e.byte_offset() + dropped + opened_.begin, e.why(), e.column(),
                        e.quote());
    }
  }

 /// The merged tally of the pieces done so far: always the first ones, in input order, since the
  /// pieces are opened in turn and nothing after a piece that ends the run is opened.
  job::tally merged() const {
    job::tally out;
    for (std::optional<job::tally> const& piece : tallies_) {
      if (!piece) break;
      out = job::merge(std::move(out), *piece);
    }
    return out;
  }

 private:
  void finish(job::tally piece) {
    tallies_[*current_] = std::move(piece);
    current_.reset();
    input_.reset();
  }

  std::vector<input_source> const& sources_;
  std::vector<input_piece> const& pieces_;
  std::vector<std::optional<job::tally>> tallies_;  // each piece's, once done
  std::size_t next_ = 0;                            // the next piece to open
  bool stopped_ = false;                            // a piece ended the run
  std::optional<std::size_t> current_;              // the piece being read
  opened_piece opened_;                             // where its text sits in its file
  std::optional<io::input_file> input_;
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
