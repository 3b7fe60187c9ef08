// rowscan/io/input_file.hpp: an input named on the command line: a file, or "-" for standard input.
#pragma once

#include <string>

namespace rowscan::io {

/// An open, readable input. Throws rowscan::error naming the path when it cannot be opened for
/// reading (missing, unreadable, a directory).
class input_file {
 public:
  explicit input_file(std::string const& path);
  ~input_file();
  input_file(input_file const&) = delete;
  input_file& operator=(input_file const&) = delete;

  int fd() const { return fd_; }
  std::string const& label() const { return label_; }  ///< the path, or "<stdin>"

 private:
  int fd_;
  bool owned_;
  std::string label_;
};

}  // namespace rowscan::io
