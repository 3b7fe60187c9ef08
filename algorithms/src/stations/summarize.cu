// The `rowscan stations` job (rowscan/stations/summarize.hpp): the driver, one stations worker, and the
// answer in name order.
#include "rowscan/stations/summarize.hpp"

#include "rowscan/context.hpp"
#include "rowscan/error.hpp"
#include "rowscan/stage.hpp"
#include "rowscan/stations/stats.hpp"
#include "rowscan/stations/table.hpp"
#include "rowscan/stations/worker.hpp"

#include <algorithm>
#include <new>
#include <string>

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
  // 1.7 times the chunk size. 64 MiB blocks keep 16 reader threads busy with 4 MiB slices while the
  // pinned ring stays small (its allocation is paid before the first byte is read).
#if ROWSCAN_HAS_CUB
  std::size_t const share = device_memory_info().free_bytes / 8;
#else
  // On the CPU every array is host memory: the reader's ring (2 bytes per chunk byte) beside the two
  // slots (1) and the per-line arrays of 6-byte lines; peak_memory_bound (memory_bound.hpp) counts up
  // to 14 bytes per chunk byte, so a sixteenth of free memory (ulimit -v included) leaves room.
  std::size_t const share = device_memory_info().free_bytes / 16;
#endif
  std::size_t const preferred = std::size_t{128} << 20;
  return std::clamp(std::min(share, preferred), std::size_t{1} << 20, job::max_chunk_size);
}

std::int64_t mean_tenths(station_summary const& s) { return mean_tenths(station_stats{s.min, s.max, s.sum, s.count}); }

summary summarize(int fd, std::string const& label, summarize_options const& options) {
  summary out;
  out.times = job::stage_times(stage_names());
  out.chunk_size = job::chosen_chunk_size(options, {min_chunk_size, default_chunk_size});
  context const ctx = job::start_context(options, out);
  worker stations(ctx, {key_mask(options.key_bits), options.portable_only, options.skip_invalid});
  std::size_t const block_size = std::max<std::size_t>(out.chunk_size / 2, 1);  // two device slots
  job::run_blocks(fd, label, options, {block_size, carried_line_bytes, text_padding_bytes}, ctx, stations, out);

  out.fast_chunks = stations.paths().fast_blocks();
  out.general_chunks = stations.paths().general_blocks();
  out.names_compared = stations.partial().names_compared;
  {
    stage_scope stage(ctx, "output");
    try {
      out.stations = to_host_summaries(sorted_by_name(stations.partial(), ctx));
    } catch (std::bad_alloc const&) {
      station_table const& table = stations.partial();
      throw error(label + ": out of memory for the answer's " + std::to_string(table.size()) + " stations (" +
                  std::to_string(table.names.chars.size()) +
                  " bytes of names; the table needs up to 320 bytes a station and 5 a name byte), which no "
                  "--chunk-size changes; run where more memory is free");
    }
  }
  return out;
}

}  // namespace rowscan::stations
