#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/error.hpp"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace rowscan::io {

chunked_reader::chunked_reader(int fd, std::string label, std::size_t chunk_size)
    : fd_(fd), label_(std::move(label)), buffer_(new char[chunk_size]), capacity_(chunk_size) {
  ROWSCAN_EXPECTS(chunk_size > 0, "chunk size must be positive");
}

void chunked_reader::fill() {
  while (filled_ < capacity_ && !end_of_input_) {
    ssize_t const got = ::read(fd_, buffer_.get() + filled_, capacity_ - filled_);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw error(label_ + ": cannot read at byte " + std::to_string(offset_ + filled_) + ": " + std::strerror(errno));
    }
    if (got == 0) end_of_input_ = true;
    filled_ += static_cast<std::size_t>(got);
  }
}

bool chunked_reader::next(text_chunk& chunk) {
  // The bytes after the last chunk's final '\n' begin this chunk.
  std::memmove(buffer_.get(), buffer_.get() + handed_out_, filled_ - handed_out_);
  filled_ -= handed_out_;
  offset_ += handed_out_;
  handed_out_ = 0;

  fill();
  if (filled_ == 0) return false;

  std::size_t cut = filled_;
  bool exceeds = false;
  if (!end_of_input_) {
    auto const* last_newline = static_cast<char const*>(::memrchr(buffer_.get(), '\n', filled_));
    if (last_newline != nullptr) {
      cut = static_cast<std::size_t>(last_newline - buffer_.get()) + 1;
    } else {
      exceeds = true;
    }
  }
  handed_out_ = cut;
  chunk = text_chunk{buffer_.get(), cut, offset_, exceeds};
  return true;
}

}  // namespace rowscan::io
