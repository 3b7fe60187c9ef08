// SPDX-License-Identifier: Apache-2.0
// The `rowscan stations` job (rowscan/stations/summarize.hpp): the driver, one stations worker, and the
// answer in name order.
#include "rowscan/stations/summarize.hpp"

#include "rowscan/context.hpp"
#include "rowscan/stage.hpp"
#include "rowscan/stations/stats.hpp"
#include "rowscan/stations/table.hpp"
#include "rowscan/stations/worker.hpp"

#include <algorithm>
#include <memory>
#include <vector>

namespace rowscan::stations {
namespace {

std::uint64_t key_mask(unsigned key_bits) {
  return key_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
}

}  // namespace

std::vector<std::string> stage_names() {
  return {"device setup", "reader setup", "read (waiting)", "copy to device", "dictionary", "find + parse", "sort",
          "reduce",       "merge",        "general path",   "output"};
}

std::size_t default_chunk_size() {
  // A chunk is the text held on the device at once, in two slots (one copied while the other is
  // worked on); with 4 bytes per line of half of it, twice for the sort, the device needs at most about
  // 1.7 times the chunk size.
  std::size_t const share = device_memory_info().free_bytes / 8;
#if ROWSCAN_HAS_CUB
  // 64 MiB blocks keep 16 reader threads busy with 4 MiB slices while the pinned ring stays small (its
  // allocation is paid before the first byte is read).
  std::size_t const preferred = std::size_t{128} << 20;
#else
  // Every host worker folds one block at a time with its own arrays, so memory is about workers x 1.7 x
  // the chunk. On 2 cores, 2e7 rows x 10,000 stations: 128 MiB took 11.4 s wall, 4.9 s user, 932 MB;
  // 8 MiB 3.1 s wall, 1.8 s user, 117 MB (a loaded machine; see docs/performance.md).
  std::size_t const preferred = std::size_t{8} << 20;
#endif
  return std::clamp(std::min(share, preferred), std::size_t{1} << 20, job::max_chunk_size);
}

std::int64_t mean_tenths(station_summary const& s) { return mean_tenths(station_stats{s.min, s.max, s.sum, s.count}); }

summary summarize(int fd, std::string const& label, summarize_options const& options) {
  summary out;
  out.times = job::stage_times(stage_names());
  out.chunk_size = job::chosen_chunk_size(options, {min_chunk_size, default_chunk_size});
  // One worker per processor, each with a context of its own; their station tables merge at the end.
  std::vector<context> contexts;
  std::vector<std::unique_ptr<worker>> workers;
  std::vector<job::worker_slot> slots;
  for (std::size_t w = 0, n = job::worker_count(options); w < n; ++w) {
    contexts.push_back(job::start_context(options, out));
    workers.push_back(std::make_unique<worker>(contexts.back(),
                                               worker_options{key_mask(options.key_bits), options.portable_only,
                                                              options.skip_invalid}));
  }
  for (std::size_t w = 0; w < workers.size(); ++w) slots.push_back({&contexts[w], workers[w].get()});
  std::size_t const block_size = std::max<std::size_t>(out.chunk_size / 2, 1);  // two device slots
  job::run_blocks(fd, label, options, {block_size, carried_line_bytes, text_padding_bytes}, slots, out);

  {
    context const& ctx = contexts.front();
    stage_scope stage(ctx, "output");
    station_table all = workers.front()->partial();
    for (std::size_t w = 0; w < workers.size(); ++w) {
      if (w > 0) all = merge_tables(all, workers[w]->partial(), ctx);
      out.fast_chunks += workers[w]->paths().fast_blocks();
      out.general_chunks += workers[w]->paths().general_blocks();
    }
    out.names_compared = all.names_compared;
    out.stations = to_host_summaries(sorted_by_name(all, ctx));
  }
  return out;
}

}  // namespace rowscan::stations
