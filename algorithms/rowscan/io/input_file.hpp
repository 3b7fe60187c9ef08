// SPDX-License-Identifier: Apache-2.0
// rowscan/io/input_file.hpp: an input named on the command line: a file, or "-" for standard input,
// as text: gzip and zstd input is decompressed on a thread ahead of the reader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace rowscan::io {

/// What the first bytes of an input say it is.
enum class input_kind { text, gzip, zstd };

/// The UTF-8 byte order mark, which some Windows tools write at the start of a text file. rowscan
/// strips it from the start of every input (input_file): it is not part of the first line.
constexpr char const utf8_bom[] = "\xef\xbb\xbf";
constexpr std::size_t utf8_bom_bytes = 3;

/// How an input's text is read.
struct text_options {
  /// Lines end with CR LF: a '\r' right before a '\n' (or at the very end of the input) is dropped,
  /// by a thread ahead of the reader (as for decompression), so the text is read as one stream. Its
  /// byte positions count the text without those CRs; input_file::dropped_before_line() gives them back.
  bool strip_cr = false;
};

/// Classifies an input by its first bytes (as many as are available, 8 suffice): gzip (1f 8b) and
/// zstd (28 b5 2f fd, or a skippable frame, 5? 2a 4d 18) are input_kind::gzip and ::zstd. Throws rowscan::error `LABEL: not text: ...` for
/// the magic numbers of formats rowscan does not read (bzip2, xz, lz4, zip, 7z, ELF, PNG, JPEG, PDF,
/// Parquet, UTF-16 or UTF-32 byte order marks). Anything else is text: NUL and other bytes are judged
/// by the input rules, line by line.
input_kind classify_input(std::string_view first_bytes, std::string const& label);

/// Whether more bytes could change what classify_input or the byte order mark check decide: the
/// bytes are a proper prefix of the gzip or zstd magic or of the byte order mark. peek waits for
/// them on a pipe whose first write was shorter.
bool could_be_longer_magic(std::string_view first_bytes);

/// An open, readable input. Throws rowscan::error naming the path when it cannot be opened for
/// reading (missing, unreadable, a directory) or is not text (classify_input).
///
/// A gzip or zstd input (told by its first bytes, whatever its name; concatenated members and frames
/// too) is decompressed by a thread into a pipe, and fd() is the pipe's read end: the chunked reader
/// reads it as it reads any stream, and error positions count decompressed bytes. A leading UTF-8
/// byte order mark (of the text: after decompression) is skipped, and bom_bytes() says so; a
/// terminal on standard input is not checked for one. If the compressed
/// data is corrupt or ends early, the decoder stops and closes the pipe, and decode_failure() says
/// why; the caller must check it before trusting what it read (the CLI does, before every write to
/// stdout and for every error it reports).
class input_file {
 public:
  explicit input_file(std::string const& path, text_options options = {});
  /// An input already open on `fd` (owned from now on, closed by the destructor), named `label` in errors:
  /// a file's bytes held in memory (rowscan/session/resident_cache.hpp), read as the file itself is.
  input_file(int fd, std::string label, text_options options = {});
  ~input_file();  ///< closes the pipe, which stops a decoder that is still running
  input_file(input_file const&) = delete;
  input_file& operator=(input_file const&) = delete;

  int fd() const { return text_fd_; }
  std::string const& label() const { return label_; }  ///< the path, or "<stdin>"
  input_kind kind() const { return kind_; }
  /// 3 if the text started with a UTF-8 byte order mark, which fd() is past; 0 otherwise. Positions
  /// counted from fd()'s first byte are file positions once this is added.
  std::size_t bom_bytes() const { return bom_bytes_; }
  /// With text_options::strip_cr: the CRs dropped from lines 0 .. line - 1 (0-based) of the text, so
  /// that a byte of that line at position P of fd()'s text is at P + this in the file (after the mark).
  /// Known for every line whose text fd() has given. 0 without strip_cr.
  std::uint64_t dropped_before_line(std::uint64_t line) const;

  /// The decoder's error (`LABEL: cannot decompress: ...`) once it has failed; nothing otherwise.
  std::optional<std::string> decode_failure() const;

  struct decoder;  ///< the decoding thread's state, shared with it

 private:
  void skip_bom(int fd);  ///< reads or seeks past the 3 bytes of a byte order mark that peek saw
  void start(text_options options);  ///< classifies fd_, skips a byte order mark, starts a decoder if needed

  int fd_;
  int text_fd_;
  bool owned_;
  std::string label_;
  input_kind kind_ = input_kind::text;
  std::size_t bom_bytes_ = 0;
  std::shared_ptr<decoder> decoder_;
};

/// A new open file description of the file on `fd` (through /proc/self/fd): its own offset, so that runs
/// may read one memory file at once. Throws rowscan::error naming `label` when it cannot be opened.
int reopen_resident(int fd, std::string const& label);

/// The first decode failure of any input_file in this process, if one failed: the CLI checks it
/// before it writes an answer and reports it instead of what the truncated text caused.
std::optional<std::string> first_decode_failure();

}  // namespace rowscan::io
