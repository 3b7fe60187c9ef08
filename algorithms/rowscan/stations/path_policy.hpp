// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/path_policy.hpp: which path a stations block takes, and what each path's record is.
#pragma once

#include <algorithm>
#include <cstddef>

namespace rowscan::stations {

/// The fast path is tried whenever the dictionary can serve, except after it failed: then only after
/// 1, 2, 4 ... 64 general blocks, so that a long list of new stations arriving in small blocks does
/// not pay for a failed fast attempt (and a dictionary rebuild) on every block.
class path_policy {
 public:
  /// Whether to try the fast path on the next block, given that the dictionary can serve.
  bool try_fast(bool dictionary_usable) {
    if (dictionary_usable && skip_fast_ == 0) return true;
    if (skip_fast_ > 0) --skip_fast_;
    return false;
  }
  void fast_succeeded() {
    ++fast_blocks_;
    backoff_ = 1;
  }
  void fast_failed() {
    backoff_ = std::min<std::size_t>(2 * backoff_, 64);
    skip_fast_ = backoff_ / 2;
  }
  /// over_limit: the block began with more stations than the fast path's ids can number, so the
  /// fast path was not tried (else it met a new station or a bad line, or backed off after one).
  void general_ran(bool over_limit) {
    ++general_blocks_;
    if (over_limit) ++over_limit_blocks_;
  }

  std::size_t fast_blocks() const { return fast_blocks_; }
  std::size_t general_blocks() const { return general_blocks_; }
  /// General blocks that began over the fast path's station limit.
  std::size_t over_limit_blocks() const { return over_limit_blocks_; }

 private:
  std::size_t skip_fast_ = 0;  // general blocks to go before the fast path is tried again
  std::size_t backoff_ = 1;    // doubles with every fast attempt that fails
  std::size_t fast_blocks_ = 0;
  std::size_t general_blocks_ = 0;
  std::size_t over_limit_blocks_ = 0;
};

}  // namespace rowscan::stations
