// SPDX-License-Identifier: Apache-2.0
#include "rowscan/io/input_file.hpp"
#include "rowscan/error.hpp"
#include "rowscan/io/write_all.hpp"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
#include <pthread.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace rowscan::io {
namespace {

std::mutex failure_mutex;
std::optional<std::string> first_failure;  // guarded by failure_mutex

void record_failure(std::string const& message) {
  std::lock_guard<std::mutex> lock(failure_mutex);
  if (!first_failure) first_failure = message;
}

bool starts_with(std::string_view bytes, std::string_view magic) { return bytes.substr(0, magic.size()) == magic; }

/// Reads into buffer until it is full or the input ends; retries EINTR. Returns the bytes read.
std::size_t read_some(int fd, char* buffer, std::size_t size, std::string const& label) {
  while (true) {
    ssize_t const n = ::read(fd, buffer, size);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) throw error(label + ": cannot read: " + std::strerror(errno));
  }
}

/// Up to `want` first bytes of fd without consuming them: pread for a regular file, tee(2) for a pipe
/// (it copies what the pipe holds into a scratch pipe and leaves it there). Nothing for other inputs
/// (terminals, character devices, sockets): those are read as text.
std::string peek(int fd, std::size_t want) {
  struct stat st{};
  if (::fstat(fd, &st) != 0) return {};
  std::string bytes(want, '\0');
  if (S_ISREG(st.st_mode)) {
    off_t const at = ::lseek(fd, 0, SEEK_CUR);
    ssize_t n;
    do n = ::pread(fd, bytes.data(), want, at < 0 ? 0 : at);
    while (n < 0 && errno == EINTR);
    bytes.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return bytes;
  }
  if (!S_ISFIFO(st.st_mode)) return {};
  int scratch[2];
  if (::pipe2(scratch, O_CLOEXEC) != 0) return {};
  std::size_t got = 0;
  // A writer may still be filling the pipe: wait a little (at most about 20 ms) for `want` bytes, and
  // for as long as the writer is there while what came is only the start of a magic number or of the
  // byte order mark (a first write of one byte of a gzip stream must not make it text).
  for (int attempt = 0;; ++attempt) {
    // Asked before tee: if the writer had gone, this tee sees every byte there will be.
    pollfd writer{fd, POLLIN, 0};
    bool const writer_gone = ::poll(&writer, 1, 0) == 1 && (writer.revents & POLLHUP) != 0;
    ssize_t const n = ::tee(fd, scratch[1], want, 0);  // blocks until the pipe holds data or has no writer
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // 0: the input is empty; < 0: not a pipe after all: no peeking
    got = static_cast<std::size_t>(n);
    std::size_t drained = 0;
    while (drained < got) {
      ssize_t const m = ::read(scratch[0], bytes.data() + drained, got - drained);
      if (m <= 0) break;
      drained += static_cast<std::size_t>(m);
    }
    if (got >= want || writer_gone) break;
    if (attempt >= 20 && !could_be_longer_magic(std::string_view(bytes.data(), got))) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ::close(scratch[0]);
  ::close(scratch[1]);
  bytes.resize(got);
  return bytes;
}

}  // namespace

/// zstd's skippable frame: a first byte 0x50 to 0x5f, then 2a 4d 18 (a little-endian 0x184D2A5?).
bool is_skippable_frame(std::string_view first) {
  return first.size() >= 4 && (static_cast<unsigned char>(first[0]) & 0xf0) == 0x50 && first.substr(1, 3) == "\x2a\x4d\x18";
}

bool could_be_longer_magic(std::string_view first) {
  auto proper_prefix = [&](std::string_view magic) {
    return first.size() < magic.size() && magic.substr(0, first.size()) == first;
  };
  bool const skippable_start = first.size() < 4 && !first.empty() && (static_cast<unsigned char>(first[0]) & 0xf0) == 0x50 &&
                               std::string_view("\x2a\x4d\x18").substr(0, first.size() - 1) == first.substr(1);
  return first.empty() || proper_prefix("\x1f\x8b") || proper_prefix("\x28\xb5\x2f\xfd") ||
         proper_prefix(std::string_view(utf8_bom, utf8_bom_bytes)) || skippable_start;
}

input_kind classify_input(std::string_view first, std::string const& label) {
  if (starts_with(first, "\x1f\x8b")) return input_kind::gzip;
  if (starts_with(first, "\x28\xb5\x2f\xfd") || is_skippable_frame(first)) return input_kind::zstd;
  struct format {
    std::string_view magic;
    char const* name;
  };
  static constexpr format others[] = {
      {"BZh", "bzip2-compressed data"},
      {"\xfd" "7zXZ\x00", "xz-compressed data"},
      {"\x04\x22\x4d\x18", "lz4-compressed data"},
      {"PK\x03\x04", "a zip archive"},
      {"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"},
      {"\x7f" "ELF", "an ELF executable"},
      {"\x89PNG", "a PNG image"},
      {"\xff\xd8\xff", "a JPEG image"},
      {"%PDF-", "a PDF document"},
      {"PAR1", "a Parquet file"},
      {std::string_view("\xff\xfe\x00\x00", 4), "UTF-32 text"},
      {std::string_view("\x00\x00\xfe\xff", 4), "UTF-32 text"},
      {"\xff\xfe", "UTF-16 text"},
      {"\xfe\xff", "UTF-16 text"},
  };
  for (auto const& f : others) {
    if (starts_with(first, f.magic)) {
      throw error(label + ": not text: its first bytes say it is " + f.name +
                  " (rowscan reads text, and decompresses gzip and zstd)");
    }
  }
  return input_kind::text;
}

/// The decoding thread's state. The thread owns `in` (a dup of the input) and `out` (the pipe's
/// write end); input_file owns the read end.
struct input_file::decoder {
  input_kind kind;
  bool strip_cr = false;
  bool cr_held = false;  // strip_cr: the last byte emitted so far was a '\r', held back until the next one
  /// strip_cr: which lines lost a CR, as runs of consecutive lines that all did (step 1) or all did not
  /// (step 0); a run starts at line first, with `before` CRs dropped from the lines before it.
  struct cr_run {
    std::uint64_t first;
    std::uint64_t before;
    std::uint64_t step;
  };
  std::mutex runs_mutex;
  std::vector<cr_run> runs;      // guarded by runs_mutex
  std::uint64_t lines_ended = 0;  // '\n's seen so far (the decoder's thread only)
  std::uint64_t dropped = 0;      // CRs dropped so far (the decoder's thread only)

  /// Notes that line lines_ended ended, having lost a CR or not.
  void line_ended(bool lost_cr) {
    std::uint64_t const step = lost_cr ? 1 : 0;
    if (runs.empty() || runs.back().step != step) {
      std::lock_guard<std::mutex> lock(runs_mutex);
      runs.push_back({lines_ended, dropped, step});
    }
    dropped += step;
    ++lines_ended;
  }

  std::uint64_t dropped_before_line(std::uint64_t line) {
    std::lock_guard<std::mutex> lock(runs_mutex);
    if (line == 0 || runs.empty()) return 0;
    // The run holding line - 1: the last that starts at or before it.
    auto const after = std::upper_bound(runs.begin(), runs.end(), line - 1,
                                        [](std::uint64_t l, cr_run const& r) { return l < r.first; });
    if (after == runs.begin()) return 0;
    cr_run const& r = *(after - 1);
    return r.before + (line - r.first) * r.step;
  }
  std::string label;
  int in = -1;
  int out = -1;
  std::atomic<bool> done{false};
  std::mutex mutex;
  std::optional<std::string> failure;  // guarded by mutex
  std::thread thread;

  void fail(std::string const& what) {
    std::string const message = label + ": cannot decompress: " + what;
    {
      std::lock_guard<std::mutex> lock(mutex);
      failure = message;
    }
    record_failure(message);
  }

  void run() {
    // A reader that stopped early closes the pipe: write() then fails with EPIPE here, and SIGPIPE,
    // blocked on this thread, does not end the process.
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
    try {
      if (kind == input_kind::gzip) {
        inflate_gzip();
      } else if (kind == input_kind::zstd) {
        decompress_zstd();
      } else {
        copy_text();
      }
      // A '\r' still held at the very end of the text ends the last line: it is dropped.
    } catch (write_error const& e) {
      if (e.code().value() != EPIPE) fail(std::string("cannot write the decompressed text: ") + std::strerror(e.code().value()));
    } catch (std::exception const& e) {
      fail(e.what());
    }
    ::close(out);  // the reader sees the end of the text, after the failure (if any) was recorded
    ::close(in);
    done = true;
  }

  static constexpr std::size_t buffer_bytes = std::size_t{1} << 20;

  /// Writes text to the pipe; with strip_cr, without each '\r' that comes right before a '\n' (or at
  /// the end of the text: the caller drops a held one).
  void emit(char const* data, std::size_t size) {
    if (!strip_cr) {
      write_all(out, data, size, "decoder");
      return;
    }
    std::string kept;
    kept.reserve(size + 1);
    for (std::size_t i = 0; i < size; ++i) {
      if (cr_held && data[i] != '\n') kept.push_back('\r');
      if (data[i] == '\n') line_ended(cr_held);  // before the line's text reaches the reader
      cr_held = data[i] == '\r';
      if (!cr_held) kept.push_back(data[i]);
    }
    write_all(out, kept.data(), kept.size(), "decoder");
  }

  /// Plain text through the pipe (for strip_cr).
  void copy_text() {
    std::vector<char> buffer(buffer_bytes);
    while (std::size_t const got = read_some(in, buffer.data(), buffer.size(), label)) emit(buffer.data(), got);
  }

  void inflate_gzip() {
    std::vector<unsigned char> input(buffer_bytes), output(buffer_bytes);
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK) throw std::runtime_error("zlib could not start");
    std::uint64_t produced = 0;
    bool in_member = true;  // inside a gzip member (concatenated members are one text)
    bool in_padding = false;  // zero bytes after the last member, which gzip accepts (tape padding)
    while (true) {
      if (z.avail_in == 0) {
        z.avail_in = static_cast<uInt>(read_some(in, reinterpret_cast<char*>(input.data()), input.size(), label));
        z.next_in = input.data();
        if (z.avail_in == 0) break;
      }
      if (!in_member && (in_padding || *z.next_in == 0)) {  // no member starts with a zero byte
        in_padding = true;
        while (z.avail_in > 0 && *z.next_in == 0) {
          ++z.next_in;
          --z.avail_in;
        }
        if (z.avail_in == 0) continue;
        inflateEnd(&z);
        throw std::runtime_error("data that is not gzip after the zero bytes that follow the last member, after " +
                                 std::to_string(produced) + " decompressed bytes");
      }
      if (!in_member) {  // the next member begins here
        inflateReset(&z);
        in_member = true;
      }
      z.next_out = output.data();
      z.avail_out = static_cast<uInt>(output.size());
      int const status = inflate(&z, Z_NO_FLUSH);
      std::size_t const made = output.size() - z.avail_out;
      emit(reinterpret_cast<char const*>(output.data()), made);
      produced += made;
      if (status == Z_STREAM_END) {
        in_member = false;
      } else if (status != Z_OK && status != Z_BUF_ERROR) {
        std::string const why = z.msg != nullptr ? z.msg : "error " + std::to_string(status);
        inflateEnd(&z);
        throw std::runtime_error("corrupt gzip data after " + std::to_string(produced) + " decompressed bytes (" + why + ")");
      }
    }
    inflateEnd(&z);
    if (in_member) {
      throw std::runtime_error("the gzip data ends early, after " + std::to_string(produced) +
                               " decompressed bytes (a truncated file?)");
    }
  }

  void decompress_zstd() {
    std::vector<char> input(ZSTD_DStreamInSize()), output(ZSTD_DStreamOutSize());
    std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
    if (!context) throw std::runtime_error("zstd could not start");
    std::uint64_t produced = 0;
    std::size_t last = 0;  // 0 once a frame is complete
    while (std::size_t const got = read_some(in, input.data(), input.size(), label)) {
      ZSTD_inBuffer in_buffer{input.data(), got, 0};
      while (in_buffer.pos < in_buffer.size) {
        ZSTD_outBuffer out_buffer{output.data(), output.size(), 0};
        last = ZSTD_decompressStream(context.get(), &out_buffer, &in_buffer);
        if (ZSTD_isError(last)) {
          throw std::runtime_error("corrupt zstd data after " + std::to_string(produced) + " decompressed bytes (" +
                                   ZSTD_getErrorName(last) + ")");
        }
        emit(output.data(), out_buffer.pos);
        produced += out_buffer.pos;
      }
    }
    // Flush what the decoder still holds for a complete input.
    while (last != 0) {
      ZSTD_inBuffer in_buffer{nullptr, 0, 0};
      ZSTD_outBuffer out_buffer{output.data(), output.size(), 0};
      std::size_t const before = produced;
      last = ZSTD_decompressStream(context.get(), &out_buffer, &in_buffer);
      if (ZSTD_isError(last)) break;
      emit(output.data(), out_buffer.pos);
      produced += out_buffer.pos;
      if (produced == before) break;  // no progress: the frame is incomplete
    }
    if (last != 0) {
      throw std::runtime_error("the zstd data ends early, after " + std::to_string(produced) +
                               " decompressed bytes (a truncated file?)");
    }
  }
};

input_file::input_file(std::string const& path, text_options options)
    : fd_(-1), text_fd_(-1), owned_(path != "-"), label_(owned_ ? display_name(path) : "<stdin>") {
  fd_ = owned_ ? ::open(path.c_str(), O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
  if (fd_ < 0) throw error(label_ + ": cannot open: " + std::strerror(errno));
  start(options);
}

input_file::input_file(int fd, std::string label, text_options options)
    : fd_(fd), text_fd_(-1), owned_(true), label_(std::move(label)) {
  start(options);
}

void input_file::start(text_options options) {
  text_fd_ = fd_;
  struct stat st{};
  if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
    if (owned_) ::close(fd_);
    throw error(label_ + ": cannot read: is a directory");
  }
  std::string first;
  try {
    first = peek(fd_, 8);
    kind_ = classify_input(first, label_);
    if (kind_ == input_kind::text && starts_with(first, std::string_view(utf8_bom, utf8_bom_bytes))) {
      skip_bom(fd_);  // before the decoder's dup, which shares the file offset
    }
  } catch (...) {
    if (owned_) ::close(fd_);
    throw;
  }
  if (kind_ == input_kind::text && !options.strip_cr) return;

  int text_pipe[2];
  if (::pipe2(text_pipe, O_CLOEXEC) != 0) {
    int const e = errno;
    if (owned_) ::close(fd_);
    throw error(label_ + ": cannot decompress: no pipe: " + std::strerror(e));
  }
  decoder_ = std::make_shared<decoder>();
  decoder_->kind = kind_;
  decoder_->strip_cr = options.strip_cr;
  decoder_->label = label_;
  decoder_->in = ::fcntl(fd_, F_DUPFD_CLOEXEC, 0);
  decoder_->out = text_pipe[1];
  text_fd_ = text_pipe[0];
  decoder_->thread = std::thread([state = decoder_] { state->run(); });
  if (kind_ != input_kind::text) {
    // The byte order mark of the decompressed text: its first bytes, once the decoder has made them.
    try {
      if (starts_with(peek(text_fd_, utf8_bom_bytes), std::string_view(utf8_bom, utf8_bom_bytes))) skip_bom(text_fd_);
    } catch (...) {
      // No destructor runs for a constructor that throws: let the decoder go as the destructor would.
      ::close(text_fd_);
      decoder_->thread.detach();
      if (owned_) ::close(fd_);
      throw;
    }
  }
}

void input_file::skip_bom(int fd) {
  struct stat st{};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    if (::lseek(fd, static_cast<off_t>(utf8_bom_bytes), SEEK_CUR) < 0) {
      throw error(label_ + ": cannot seek past the byte order mark: " + std::strerror(errno));
    }
  } else {
    char bom[utf8_bom_bytes];
    std::size_t got = 0;  // peek saw them in the pipe: they are there to read
    while (got < utf8_bom_bytes) {
      std::size_t const n = read_some(fd, bom + got, utf8_bom_bytes - got, label_);
      if (n == 0) break;
      got += n;
    }
  }
  bom_bytes_ = utf8_bom_bytes;
}

input_file::~input_file() {
  if (decoder_) {
    ::close(text_fd_);  // a decoder still writing gets EPIPE and stops
    // One still blocked reading a slow pipe ends at its end of input, on its own: it owns its state.
    if (decoder_->done) decoder_->thread.join();
    else decoder_->thread.detach();
  }
  if (owned_ && fd_ >= 0) ::close(fd_);
}

std::uint64_t input_file::dropped_before_line(std::uint64_t line) const {
  return decoder_ && decoder_->strip_cr ? decoder_->dropped_before_line(line) : 0;
}

std::optional<std::string> input_file::decode_failure() const {
  if (!decoder_) return std::nullopt;
  std::lock_guard<std::mutex> lock(decoder_->mutex);
  return decoder_->failure;
}

int reopen_resident(int fd, std::string const& label) {
  std::string const path = "/proc/self/fd/" + std::to_string(fd);
  int const own = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (own < 0) throw error(label + ": cannot open its copy in memory: " + std::strerror(errno));
  return own;
}

std::optional<std::string> first_decode_failure() {
  std::lock_guard<std::mutex> lock(failure_mutex);
  return first_failure;
}

}  // namespace rowscan::io
