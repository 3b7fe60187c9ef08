// SPDX-License-Identifier: Apache-2.0
#include "rowscan/stations/summarize.hpp"

#include "rowscan/context.hpp"
#include "rowscan/error.hpp"
#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/io/text_uploader.hpp"
#include "rowscan/stage_clock.hpp"
#include "rowscan/stations/accumulator.hpp"
#include "rowscan/stations/line_format.hpp"
#include "rowscan/stations/table.hpp"

#include <thrust/copy.h>
#include <thrust/device_vector.h>

#include <algorithm>
#include <array>
#include <chrono>

namespace rowscan::stations {
namespace {

std::uint64_t key_mask(unsigned key_bits) {
  return key_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
}

/// The error for a line that is longer than the reader carries: parse_line decides on a prefix longer
/// than max_line_bytes exactly as on the whole line.
[[noreturn]] void throw_overlong_line(std::string const& label, std::string const& prefix, std::uint64_t offset,
                                      std::uint64_t line) {
  parsed_line const p = parse_line(prefix.data(), static_cast<std::uint32_t>(prefix.size()));
  ROWSCAN_EXPECTS(p.status != line_status::ok, "an overlong line parsed as valid");
  throw input_error(label, line, offset + p.error_at, describe(p.status));
}

/// Device memory in use now (all processes): the difference at the end is what this run holds.
std::size_t device_bytes_in_use() {
  memory_info const m = device_memory_info();
  return m.total_bytes - m.free_bytes;
}

}  // namespace

std::size_t default_chunk_size() {
  // A chunk is the text held on the device at once, in two slots (one copied while the other is
  // worked on); with 4 bytes per line of half of it, twice for the sort, the device needs at most about
  // 1.7 times the chunk size. 64 MiB blocks keep 16 reader threads busy with 4 MiB slices while the
  // pinned ring stays small (its allocation is paid before the first byte is read).
  std::size_t const share = device_memory_info().free_bytes / 8;
  std::size_t const preferred = std::size_t{128} << 20;
  return std::clamp(std::min(share, preferred), std::size_t{1} << 20, max_chunk_size);
}

std::int64_t mean_tenths(station_summary const& s) { return mean_tenths(station_stats{s.min, s.max, s.sum, s.count}); }

summary summarize(int fd, std::string const& label, summarize_options const& options) {
  summary out;
  out.chunk_size = options.chunk_size == 0 ? default_chunk_size() : options.chunk_size;
  if (out.chunk_size < min_chunk_size || out.chunk_size > max_chunk_size) {
    throw error("chunk size must be between " + std::to_string(min_chunk_size) + " and " +
                std::to_string(max_chunk_size) + " bytes, not " + std::to_string(out.chunk_size));
  }
  auto const setup_start = std::chrono::steady_clock::now();
  context ctx;
  ctx.fail_allocations_above(options.fail_allocations_above);
  std::size_t const bytes_at_start = device_bytes_in_use();  // the first device call creates the context
  stage_clock clock(ctx, options.time_stages);
  out.times.device_setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count();
  io::reader_options reading;
  reading.block_size = std::max<std::size_t>(out.chunk_size / io::text_uploader::slots, 1);
  reading.max_line = carried_line_bytes;
  reading.threads = options.reader_threads;
  io::chunked_reader reader(fd, label, reading);
  station_accumulator accumulator(ctx, label, key_mask(options.key_bits), options.portable_only, options.skip_invalid);
  // Two device slots of half the chunk size each: the next block is copied into one while the device
  // works on the other. Each grows to its largest block, plus the padding the fast path may read.
  io::text_uploader uploader;
  std::array<thrust::device_vector<char>, io::text_uploader::slots> slot_text;
  auto upload = [&](int slot, io::text_chunk const& c) {
    if (slot_text[slot].size() < c.size + text_padding_bytes) slot_text[slot].resize(c.size + text_padding_bytes);
    uploader.upload(slot, thrust::raw_pointer_cast(slot_text[slot].data()), c.data, c.size);
  };
  clock.lap(out.times.reader_setup);

  io::text_chunk next{};
  bool more = reader.next(next);
  clock.lap(out.times.read);
  if (more) upload(0, next);
  for (int slot = 0; more; slot ^= 1) {
    io::text_chunk const chunk = next;
    std::string const overlong_prefix =
        chunk.overlong_line ? std::string(chunk.overlong_prefix, std::min<std::size_t>(chunk.overlong_prefix_size, 2 * max_line_bytes))
                            : std::string();
    uploader.host_waits_for(slot);  // the chunk's staging block goes back to the reader with next()
    clock.lap(out.times.copy);
    more = reader.next(next);
    clock.lap(out.times.read);
    if (more) upload(slot ^ 1, next);

    uploader.device_waits_for(slot);
    chunk_position const where{chunk.input_offset, out.lines};
    out.lines += accumulator.add(thrust::raw_pointer_cast(slot_text[slot].data()), chunk.size, where, out.times, clock);
    uploader.consumed(slot);
    if (chunk.overlong_line) throw_overlong_line(label, overlong_prefix, chunk.input_offset + chunk.size, out.lines + 1);
    out.bytes += chunk.size;
    ++out.chunks;
    if (options.progress) options.progress(chunk.input_offset + chunk.size);
  }
  out.device_bytes = device_bytes_in_use() - std::min(bytes_at_start, device_bytes_in_use());
  out.fast_chunks = accumulator.fast_chunks();
  out.general_chunks = accumulator.general_chunks();
  out.names_compared = accumulator.table().names_compared;
  out.skipped = accumulator.skipped();

  station_table const sorted = sorted_by_name(accumulator.table(), ctx);
  out.stations = to_host_summaries(sorted);
  clock.lap(out.times.output);
  return out;
}

}  // namespace rowscan::stations
