// SPDX-License-Identifier: Apache-2.0
// rowscan/io/input_file.hpp: an input named on the command line: a file, or "-" for standard input,
// as text: gzip and zstd input is decompressed on a thread ahead of the reader.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace rowscan::io {

/// What the first bytes of an input say it is.
enum class input_kind { text, gzip, zstd };

/// Classifies an input by its first bytes (as many as are available, 8 suffice): gzip (1f 8b) and
/// zstd (28 b5 2f fd) are input_kind::gzip and ::zstd. Throws rowscan::error `LABEL: not text: ...` for
/// the magic numbers of formats rowscan does not read (bzip2, xz, lz4, zip, 7z, ELF, PNG, JPEG, PDF,
/// Parquet, UTF-16 or UTF-32 byte order marks). Anything else is text: NUL and other bytes are judged
/// by the input rules, line by line.
input_kind classify_input(std::string_view first_bytes, std::string const& label);

/// An open, readable input. Throws rowscan::error naming the path when it cannot be opened for
/// reading (missing, unreadable, a directory) or is not text (classify_input).
///
/// A gzip or zstd input (told by its first bytes, whatever its name; concatenated members and frames
/// too) is decompressed by a thread into a pipe, and fd() is the pipe's read end: the chunked reader
/// reads it as it reads any stream, and error positions count decompressed bytes. If the compressed
/// data is corrupt or ends early, the decoder stops and closes the pipe, and decode_failure() says
/// why; the caller must check it before trusting what it read (the CLI does, before every write to
/// stdout and for every error it reports).
class input_file {
 public:
  explicit input_file(std::string const& path);
  ~input_file();  ///< closes the pipe, which stops a decoder that is still running
  input_file(input_file const&) = delete;
  input_file& operator=(input_file const&) = delete;

  int fd() const { return text_fd_; }
  std::string const& label() const { return label_; }  ///< the path, or "<stdin>"
  input_kind kind() const { return kind_; }

  /// The decoder's error (`LABEL: cannot decompress: ...`) once it has failed; nothing otherwise.
  std::optional<std::string> decode_failure() const;

  struct decoder;  ///< the decoding thread's state, shared with it

 private:
  int fd_;
  int text_fd_;
  bool owned_;
  std::string label_;
  input_kind kind_ = input_kind::text;
  std::shared_ptr<decoder> decoder_;
};

/// The first decode failure of any input_file in this process, if one failed: the CLI checks it
/// before it writes an answer and reports it instead of what the truncated text caused.
std::optional<std::string> first_decode_failure();

}  // namespace rowscan::io
