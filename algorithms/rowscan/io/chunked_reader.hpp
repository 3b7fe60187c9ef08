// rowscan/io/chunked_reader.hpp: input text in chunks that end on line boundaries.
//
// The byte-offset partitioning of the seed blog, without losing the line that straddles a boundary:
// each chunk ends after its last '\n', and the bytes after it start the next chunk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace rowscan::io {

/// A piece of the input holding whole lines; only the input's last line may lack its '\n'.
struct text_chunk {
  char const* data;
  std::size_t size;
  std::uint64_t input_offset;   ///< offset of data[0] in the input
  bool line_exceeds_chunk;      ///< a full buffer held no '\n': its one line is longer than the chunk size
};

/// Reads a file descriptor (a file, a pipe) into a buffer of chunk_size bytes, one chunk at a time.
/// Works without knowing the input's size; never holds more than chunk_size bytes of it.
class chunked_reader {
 public:
  chunked_reader(int fd, std::string label, std::size_t chunk_size);

  /// The next chunk, valid until the next call; false at the end of the input. Throws rowscan::error
  /// naming the input if reading fails.
  bool next(text_chunk& chunk);

 private:
  void fill();

  int fd_;
  std::string label_;
  std::unique_ptr<char[]> buffer_;  ///< left uninitialized: only the bytes read are ever touched
  std::size_t capacity_;
  std::size_t filled_ = 0;     ///< bytes in buffer_
  std::size_t handed_out_ = 0; ///< bytes at the front of buffer_ given out by the last next()
  std::uint64_t offset_ = 0;   ///< input offset of buffer_[0]
  bool end_of_input_ = false;
};

}  // namespace rowscan::io
