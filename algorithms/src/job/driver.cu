// The job driver (rowscan/job/driver.hpp): blocks from the reader, through the uploader, to a worker.
#include "rowscan/job/driver.hpp"

#include "rowscan/context.hpp"
#include "rowscan/error.hpp"
#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/io/text_uploader.hpp"
#include "rowscan/job/out_of_memory.hpp"
#include "rowscan/records.hpp"
#include "rowscan/stage.hpp"

#include <thrust/device_vector.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <string>

namespace rowscan::job {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Device memory in use now (all processes): the difference at the end is what this run holds.
std::size_t device_bytes_in_use() {
  memory_info const m = device_memory_info();
  return m.total_bytes - m.free_bytes;
}

}  // namespace

std::size_t chosen_chunk_size(job_options const& options, chunk_limits const& limits) {
  std::size_t const size = options.chunk_size == 0 ? limits.default_chunk() : options.chunk_size;
  if (size < limits.min_chunk || size > max_chunk_size) {
    throw error("chunk size must be between " + std::to_string(limits.min_chunk) + " and " +
                std::to_string(max_chunk_size) + " bytes, not " + std::to_string(size));
  }
  return size;
}

context start_context(job_options const& options, run_report& report) {
  auto const start = std::chrono::steady_clock::now();
  context ctx;
  ctx.fail_allocations_above(options.fail_allocations_above);
  if (options.time_stages) ctx.observe_stages(&report.times);
  report.times.add("device setup", seconds_since(start));
  return ctx;
}

void run_blocks(int fd, std::string const& label, job_options const& options, block_layout const& layout,
                context const& ctx, block_worker& worker, run_report& report) {
  std::size_t const bytes_at_start = device_bytes_in_use();
  auto const setup_start = std::chrono::steady_clock::now();
  io::reader_options reading;
  reading.block_size = layout.block_size;
  reading.max_line = layout.carried_line;
  reading.threads = options.reader_threads;
  io::chunked_reader reader(fd, label, reading);
  // Two device slots: the next block is copied into one while the worker folds the other. Each grows
  // to its largest block, plus the padding the worker may read.
  io::text_uploader uploader(ctx);
  std::array<thrust::device_vector<char>, io::text_uploader::slots> slot_text;
  auto upload = [&](int slot, io::text_chunk const& c) {
    if (slot_text[slot].size() < c.size + layout.text_padding) slot_text[slot].resize(c.size + layout.text_padding);
    uploader.upload(slot, thrust::raw_pointer_cast(slot_text[slot].data()), c.data, c.size);
  };
  report.times.add("reader setup", seconds_since(setup_start));

  tally input;  // every block so far, in input order
  io::text_chunk next{};
  bool more = false;
  {
    stage_scope s(ctx, "read (waiting)");
    more = reader.next(next);
  }
  if (more) upload(0, next);
  for (int slot = 0; more; slot ^= 1) {
    io::text_chunk const block = next;
    // The staging block goes back to the reader with next(): keep what an overlong line's error needs.
    std::string const overlong_prefix =
        block.overlong_line ? std::string(block.overlong_prefix, std::min(block.overlong_prefix_size, 2 * layout.carried_line))
                            : std::string();
    {
      stage_scope s(ctx, "copy to device");
      uploader.host_waits_for(slot);
    }
    {
      stage_scope s(ctx, "read (waiting)");
      more = reader.next(next);
    }
    if (more) upload(slot ^ 1, next);

    // [docs:fold-block]
    uploader.device_waits_for(slot);
    char const* const text = thrust::raw_pointer_cast(slot_text[slot].data());
    auto split_after = [&](std::size_t middle) { return line_start_after(text, middle, block.size, ctx); };
    auto fold = [&](std::size_t begin, std::size_t end) {
      tally t = worker.fold(text + begin, end - begin);
      t.bytes = end - begin;
      return t;
    };
    tally here;
    try {
      here = in_halves_if_out_of_memory(block.size, split_after, fold);
    } catch (out_of_memory_twice const& e) {
      throw device_error(label + ": out of device memory for the " + std::to_string(e.size) + "-byte chunk at byte " +
                         std::to_string(block.input_offset + e.offset) +
                         ", and again for half of it; " + worker.out_of_memory_advice(report.chunk_size));
    }
    uploader.consumed(slot);
    if (block.overlong_line && !here.stop) {  // after the block's whole lines, which may hold an earlier error
      bad_line overlong = worker.overlong_line(overlong_prefix);
      overlong.line += here.lines;
      overlong.byte += block.size;
      here.stop = overlong;
    }
    input = merge(std::move(input), here);
    if (input.stop) throw located(*input.stop, label);
    // [docs:end]
    ++report.chunks;
    if (options.progress) options.progress(block.input_offset + block.size);
  }
  report.bytes = input.bytes;
  report.lines = input.lines;
  report.skipped = located_skips(input, label);
  std::size_t const in_use = device_bytes_in_use();
  report.device_bytes = in_use - std::min(bytes_at_start, in_use);
  report.pool_peak_bytes = ctx.pool().peak_large_bytes_held();
}

}  // namespace rowscan::job
