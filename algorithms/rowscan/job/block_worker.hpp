// SPDX-License-Identifier: Apache-2.0
// rowscan/job/block_worker.hpp: what a workload gives the job driver: a worker that folds blocks.
#pragma once

#include "rowscan/job/tally.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace rowscan::job {

/// Folds blocks of whole lines into the workload's partial answer, which the worker keeps (its type
/// and its merge are the workload's: the driver never sees them). One worker per processor.
class block_worker {
 public:
  virtual ~block_worker() = default;

  /// Folds the lines of text[0, size) into the worker's partial answer. The text is in device-system
  /// memory, followed by the padding the workload asked for (block_layout::text_padding), and holds
  /// whole lines of the input (the last may lack its '\n'). Returns the text's tally, positions
  /// relative to text: with skip_invalid, the bad lines left out; otherwise the first bad line as the
  /// tally's stop, and then the partial answer may hold any part of the text.
  /// If the device runs out of memory it throws std::bad_alloc and leaves no trace, so the driver can
  /// fold the two halves instead.
  virtual tally fold(char const* text, std::size_t size) = 0;

  /// The error for a line longer than the reader carries between blocks (block_layout::carried_line),
  /// of which only `prefix` (more than carried_line bytes) is known: line 0, its byte relative to prefix.
  virtual bad_line overlong_line(std::string_view prefix) const = 0;
  /// What to tell the user when a block of chunk_size bytes and its halves ran out of memory: by default
  /// the block's arrays did, and a smaller chunk needs less. A workload whose partial answer grows (the
  /// station table) says so when that is what fills the memory, since no chunk size shrinks it.
  /// Whether a text of whole lines may be cut in two after any '\n' (to fold it in halves when the device
  /// runs out of memory). Not where a quoted field may hold a '\n': its text is folded whole or not at all.
  virtual bool cuts_at_any_line() const { return true; }
  virtual std::string out_of_memory_advice(std::size_t chunk_size) const {
    (void)chunk_size;
    return "give a smaller --chunk-size";
  }
};

}  // namespace rowscan::job
