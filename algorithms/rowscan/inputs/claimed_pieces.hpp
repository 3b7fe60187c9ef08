// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/claimed_pieces.hpp: a share's pieces of the input, claimed in input order and folded by one
// run, each piece an input of the run (job::input_sequence): by one engine (fold_in_turn), or by the
// host's workers and the GPUs on one queue (hand_over.hpp). One run keeps one set of workers and what
// they learned (the stations dictionary) across every file of the list.
#pragma once

#include "rowscan/inputs/fold_piece.hpp"
#include "rowscan/inputs/sources.hpp"
#include "rowscan/inputs/outcome.hpp"

#include "rowscan/error.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace rowscan::inputs {

/// A queue of pieces in input order, which the run that folds them claims one after another.
struct piece_queue {
  std::size_t count = 0;   ///< the pieces to claim
  std::chrono::steady_clock::time_point start;  ///< the run's start: first-piece times count from it
  std::atomic<std::size_t> next{0};     ///< the next piece to claim
  std::atomic<bool> stopped{false};     ///< a piece ended the run: nobody claims another
};

/// One run's inputs (job::input_sequence): the pieces it claims from the queue, opened in turn; each
/// piece's tally, and the worker's share of the work, kept as the piece is done.
class claimed_pieces : public job::input_sequence {
 public:
  claimed_pieces(piece_queue& share, std::vector<input_source> const& sources,
                 std::vector<input_piece> const& claims, std::vector<std::optional<job::tally>>& tallies,
                 job::worker_share& figure)
      : share_(share), sources_(sources), claims_(claims), tallies_(tallies), figure_(figure) {}

  bool next(int& fd, std::string& label, std::uint64_t& max_bytes) override {
    while (!share_.stopped) {
      std::size_t const i = share_.next.fetch_add(1);
      if (i >= claims_.size()) return false;
      current_ = i;
      opened_ = opened_piece{};
      text_bytes_ = 0;
      begin_ = std::chrono::steady_clock::now();
      auto const bytes = open_piece(sources_[claims_[i].source], claims_[i], input_, opened_);
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

  void done(job::run_report const& run) override {
    text_bytes_ = run.bytes;
    figure_.blocks += run.chunks;
    finish(piece_tally(*input_, opened_, run));
  }

  /// The piece being read ended the run with `thrown`: its tally keeps the error (a compressed
  /// input's cut, when there was one), and nobody claims another piece. False if no piece was being
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
    share_.stopped = true;
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
      throw input_error(label, e.line(), e.byte_offset() + dropped + opened_.begin, e.why(), e.column(), e.quote());
    }
  }

 private:
  void finish(job::tally piece) {
    auto const now = std::chrono::steady_clock::now();
    if (figure_.bytes == 0 && figure_.busy_seconds == 0) {
      figure_.first_block_at = std::chrono::duration<double>(begin_ - share_.start).count();
    }
    figure_.bytes += text_bytes_;
    figure_.busy_seconds += std::chrono::duration<double>(now - begin_).count();
    tallies_[*current_] = std::move(piece);
    current_.reset();
    input_.reset();
  }

  piece_queue& share_;
  std::vector<input_source> const& sources_;
  std::vector<input_piece> const& claims_;
  std::vector<std::optional<job::tally>>& tallies_;
  job::worker_share& figure_;
  std::optional<std::size_t> current_;  // the claim being read
  opened_piece opened_;                  // where its text sits in its file
  std::uint64_t text_bytes_ = 0;         // the bytes of text it gave the run
  std::optional<io::input_file> input_;
  std::chrono::steady_clock::time_point begin_;
};

/// The merged tally of the pieces claimed so far: always the first ones, since claims are made in
/// input order and every claimed piece is folded, or ends the run and nothing after it is claimed.
inline job::tally claimed_tally(std::vector<std::optional<job::tally>> const& pieces) {
  job::tally out;
  for (std::optional<job::tally> const& piece : pieces) {
    if (!piece) break;
    out = job::merge(std::move(out), *piece);
  }
  return out;
}

/// Folds the pieces of a share in input order, in one run of the workload's engine; their merged tally
/// goes to `tally`, up to the first piece that ends the run. With `rethrow`, that piece's error is thrown as a
/// run over its file throws it (claimed_pieces::rethrow) instead of being kept in its tally.
template <class Summary, class Options>
Summary fold_in_turn(std::vector<input_source> const& sources, std::vector<input_piece> const& share,
                     Options const& options, workload<Summary, Options> const& work,
                     job::tally& tally, bool rethrow) {
  piece_queue queue;
  queue.count = share.size();
  queue.start = std::chrono::steady_clock::now();
  std::vector<std::optional<job::tally>> placed(share.size());
  job::worker_share figure;
  claimed_pieces pieces(queue, sources, share, placed, figure);
  Summary answer = work.empty;
  try {
    answer = work.summarize_each(pieces, options);
  } catch (...) {
    std::exception_ptr const thrown = std::current_exception();
    if (rethrow) pieces.rethrow(thrown);
    if (!pieces.failed(thrown)) throw;  // not a piece's error: the run's own
  }
  tally = claimed_tally(placed);
  return answer;
}

}  // namespace rowscan::inputs
