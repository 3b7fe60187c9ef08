// SPDX-License-Identifier: Apache-2.0
// Copies of staged text on a stream of their own, ordered by events (rowscan/gpu_runtime/text_uploader.hpp).
#include "rowscan/gpu_runtime/text_uploader.hpp"

#include "rowscan/gpu_runtime/check_cuda.hpp"

namespace rowscan::gpu_runtime {

struct text_uploader::state {
  cudaStream_t work_stream = nullptr;  ///< the context's
  cudaStream_t copy_stream = nullptr;
  cudaEvent_t copied[slots] = {};
  cudaEvent_t read[slots] = {};
};

text_uploader::text_uploader(CUstream_st* work_stream) : state_(std::make_unique<state>()) {
  state_->work_stream = work_stream;
  check_cuda(cudaStreamCreateWithFlags(&state_->copy_stream, cudaStreamNonBlocking), "cannot create a copy stream");
  for (int s = 0; s < slots; ++s) {
    check_cuda(cudaEventCreateWithFlags(&state_->copied[s], cudaEventDisableTiming), "cannot create an event");
    check_cuda(cudaEventCreateWithFlags(&state_->read[s], cudaEventDisableTiming), "cannot create an event");
    check_cuda(cudaEventRecord(state_->read[s], state_->work_stream), "cannot record an event");
  }
}

text_uploader::~text_uploader() {
  (void)cudaStreamSynchronize(state_->copy_stream);
  for (int s = 0; s < slots; ++s) {
    (void)cudaEventDestroy(state_->copied[s]);
    (void)cudaEventDestroy(state_->read[s]);
  }
  (void)cudaStreamDestroy(state_->copy_stream);
}

void text_uploader::upload(int slot, char* dst, char const* src, std::size_t n) {
  check_cuda(cudaStreamWaitEvent(state_->copy_stream, state_->read[slot], 0), "cannot order a copy");
  check_cuda(cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, state_->copy_stream), "cannot copy text to the device");
  check_cuda(cudaEventRecord(state_->copied[slot], state_->copy_stream), "cannot record an event");
}

void text_uploader::device_waits_for(int slot) {
  check_cuda(cudaStreamWaitEvent(state_->work_stream, state_->copied[slot], 0), "cannot order device work");
}

void text_uploader::consumed(int slot) {
  check_cuda(cudaEventRecord(state_->read[slot], state_->work_stream), "cannot record an event");
}

void text_uploader::host_waits_for(int slot) {
  check_cuda(cudaEventSynchronize(state_->copied[slot]), "copying text to the device failed");
}

}  // namespace rowscan::gpu_runtime
