// SPDX-License-Identifier: Apache-2.0
// The job driver's side on one Thrust system (rowscan/job/driver.hpp): the lanes a block reaches a worker
// through (the uploader to a GPU, or a host worker's fold where the block lies), the fold in halves, the
// contexts and devices; the driver itself, compiled once, is src/job/run_blocks.cpp.
#include "rowscan/job/driver.hpp"

#include "rowscan/context.hpp"
#include "rowscan/cuda_check.hpp"
#include "rowscan/error.hpp"
#include "rowscan/gpu_runtime/gpus.hpp"
#include "rowscan/gpu_runtime/pinned_memory.hpp"
#include "rowscan/gpu_runtime/text_uploader.hpp"
#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/job/block_queue.hpp"
#include "rowscan/job/devices.hpp"
#include "rowscan/job/lockable_memory.hpp"
#include "rowscan/job/out_of_memory.hpp"
#include "rowscan/job/resident_device.hpp"
#include "rowscan/job/run_blocks.hpp"
#include "rowscan/job/stage_names.hpp"
#include "rowscan/job/timeline.hpp"
#include "rowscan/records.hpp"
#include "rowscan/stage.hpp"

#include <thrust/device_vector.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace rowscan::job {
ROWSCAN_SYSTEM_BEGIN
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}


}  // namespace

/// Folds a block's text (device-system memory) with a worker, in halves if the device runs out of
/// memory for the whole; its tally, positions relative to the block. file_offset (where the block
/// starts in its file) is for the out-of-memory error. Also the fold of a resident run (resident_device.hpp).
// [docs:fold-in-halves]
tally fold_block(worker_slot const& slot, char const* text, std::size_t size, std::uint64_t file_offset,
                 std::string const& label, std::size_t chunk_size) {
  auto split_after = [&](std::size_t middle) {
    // A worker whose records may hold a '\n' is not cut in two (size: the whole again, then the error).
    return slot.worker->cuts_at_any_line() ? line_start_after(text, middle, size, *slot.ctx) : size;
  };
  auto fold = [&](std::size_t begin, std::size_t end) {
    tally t = slot.worker->fold(text + begin, end - begin);
    t.bytes = end - begin;
    return t;
  };
  try {
    return in_halves_if_out_of_memory(size, split_after, fold);
  } catch (out_of_memory_twice const& e) {
    // The memory of the system that folds: the GPU's, or the host's on the host systems.
    constexpr char const* memory = ROWSCAN_HAS_CUB ? "device" : "host";
    throw device_error(label + ": out of " + memory + " memory for the " + std::to_string(e.size) + "-byte chunk at byte " +
                       std::to_string(file_offset + e.offset) +
                       ", and again for half of it; " + slot.worker->out_of_memory_advice(chunk_size));
  }
}
// [docs:end]

namespace {

#if ROWSCAN_HAS_CUB
/// Page-locks a block of the ring of a run a GPU joins, for every GPU, so that copies from it run at the bus's
/// speed; false if the system refuses (it is then copied from as plain memory, more slowly).
bool lock_for_gpus(void* p, std::size_t bytes) {
  char const* const refused = gpu_runtime::lock_for_gpus(p, bytes);
  timeline_mark(refused == nullptr ? "a ring block locked" : refused);  // the timeline says why a block stays plain
  return refused == nullptr;
}
#endif

#if ROWSCAN_HAS_CUB
/// A GPU worker's side of the queue: each batch is copied into one of two device slots on a stream of its
/// own (gpu_runtime::text_uploader) while the worker folds the other, so it holds two batches at once. A batch may
/// hold the blocks of several inputs (the end of one file and the start of the next): one copy, a fold
/// for each input's blocks.
class gpu_lane final : public block_lane {
 public:
  gpu_lane(worker_slot const& slot, fold_place const& place)
      : slot_(slot), place_(place), uploader_(slot.ctx->stream()) {}

  std::size_t depth() const override { return gpu_runtime::text_uploader::slots; }
  std::size_t batch_bytes() const override { return place_.batch_bytes; }
  bool on_gpu() const override { return true; }

  /// Starts copying the batch's blocks, one after another, into its device slot.
  void start(block_batch& batch) override {
    if (place_.ring != nullptr) place_.ring->lock_new({lock_for_gpus, gpu_runtime::unlock_for_gpus});  // blocks new to the ring
    thrust::device_vector<char>& slot = slots_[batch.slot];
    std::size_t const size = batch.bytes();
    if (slot.size() < size + place_.padding) slot.resize(size + place_.padding);  // grows to the largest batch
    char* to = thrust::raw_pointer_cast(slot.data());
    for (queued_block const& b : batch.blocks) {
      uploader_.upload(batch.slot, to, b.text, b.size);
      to += b.size;
    }
  }
  /// Waits until the batch's copy has landed: its reader blocks may go back.
  bool land(block_batch const& batch) override {
    stage_scope s(*slot_.ctx, hand_over_stage);
    uploader_.host_waits_for(batch.slot);
    return true;
  }
  /// Folds one input's blocks of the batch, where they lie in the slot (a batch may hold several inputs).
  tally fold(block_batch const& batch, batch_run const& run) override {
    uploader_.device_waits_for(batch.slot);  // the device work enqueued from now on reads the landed copy
    char const* const text = thrust::raw_pointer_cast(slots_[batch.slot].data()) + run.offset;
    queued_block const& first = batch.blocks[run.first];
    tally t = fold_block(slot_, text, run.bytes, first.file_offset, *first.label, place_.chunk_size);
    uploader_.consumed(batch.slot);  // the work enqueued so far is the last to read the slot
    return t;
  }

 private:
  worker_slot slot_;
  fold_place const& place_;
  gpu_runtime::text_uploader uploader_;
  std::array<thrust::device_vector<char>, gpu_runtime::text_uploader::slots> slots_;
};
#else
/// A host worker's side of the queue: it folds one block at a time, with OpenMP held to one thread (the
/// parallelism is across blocks). Alone, it folds the reader's block where it lies (the reader pads it
/// as the workload asks). Beside GPUs it copies the block first and gives it back at once: the reader
/// reuses its ring in block order, so a block held for a host fold (milliseconds a block) would hold
/// back every block after it, and the GPUs with them (docs/performance.md, "Every processor on one queue").
class host_lane final : public block_lane {
 public:
  host_lane(worker_slot const& slot, fold_place const& place)
      : slot_(slot), place_(place), copies_(place.ring != nullptr) {}

  std::size_t depth() const override { return 1; }
  std::size_t batch_bytes() const override { return 0; }
  bool on_gpu() const override { return false; }
  void start(block_batch& batch) override {
    if (!copies_) return;
    queued_block const& block = batch.blocks.front();
    if (copy_.size() < block.size + place_.padding) copy_.resize(block.size + place_.padding);
    std::memcpy(copy_.data(), block.text, block.size);
  }
  bool land(block_batch const&) override { return copies_; }  // in place: the block goes back once folded
  tally fold(block_batch const& batch, batch_run const&) override {  // a batch of one block
    queued_block const& block = batch.blocks.front();
    char const* const text = copies_ ? copy_.data() : block.text;
    return fold_block(slot_, text, block.size, block.file_offset, *block.label, place_.chunk_size);
  }

 private:
  one_thread_scope one_thread_;  // made and ended on the worker's thread, whose OpenMP setting it is
  worker_slot slot_;
  fold_place const& place_;
  bool copies_;
  std::vector<char> copy_;  // the block's copy, with the workload's padding after it
};
#endif

/// A lane for each worker, made on the worker's thread with its GPU current (the GPU current now, for a
/// worker without one of its own).
std::vector<lane_maker> lanes_for(std::vector<worker_slot> const& workers, fold_place const& place) {
  int const current = current_device();
  std::vector<lane_maker> lanes;
  for (worker_slot const& slot : workers) {
    lanes.push_back([slot, &place, current]() -> std::unique_ptr<block_lane> {
      use_device(slot.device != no_device ? slot.device : current);
#if ROWSCAN_HAS_CUB
      return std::make_unique<gpu_lane>(slot, place);
#else
      return std::make_unique<host_lane>(slot, place);
#endif
    });
  }
  return lanes;
}

}  // namespace


std::vector<int> worker_devices(job_options const& options) {
#if ROWSCAN_HAS_CUB
  return options.gpus.empty() ? std::vector<int>{no_device} : options.gpus;
#else
  std::size_t const n = options.workers != 0 ? options.workers : host_worker_count();
  return std::vector<int>(n, no_device);
#endif
}

// A host worker has no GPU: on the host systems these do nothing, and the CUDA driver is never loaded.
void use_device(int device) {
  if (ROWSCAN_HAS_CUB) gpu_runtime::use_device(device);
}

int current_device() { return ROWSCAN_HAS_CUB ? gpu_runtime::current_device() : no_device; }

void start_devices(std::vector<int> const& devices) {
  if (ROWSCAN_HAS_CUB) gpu_runtime::start_devices(devices);
}

std::size_t preferred_chunk_size(std::size_t on_gpu, std::size_t on_host) {
  std::size_t const preferred = ROWSCAN_HAS_CUB ? on_gpu : on_host;
  std::size_t const share = device_memory_info().free_bytes / 8;
  return std::clamp(std::min(share, preferred), std::size_t{1} << 20, max_chunk_size);
}

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
  context ctx = take_context();  // a session's kept one, or a new one (resident_device.hpp)
  ctx.fail_allocations_above(options.fail_allocations_above);
  if (options.time_stages) ctx.observe_stages(&report.times);
  report.times.add(setup_stage, seconds_since(start));
  return ctx;
}

bool system_lanes::on_gpu() const { return ROWSCAN_HAS_CUB; }

std::vector<lane_maker> system_lanes::lanes(fold_place const& place) const { return lanes_for(workers_, place); }

io::block_memory system_lanes::ring_memory() const {
  return ROWSCAN_HAS_CUB ? gpu_runtime::pinned_block_memory() : io::plain_block_memory();
}

std::size_t system_lanes::memory_in_use() const {
  memory_info const m = device_memory_info();
  return m.total_bytes - m.free_bytes;
}

std::size_t system_lanes::pool_peak_bytes() const { return workers_.front().ctx->pool().peak_large_bytes_held(); }

char const* system_lanes::hand_over_stage() const { return job::hand_over_stage; }

bool system_lanes::holds_copy(int fd) const { return kept_on_device(fd); }

bool system_lanes::fold_copy(int fd, std::string const& label, job_options const& options, block_layout const& layout,
                             run_report& report) const {
  return run_resident(fd, label, options, layout, workers_, report);
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::job
