// SPDX-License-Identifier: Apache-2.0
// app/early_workers.hpp: host workers that fold a job's first pieces while the GPU starts, the first
// half of the hand-over (hand_over.hpp has the second). Each worker claims the next piece from one
// queue in input order and folds it alone, on its own thread, with the job driver's one-worker run.
//
// In the CUDA build the early workers are the host system's copy of the tool (namespace rowscan_host,
// cmake/rowscan_host_system.cmake), started by the CUDA copy: no type of namespace rowscan crosses
// between the two, only the struct below (outside it) and wire bytes (partial_wire.hpp), as between
// MPI ranks. The cpu build runs them in its own copy, when a test forces a hand-over.
#pragma once

#include "fold_piece.hpp"
#include "inputs.hpp"
#include "input_outcome.hpp"
#include "partial_wire.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace rowscan_shared {

/// What the copy that hands over and the early workers share, for one hand-over.
struct early_workers {
  // Set before the workers start:
  std::string plan;        ///< wire bytes: the command, its options, the sources and the pieces to claim
  std::size_t count = 0;   ///< the pieces in the plan
  unsigned workers = 1;    ///< host workers to start
  std::chrono::steady_clock::time_point start;  ///< the run's start: first-piece times count from it
  // While they run:
  std::atomic<std::size_t> next{0};     ///< the next piece to claim; the hand-over sets it to count
  std::atomic<bool> stopped{false};     ///< a piece ended the run: nobody claims another
  std::atomic<unsigned> claiming{0};    ///< workers still claiming pieces: set to workers before they start
  std::thread runner;                   ///< starts the workers, waits for them, then writes result
  // Once runner is joined:
  std::string result;   ///< wire bytes: each worker's share, the claimed pieces' records in order, the answer
  std::string failure;  ///< what went wrong outside the pieces' folds, if something did (result is then empty)
};

}  // namespace rowscan_shared

namespace rowscan::app {

/// Starts share.workers early workers on share.plan (on share.runner), and returns. The plan names
/// the command; each command's workload runs run_early_workers.
void start_early_workers(rowscan_shared::early_workers& share);

/// The plan: the command, its options, the sources and the pieces to claim.
template <class Options>
std::string early_plan(std::string const& command, Options const& options, std::vector<input_source> const& sources,
                       std::vector<input_piece> const& claims) {
  wire_writer out;
  out.text(command);
  encode(out, options);
  out.text(encode_sources(sources));
  out.text(encode_pieces(claims));
  return out.bytes();
}

/// One early worker's inputs (job::input_sequence): the pieces it claims from the queue, opened in
/// turn; each piece's record, and the worker's share of the work, kept as the piece is done.
class claimed_pieces : public job::input_sequence {
 public:
  claimed_pieces(rowscan_shared::early_workers& share, std::vector<input_source> const& sources,
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

  rowscan_shared::early_workers& share_;
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
/// serves the later ones). Then share.result gets each worker's share of the work (blocks, bytes, busy
/// seconds, its first piece's time from share.start), the records of the pieces claimed (always the
/// first pieces, in input order) and the merge of the workers' answers.
template <class Summary, class Options>
void run_early_workers(rowscan_shared::early_workers& share, std::vector<input_source> const& sources,
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

  wire_writer out;
  encode(out, figures);
  std::size_t claimed = 0;  // every claimed piece is folded, and claims are made in order
  while (claimed < records.size() && records[claimed]) ++claimed;
  out.number(claimed);
  for (std::size_t i = 0; i < claimed; ++i) encode(out, *records[i]);
  Summary answer = work.empty;
  for (Summary const& a : answers) answer = work.merge(std::move(answer), a);
  encode(out, answer);
  share.result = out.bytes();
}

}  // namespace rowscan::app

#if ROWSCAN_HOST_SYSTEM_BUILT
namespace rowscan_host::app {
void start_early_workers(rowscan_shared::early_workers& share);  // the host system's copy (see above)
}
#endif
