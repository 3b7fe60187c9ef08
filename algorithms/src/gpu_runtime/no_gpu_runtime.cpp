// SPDX-License-Identifier: Apache-2.0
// rowscan/gpu_runtime in a build without CUDA: no GPUs, plain memory, plain copies. Only a host engine runs
// in such a build, and it never calls these; they keep every caller compiled once linkable and honest.
#include "rowscan/error.hpp"
#include "rowscan/gpu_runtime/file_copies.hpp"
#include "rowscan/gpu_runtime/gpus.hpp"
#include "rowscan/gpu_runtime/pinned_memory.hpp"
#include "rowscan/gpu_runtime/text_uploader.hpp"

#include <cstring>
#include <new>

namespace rowscan::gpu_runtime {

namespace {
char const* const no_cuda = "this rowscan was built without CUDA";
}  // namespace

bool built_with_cuda() { return false; }
std::optional<std::string> gpu_unavailable(int) { return std::string(no_cuda); }
int gpu_count() { return 0; }
void use_gpu(int) { throw device_error(no_cuda); }
void use_device(int device) {
  if (device != no_device) throw device_error(no_cuda);
}
int current_device() { return no_device; }
void start_gpus(std::vector<int> const&) { throw device_error(no_cuda); }
void start_devices(std::vector<int> const&) {}

void* allocate_pinned(std::size_t bytes) { return ::operator new(bytes); }
void free_pinned(void* p) noexcept { ::operator delete(p); }
io::block_memory pinned_block_memory() { return io::plain_block_memory(); }
char const* lock_for_gpus(void*, std::size_t) { return no_cuda; }
void unlock_for_gpus(void*) noexcept {}

void copy_file_to_device(int, char*, std::uint64_t, job::line_end_index&) { throw device_error(no_cuda); }
void copy_device_to_file(int, char const*, std::uint64_t, int) { throw device_error(no_cuda); }

struct text_uploader::state {};
text_uploader::text_uploader(CUstream_st*) {}
text_uploader::~text_uploader() = default;
void text_uploader::upload(int, char* dst, char const* src, std::size_t n) { std::memcpy(dst, src, n); }
void text_uploader::device_waits_for(int) {}
void text_uploader::consumed(int) {}
void text_uploader::host_waits_for(int) {}

}  // namespace rowscan::gpu_runtime
