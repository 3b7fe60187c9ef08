// SPDX-License-Identifier: Apache-2.0
// benchmarks/resident_text.hpp: a whole input file in device memory, cut into the blocks a run's reader
// would hand its workers, for the benchmarks that time the device alone ("text on the device").
#pragma once

#include "rowscan/io/chunked_reader.hpp"

#include <thrust/copy.h>
#include <thrust/device_vector.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace rowscan::bench {

/// The whole input in device memory, and where each chunk of whole lines lies in it.
struct resident_text {
  thrust::device_vector<char> bytes;  ///< the text, then `padding` zero bytes
  struct piece {
    std::size_t offset, size;
  };
  std::vector<piece> chunks;
  std::size_t padding = 0;

  std::size_t text_bytes() const { return bytes.size() - padding; }
  char const* data(piece p) const { return thrust::raw_pointer_cast(bytes.data()) + p.offset; }
};

/// Reads the file on fd from its start with the run's reader in blocks of about chunk_bytes (cut at line
/// ends) and copies it to the device back to back, followed by `padding` zero bytes.
inline std::unique_ptr<resident_text> load_resident(int fd, std::size_t chunk_bytes, std::size_t padding) {
  struct stat st{};
  ::fstat(fd, &st);
  auto text = std::make_unique<resident_text>();
  text->padding = padding;
  text->bytes.resize(static_cast<std::size_t>(st.st_size) + padding);
  ::lseek(fd, 0, SEEK_SET);
  rowscan::io::reader_options options;
  options.block_size = chunk_bytes;
  options.buffers = 2;
  rowscan::io::chunked_reader reader(fd, "benchmark input", options);
  rowscan::io::text_chunk chunk{};
  std::size_t at = 0;
  while (reader.next(chunk)) {
    thrust::copy(chunk.data, chunk.data + chunk.size, text->bytes.begin() + static_cast<std::ptrdiff_t>(at));
    text->chunks.push_back({at, chunk.size});
    at += chunk.size;
  }
  return text;
}

/// load_resident, kept for the next call with the same chunk size (one input a process). Never freed at
/// exit: freed after the CUDA runtime's own teardown, its device_vector throws ("CUDA free failed:
/// cudaErrorCudartUnloading") and the process aborts after its last report.
inline resident_text const& resident_in_chunks_of(int fd, std::size_t chunk_bytes, std::size_t padding) {
  static resident_text* cached = nullptr;
  static std::size_t cached_chunk = 0;
  if (cached != nullptr && cached_chunk == chunk_bytes) return *cached;
  delete cached;
  cached = nullptr;
  cached = load_resident(fd, chunk_bytes, padding).release();
  cached_chunk = chunk_bytes;
  return *cached;
}

}  // namespace rowscan::bench
