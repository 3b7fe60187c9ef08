// SPDX-License-Identifier: Apache-2.0
// rowscan/io/output.hpp: every byte rowscan writes to stdout or to an output file goes through here, so that a
// failed write is always reported: `rowscan: error: standard output: cannot write: No space left on device`.
#pragma once

#include <string>
#include <string_view>

namespace rowscan::io {

/// Writes all of text to standard output with write(2). Throws rowscan::error naming "standard output"
/// and the reason (strerror) when a write fails, e.g. on a full disk or `> /dev/full`. Writes nothing
/// and throws the decoder's error if a compressed input failed to decompress (io::first_decode_failure).
void write_standard_output(std::string_view text);

/// The output named by `generate -o PATH`: "-" for standard output, otherwise a file.
///
/// A new or regular file is written as a temporary file in the same directory (`.NAME.rowscan-XXXXXX`)
/// that commit() renames over PATH once every byte is out (with PATH's permissions, if it existed). An error, an exception or SIGINT, SIGTERM or
/// SIGHUP before then removes the temporary file and leaves PATH as it was, so a run that did not finish
/// never leaves a shorter file that could pass for a whole one. Anything else (a device such as /dev/null,
/// a FIFO, a symbolic link) is opened and written directly.
class output_file {
 public:
  explicit output_file(std::string const& path);
  ~output_file();  ///< removes the temporary file unless commit() succeeded
  output_file(output_file const&) = delete;
  output_file& operator=(output_file const&) = delete;

  int fd() const { return fd_; }
  /// The path, or "standard output": what error messages name.
  std::string const& label() const { return label_; }

  /// Closes the file (checking the close) and renames the temporary file over the path. Throws
  /// rowscan::error naming the path on failure.
  void commit();

 private:
  std::string label_;
  std::string temporary_;  ///< empty when writing directly
  int fd_ = -1;
  bool owned_ = false;
};

/// Throws rowscan::error `LABEL: cannot write: REASON` for a write that failed with errno_value.
[[noreturn]] void throw_write_error(std::string const& label, int errno_value);

}  // namespace rowscan::io
