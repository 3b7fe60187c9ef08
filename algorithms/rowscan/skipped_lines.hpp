// SPDX-License-Identifier: Apache-2.0
// rowscan/skipped_lines.hpp: what --skip-invalid left out of an answer: how many lines, and the first few.
#pragma once

#include "rowscan/error.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rowscan {

/// The bad lines a run skipped, in input order: all of them counted, the first `kept` with their error.
/// Every chunk size, worker count and backend gives the same record: the job driver builds it from the
/// blocks' tallies merged in input order (job/tally.hpp).
class skipped_lines {
 public:
  /// Positions kept for the summary.
  static constexpr std::size_t kept = 5;

  std::uint64_t count() const { return count_; }
  /// The first min(count(), kept) bad lines, each as the error it would have been without --skip-invalid.
  std::vector<input_error> const& first() const { return first_; }
  /// Counts n more skipped lines (the ones passed to keep() included).
  void count_more(std::uint64_t n) { count_ += n; }
  /// Keeps the position of a skipped line, if fewer than `kept` are kept so far.
  void keep(input_error e) {
    if (first_.size() < kept) first_.push_back(std::move(e));
  }

  /// One line, without "rowscan: " or '\n', e.g. `skipped 7 invalid lines, the first 5: F:3: byte 14: why; ...`;
  /// empty when nothing was skipped.
  std::string summary() const {
    if (count_ == 0) return "";
    std::string text = "skipped " + std::to_string(count_) + (count_ == 1 ? " invalid line" : " invalid lines");
    text += count_ > first_.size() ? ", the first " + std::to_string(first_.size()) + ": " : ": ";
    for (std::size_t i = 0; i < first_.size(); ++i) text += (i == 0 ? "" : "; ") + std::string(first_[i].what());
    return text;
  }

 private:
  std::uint64_t count_ = 0;
  std::vector<input_error> first_;
};

}  // namespace rowscan
