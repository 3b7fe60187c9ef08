// SPDX-License-Identifier: Apache-2.0
// app/early_workers.hpp: host workers that fold a job's first pieces while the GPU starts, the first
// half of the hand-over (hand_over.hpp has the second). Each worker claims the next piece from one
// queue in input order and folds it alone, on its own thread, with the job driver's one-worker run.
//
// The early workers run the host engine (rowscan/engine.hpp) on threads of this process, beside the
// engine that takes the rest; the cpu build's host engine plays both parts when a test forces a hand-over.
#pragma once

#include "fold_piece.hpp"
#include "inputs.hpp"
#include "input_outcome.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace rowscan::app {

/// The queue of one hand-over, which the run that hands over and its early workers share.
struct early_claims {
  // Set before the workers start:
  std::size_t count = 0;   ///< the pieces to claim
  unsigned workers = 1;    ///< host workers to start
  std::chrono::steady_clock::time_point start;  ///< the run's start: first-piece times count from it
  // While they run:
  std::atomic<std::size_t> next{0};     ///< the next piece to claim; the hand-over sets it to count
  std::atomic<bool> stopped{false};     ///< a piece ended the run: nobody claims another
  std::atomic<unsigned> claiming{0};    ///< workers still claiming pieces: set to workers before they start
  std::thread runner;                   ///< starts the workers, waits for them, then fills the results
};

/// The early workers of a workload whose answer is Summary: the queue, and what they folded.
template <class Summary>
struct early_workers : early_claims {
  // Once runner is joined:
  std::vector<job::worker_share> shares;  ///< each worker's share of the work
  std::vector<piece_record> records;      ///< the records of the pieces claimed (the first ones), in input order
  Summary answer;                         ///< the merge of the workers' answers
  std::string failure;  ///< what went wrong outside the pieces' folds, if something did (the rest is then empty)
};

/// One early worker's inputs (job::input_sequence): the pieces it claims from the queue, opened in
/// turn; each piece's record, and the worker's share of the work, kept as the piece is done.
class claimed_pieces : public job::input_sequence {
 public:
  claimed_pieces(early_claims& share, std::vector<input_source> const& sources,
                 std::vector<input_piece> const& claims, std::vector<std::optional<piece_record>>& records,
                 job::worker_share& figure)
      : share_(share), sources_(sources), claims_(claims), records_(records), figure_(figure) {}

  bool next(int& fd, std::string& label, std::uint64_t& max_bytes) override {
    while (!share_.stopped) {
      std::size_t const i = share_.next.fetch_add(1);
      if (i >= claims_.size()) return false;
      current_ = i;
      record_ = piece_record{};
      begin_ = std::chrono::steady_clock::now();
      auto const bytes = open_piece(sources_[claims_[i].source], claims_[i], input_, record_);
      if (!bytes) {  // a range inside one line: no line of its own
        finish();
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
    record_run(*input_, run, record_);
    figure_.blocks += run.chunks;
    finish();
  }

  /// The piece being read ended the run with `thrown`: its record keeps the error (a compressed
  /// input's cut, when there was one), and nobody claims another piece. False if no piece was being
  /// read (the error is the worker's, not a piece's).
  bool failed(std::exception_ptr const& thrown) {
    if (!current_) return false;
    auto const cut = input_ ? input_->decode_failure() : std::nullopt;
    if (cut) {
      record_.failure = *cut;
    } else {
      record_failure(thrown, sources_[claims_[*current_].source], record_, input_ ? &*input_ : nullptr);
    }
    share_.stopped = true;
    finish();
    return true;
  }

 private:
  void finish() {
    auto const now = std::chrono::steady_clock::now();
    if (figure_.bytes == 0 && figure_.busy_seconds == 0) {
      figure_.first_block_at = std::chrono::duration<double>(begin_ - share_.start).count();
    }
    figure_.bytes += record_.bytes;
    figure_.busy_seconds += std::chrono::duration<double>(now - begin_).count();
    records_[*current_] = std::move(record_);
    current_.reset();
    input_.reset();
  }

  early_claims& share_;
  std::vector<input_source> const& sources_;
  std::vector<input_piece> const& claims_;
  std::vector<std::optional<piece_record>>& records_;
  job::worker_share& figure_;
  std::optional<std::size_t> current_;  // the claim being read
  piece_record record_;
  std::optional<io::input_file> input_;
  std::chrono::steady_clock::time_point begin_;
};

/// The early workers of one workload: share.workers threads claim share's pieces until none is left,
/// the hand-over took the rest, or a piece ended the run. Each folds its pieces with one one-worker run
/// of the workload (summarize_each: what the first piece taught it, such as the stations dictionary,
/// serves the later ones). Then share gets each worker's share of the work (blocks, bytes, busy
/// seconds, its first piece's time from share.start), the records of the pieces claimed (always the
/// first pieces, in input order) and the merge of the workers' answers.
template <class Summary, class Options>
void run_early_workers(early_workers<Summary>& share, std::vector<input_source> const& sources,
                       std::vector<input_piece> const& claims, Options const& options,
                       workload<Summary, Options> const& work) {
  Options alone = options;  // one thread a worker: the parallelism is across pieces
  alone.workers = 1;
  alone.reader_threads = 1;
  alone.progress = {};
  std::vector<std::optional<piece_record>> records(claims.size());
  std::vector<Summary> answers(share.workers, work.empty);
  std::vector<job::worker_share> figures(share.workers);
  std::vector<std::string> failures(share.workers);  // an error of a worker's answer, not of a piece
  auto fold_claims = [&](unsigned w) {
    claimed_pieces mine(share, sources, claims, records, figures[w]);
    try {
      answers[w] = work.summarize_each(mine, alone);
    } catch (std::exception const& e) {
      if (!mine.failed(std::current_exception())) failures[w] = e.what();
    }
    share.claiming -= 1;
  };

  std::vector<std::thread> threads;  // share.claiming counts them from before they start
  for (unsigned w = 0; w < share.workers; ++w) {
    try {
      threads.emplace_back(fold_claims, w);
    } catch (std::system_error const&) {
      share.claiming -= share.workers - w;  // the system refused a thread: fewer workers fold
      break;
    }
  }
  for (std::thread& t : threads) t.join();
  for (std::string const& failure : failures) {
    if (!failure.empty()) throw error(failure);
  }

  share.shares = std::move(figures);
  std::size_t claimed = 0;  // every claimed piece is folded, and claims are made in order
  while (claimed < records.size() && records[claimed]) ++claimed;
  for (std::size_t i = 0; i < claimed; ++i) share.records.push_back(std::move(*records[i]));
  share.answer = work.empty;
  for (Summary const& a : answers) share.answer = work.merge(std::move(share.answer), a);
}

/// Starts share.workers early workers on `claims` (on share.runner), folding with `work` (on the host
/// engine), and returns. sources and claims must live until share.runner is joined.
template <class Summary, class Options>
void start_early_workers(early_workers<Summary>& share, std::vector<input_source> const& sources,
                         std::vector<input_piece> const& claims, Options const& options,
                         workload<Summary, Options> const& work) {
  share.runner = std::thread([&share, &sources, &claims, options, work] {
    try {
      run_early_workers(share, sources, claims, options, work);
    } catch (std::exception const& e) {
      share.failure = e.what();
    }
  });
}

}  // namespace rowscan::app
