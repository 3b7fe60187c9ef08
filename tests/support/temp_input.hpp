// SPDX-License-Identifier: Apache-2.0
// A test input: text in a temporary file, open for reading from its start (deleted when closed).
#pragma once

#include <cstdio>
#include <string>

namespace support {

class temp_input {
 public:
  explicit temp_input(std::string const& text) : file_(std::tmpfile()) {
    std::fwrite(text.data(), 1, text.size(), file_);
    std::fflush(file_);
    std::rewind(file_);
  }
  ~temp_input() { std::fclose(file_); }
  temp_input(temp_input const&) = delete;
  temp_input& operator=(temp_input const&) = delete;
  int fd() const { return fileno(file_); }

 private:
  std::FILE* file_;
};

}  // namespace support
