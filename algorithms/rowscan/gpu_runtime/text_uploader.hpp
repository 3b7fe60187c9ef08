// SPDX-License-Identifier: Apache-2.0
// rowscan/gpu_runtime/text_uploader.hpp: host-to-device copies of staged text that overlap the device's work
// (the CUDA runtime alone, compiled once: rowscan/gpu_runtime/gpus.hpp).
//
// Two device slots take turns: while the device parses the text in one slot, the next block is
// copied into the other on a stream of its own. Events order the three parties: a copy into a slot
// waits until the device has read the slot's previous text; the device's work on a slot waits for
// its copy; the host waits for a copy before its pinned staging block goes back to the reader.
// In a build without CUDA the copy is a plain synchronous one and the waits do nothing.
#pragma once

#include <cstddef>
#include <memory>

struct CUstream_st;  // the CUDA runtime's stream, named without its headers: cudaStream_t is CUstream_st*

namespace rowscan::gpu_runtime {

class text_uploader {
 public:
  static constexpr int slots = 2;

  /// Device work is that of work_stream (a context's); copies go on a stream of the uploader's own.
  explicit text_uploader(CUstream_st* work_stream);
  ~text_uploader();
  text_uploader(text_uploader const&) = delete;
  text_uploader& operator=(text_uploader const&) = delete;

  /// Starts copying n bytes from host src (pinned) to device dst, the text of `slot`, once the device
  /// work enqueued before the slot's last consumed() call is done.
  void upload(int slot, char* dst, char const* src, std::size_t n);
  /// Device work enqueued from now on waits for slot's copy (the host does not wait).
  void device_waits_for(int slot);
  /// The device work enqueued so far is the last to read slot's text.
  void consumed(int slot);
  /// The host waits until slot's copy is done (so its source may be reused).
  void host_waits_for(int slot);

 private:
  struct state;
  std::unique_ptr<state> state_;
};

}  // namespace rowscan::gpu_runtime
