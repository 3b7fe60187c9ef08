// SPDX-License-Identifier: Apache-2.0
// A session's files in device memory, folded where they lie (rowscan/job/resident_device.hpp).
#include "rowscan/job/resident_device.hpp"

#include "rowscan/context.hpp"
#include "rowscan/cuda_check.hpp"
#include "rowscan/error.hpp"
#include "rowscan/gpu_runtime/file_copies.hpp"
#include "rowscan/job/line_end_index.hpp"
#include "rowscan/job/tally.hpp"
#include "rowscan/session/device_keeper.hpp"

#include <algorithm>
#include <cerrno>
#include <atomic>
#include <chrono>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace rowscan::job {
ROWSCAN_SYSTEM_BEGIN
namespace {

#if ROWSCAN_HAS_CUB
/// Readable bytes after the copy's text, for the last block: more than any workload asks for after a text.
constexpr std::size_t copy_padding = 4096;

/// A file's bytes on one GPU, the index of its line ends, and the memory file the session's runs read in the
/// file's place (its descriptor duplicated, so that write_back can fill it). Freed with cudaFree, whose error at
/// the runtime's teardown is ignored (a device_vector would throw).
struct device_copy {
  char* device = nullptr;
  std::uint64_t bytes = 0;
  std::optional<line_end_index> line_ends;
  std::uint64_t longest_line = 0;  // at least the longest line's bytes, with its '\n'
  int gpu = 0;
  int memory = -1;
  std::mutex writing;         // write_back's, once
  bool written_back = false;  // the memory file holds every byte
  ~device_copy() {
    if (device != nullptr) (void)cudaFree(device);
    (void)cudaGetLastError();
    if (memory >= 0) ::close(memory);
  }
};

using file_key = std::pair<std::uint64_t, std::uint64_t>;  // the memory file's device and inode

std::optional<file_key> key_of(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return std::nullopt;
  return file_key{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

/// The copies, never destroyed: each is freed by drop_from_device while the CUDA runtime is there.
std::mutex& copies_mutex() {
  static auto* m = new std::mutex;
  return *m;
}
std::map<file_key, std::shared_ptr<device_copy>>& copies() {
  static auto* c = new std::map<file_key, std::shared_ptr<device_copy>>;
  return *c;
}

/// The contexts kept for sessions (hold_contexts), each with its GPU, never destroyed but by hold_contexts.
struct context_shelf {
  std::mutex mutex;
  unsigned holders = 0;
  std::vector<std::pair<int, context>> kept;
};
context_shelf& shelf() {
  static auto* s = new context_shelf;
  return *s;
}

std::shared_ptr<device_copy> copy_of(int fd) {
  auto const key = key_of(fd);
  if (!key) return nullptr;
  std::lock_guard<std::mutex> lock(copies_mutex());
  auto const found = copies().find(*key);
  return found == copies().end() ? nullptr : found->second;
}

/// Fills the memory file with the copy's bytes, once, for a run that reads it instead of folding the copy (the
/// session wrote only its first bytes: rowscan/session/resident_cache.hpp, load_to_device).
void write_back(device_copy& copy) {
  std::lock_guard<std::mutex> lock(copy.writing);
  if (copy.written_back) return;
  gpu_runtime::copy_device_to_file(copy.gpu, copy.device, copy.bytes, copy.memory);
  copy.written_back = true;
}
#endif

}  // namespace

void hold_contexts(bool hold) {
#if ROWSCAN_HAS_CUB
  std::vector<std::pair<int, context>> gone;
  {
    std::lock_guard<std::mutex> lock(shelf().mutex);
    if (hold) {
      ++shelf().holders;
      return;
    }
    if (shelf().holders == 0 || --shelf().holders != 0) return;
    gone = std::move(shelf().kept);
  }
  if (gone.empty()) return;
  int const current = current_device();
  while (!gone.empty()) {  // each freed with its GPU current (its stream and memory are that GPU's)
    try {
      use_device(gone.back().first);
    } catch (...) {
      // a GPU that cannot be made current: free what can be freed from here
    }
    gone.pop_back();
  }
  use_device(current);
#else
  (void)hold;
#endif
}

context take_context() {
#if ROWSCAN_HAS_CUB
  int const device = current_device();
  {
    std::lock_guard<std::mutex> lock(shelf().mutex);
    if (shelf().holders == 0) return context{};
    for (auto const& [gpu, ctx] : shelf().kept) {
      // Idle: no run holds a copy of it. memory() is a copy of the pool's owner: 2 with the shelf's own.
      if (gpu == device && ctx.memory().use_count() == 2) return ctx;
    }
  }
  context made;  // a stream and a pool: made outside the lock
  std::lock_guard<std::mutex> lock(shelf().mutex);
  if (shelf().holders != 0) shelf().kept.emplace_back(device, made);
  return made;
#else
  return context{};
#endif
}

bool kept_on_device(int fd) {
#if ROWSCAN_HAS_CUB
  return copy_of(fd) != nullptr;
#else
  (void)fd;
  return false;
#endif
}

bool keep_on_device(int file, int memory, std::uint64_t bytes) {
#if ROWSCAN_HAS_CUB
  auto const key = key_of(memory);
  if (!key || bytes == 0) return false;
  auto copy = std::make_shared<device_copy>();
  copy->bytes = bytes;
  check_cuda(cudaGetDevice(&copy->gpu), "cannot tell the current GPU");
  void* device = nullptr;
  if (cudaMalloc(&device, bytes + copy_padding) != cudaSuccess) {
    (void)cudaGetLastError();  // no room: the session keeps the bytes on the host
    return false;
  }
  copy->device = static_cast<char*>(device);
  copy->line_ends.emplace(bytes);
  gpu_runtime::copy_file_to_device(file, copy->device, bytes, *copy->line_ends);
  check_cuda(cudaMemset(copy->device + bytes, 0, copy_padding), "cannot clear the padding of a file on the GPU");
  copy->longest_line = copy->line_ends->longest_line_bound();
  copy->memory = ::fcntl(memory, F_DUPFD_CLOEXEC, 0);
  if (copy->memory < 0) throw error("cannot keep a session's memory file: " + std::string(std::strerror(errno)));
  std::lock_guard<std::mutex> lock(copies_mutex());
  copies()[*key] = std::move(copy);
  return true;
#else
  (void)file;
  (void)memory;
  (void)bytes;
  return false;
#endif
}

void drop_from_device(int fd) {
#if ROWSCAN_HAS_CUB
  auto const key = key_of(fd);
  if (!key) return;
  std::shared_ptr<device_copy> gone;  // freed after the lock, unless a run still holds it
  std::lock_guard<std::mutex> lock(copies_mutex());
  auto const found = copies().find(*key);
  if (found == copies().end()) return;
  gone = std::move(found->second);
  copies().erase(found);
#else
  (void)fd;
#endif
}

bool run_resident(int fd, std::string const& label, job_options const& options, block_layout const& layout,
                  std::vector<worker_slot> const& workers, run_report& report) {
#if ROWSCAN_HAS_CUB
  std::shared_ptr<device_copy> const copy = copy_of(fd);
  if (!copy) return false;
  // The run reads the memory file instead, all of whose bytes are then written back from the copy.
  auto const read_instead = [&] {
    write_back(*copy);
    return false;
  };
  if (options.shares_queue || layout.record_quote != 0 || workers.empty()) return read_instead();
  if (copy->longest_line >= layout.carried_line || layout.text_padding > copy_padding) return read_instead();
  int const current = current_device();
  for (worker_slot const& w : workers) {
    if ((w.device == no_device ? current : w.device) != copy->gpu) return read_instead();
  }
  off_t const at = ::lseek(fd, 0, SEEK_CUR);
  if (at < 0 || static_cast<std::uint64_t>(at) > copy->bytes) return read_instead();
  std::uint64_t const begin = static_cast<std::uint64_t>(at);
  std::uint64_t const end = begin + std::min<std::uint64_t>(copy->bytes - begin, options.max_input_bytes);
  auto const blocks = copy->line_ends->blocks(begin, end, layout.block_size);
  if (!blocks) return read_instead();

  // The workers take blocks in input order, each on a thread of its own (the driver's lanes: one's kernels run
  // while another waits for a result on the host); their tallies are merged in input order after.
  std::vector<tally> tallies(blocks->size());
  std::vector<worker_share> shares(workers.size());
  std::vector<std::exception_ptr> failures(workers.size());
  std::atomic<std::size_t> next{0};
  std::mutex progress_mutex;
  std::uint64_t done = 0;
  auto const start = std::chrono::steady_clock::now();
  auto fold_blocks = [&](std::size_t w) {
    try {
      use_device(copy->gpu);
      worker_share& share = shares[w];
      share.on_gpu = true;
      for (std::size_t i; (i = next++) < blocks->size();) {
        auto const [b, e] = (*blocks)[i];
        if (share.blocks == 0)
          share.first_block_at = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        tallies[i] = fold_block(workers[w], copy->device + b, e - b, b, label, report.chunk_size);
        ++share.blocks;
        share.bytes += e - b;
        share.busy_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() - share.first_block_at;
        if (options.progress) {
          std::lock_guard<std::mutex> lock(progress_mutex);
          done += e - b;
          options.progress(done);
        }
        if (tallies[i].stopped()) break;  // its error ends the run, unless an earlier block's comes first
      }
    } catch (...) {
      failures[w] = std::current_exception();
      next = blocks->size();  // the others stop too
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t w = 1; w < workers.size(); ++w) threads.emplace_back(fold_blocks, w);
  fold_blocks(0);
  for (std::thread& t : threads) t.join();
  for (std::exception_ptr const& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
  tally input;
  std::size_t folded = 0;
  for (tally const& t : tallies) {
    input = merge(std::move(input), t);
    ++folded;
    if (input.stop) break;  // the first bad line in input order
  }
  if (input.stop) throw located(*input.stop, label);
  report.chunks = folded;
  report.bytes = input.bytes;
  report.shares = std::move(shares);
  report.lines = input.lines;
  report.skipped = located_skips(input, label);
  report.pool_peak_bytes = workers.front().ctx->pool().peak_large_bytes_held();
  return true;
#else
  (void)fd;
  (void)label;
  (void)options;
  (void)layout;
  (void)workers;
  (void)report;
  return false;
#endif
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::job

#if ROWSCAN_HAS_CUB
namespace rowscan {
namespace {
std::uint64_t free_gpu_bytes() { return device_memory_info().free_bytes; }
}  // namespace

device_keeper const* gpu_keeper() {
  static device_keeper const keeper{&job::keep_on_device, &job::drop_from_device, &free_gpu_bytes, &job::hold_contexts};
  return &keeper;
}
}  // namespace rowscan
#endif
