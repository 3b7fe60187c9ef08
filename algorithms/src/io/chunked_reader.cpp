// SPDX-License-Identifier: Apache-2.0
#include "rowscan/io/chunked_reader.hpp"

#include "rowscan/error.hpp"
#include "rowscan/io/mapped_windows.hpp"
#include "rowscan/io/read_at.hpp"
#include "rowscan/io/reader_threads.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <system_error>
#include <sys/stat.h>
#include <unistd.h>

namespace rowscan::io {

/// What the ring slot of one block knows about it (under the reader's mutex).
struct chunked_reader::block_state {
  std::uint64_t block = 0;      ///< the block this slot holds or is being filled with
  std::size_t bytes = 0;        ///< bytes of input in the block (seekable: known in advance)
  std::size_t slices_left = 0;  ///< slices not yet read
  bool end_of_input = false;    ///< a stream's last block (read() returned 0)
  /// Quoted input (reader_options::quote): whether the block's own bytes hold an odd number of quotes,
  /// each slice's parity taken by the thread that read it, so that the cut, made block after block on
  /// next()'s thread, walks back from the block's end instead of passing over all of it.
  bool quotes_odd = false;
};

block_memory plain_block_memory() {
  return {[](std::size_t bytes) { return ::operator new(bytes); }, [](void* p) noexcept { ::operator delete(p); }};
}

namespace {

/// Whether data[0, size) holds an odd number of `byte`s. Each of 32 one-byte lanes keeps the parity of
/// its own bytes, so the loop is a compare and an xor per vector of bytes; std::count widens every match
/// into a 64-bit sum, several times the time on one core (docs/group.md, "Blocks and the reader").
/// The reader's threads take it of the slices they read (block_state::quotes_odd).
bool odd_count(char const* data, std::size_t size, char byte) {
  constexpr std::size_t lanes = 32;
  unsigned char parity[lanes] = {};
  std::size_t i = 0;
  for (; i + lanes <= size; i += lanes) {
    for (std::size_t k = 0; k < lanes; ++k) parity[k] ^= static_cast<unsigned char>(data[i + k] == byte);
  }
  unsigned char odd = 0;
  for (unsigned char p : parity) odd ^= p;
  for (; i < size; ++i) odd ^= static_cast<unsigned char>(data[i] == byte);
  return odd != 0;
}

/// Where a descriptor stands in a regular file: read by offsets, in slices. A regular file of size 0
/// may still have contents (files in /proc), so it is read as a stream, like a pipe.
struct file_extent {
  std::uint64_t position = 0;  ///< the descriptor's position: reading starts there
  std::uint64_t size = 0;      ///< the whole file's

  /// The bytes from the position to the end, at most max_bytes.
  std::uint64_t ahead(std::uint64_t max_bytes) const { return std::min(size > position ? size - position : 0, max_bytes); }
};

/// fd's extent, or nothing for a stream.
std::optional<file_extent> regular_file_extent(int fd) {
  struct stat st{};
  off_t const position = ::lseek(fd, 0, SEEK_CUR);
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 || position < 0) return std::nullopt;
  return file_extent{static_cast<std::uint64_t>(position), static_cast<std::uint64_t>(st.st_size)};
}

}  // namespace

std::uint64_t bytes_ahead(int fd, std::uint64_t max_bytes) {
  std::optional<file_extent> const extent = regular_file_extent(fd);
  return extent ? extent->ahead(max_bytes) : UINT64_MAX;
}

namespace {

[[noreturn]] void throw_read_error(std::string const& label, std::uint64_t offset) {
  throw error(label + ": cannot read at byte " + std::to_string(offset) + ": " + std::strerror(errno));
}

unsigned default_threads() {
  unsigned const cores = std::thread::hardware_concurrency();
  return std::clamp(cores, 1u, 16u);
}

}  // namespace

chunked_reader::chunked_reader(int fd, std::string label, reader_options const& options)
    : fd_(fd), label_(std::move(label)), options_(options) {
  ROWSCAN_EXPECTS(options_.block_size > 0, "block size must be positive");
  ROWSCAN_EXPECTS(options_.buffers >= 2, "the reader needs at least two staging buffers");
  ROWSCAN_EXPECTS(options_.held >= 1, "the caller holds at least one chunk");
  // Every lent chunk keeps its buffer, and the ring still has room to read ahead.
  if (options_.held > 1) options_.buffers = std::max(options_.buffers, options_.held + 2);
  std::optional<file_extent> const extent = regular_file_extent(fd_);
  seekable_ = extent.has_value();
  ROWSCAN_EXPECTS(seekable_ || options_.max_bytes == UINT64_MAX, label_ + ": a byte range needs a regular file");
  unsigned threads = 1;
  if (seekable_) {
    base_offset_ = extent->position;
    whole_file_ = extent->size;
    file_size_ = extent->ahead(options_.max_bytes);
    block_count_ = (file_size_ + options_.block_size - 1) / options_.block_size;
    if (options_.map_file) {  // views of the file's pages: no ring to fill, no threads to fill it
      window_layout const layout{base_offset_, options_.block_size, options_.blocks_per_window, options_.max_line,
                                 options_.padding};
      windows_ = std::make_unique<mapped_windows>(fd_, label_, whole_file_, layout);
      return;
    }
    threads = options_.threads != 0 ? options_.threads : default_threads();
    // Slices small enough that every thread has one per block, but no smaller than 1 MiB (or the block).
    std::size_t const min_slice = std::min<std::size_t>(options_.block_size, std::size_t{1} << 20);
    slice_size_ = std::max(options_.block_size / threads, min_slice);
    slices_per_block_ = (options_.block_size + slice_size_ - 1) / slice_size_;
    // No more blocks in the ring than the input has, and no more threads than slices in the ring.
    options_.buffers = static_cast<unsigned>(std::clamp<std::uint64_t>(block_count_, 2, options_.buffers));
    threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, slices_per_block_ * options_.buffers));
  } else {
    slice_size_ = options_.block_size;
  }

  slack_ = options_.max_line;
  buffers_.resize(options_.buffers);
  states_.resize(options_.buffers);
  given_back_.assign(options_.buffers, 0);
  for (unsigned i = 0; i < options_.buffers; ++i) {
    states_[i].block = i;
    states_[i].slices_left = slices_per_block_;
    if (seekable_ && i < block_count_) {
      states_[i].bytes = static_cast<std::size_t>(std::min<std::uint64_t>(options_.block_size, file_size_ - i * options_.block_size));
    }
  }
  carry_.reserve(options_.max_line);
  if (seekable_ && block_count_ == 0) return;  // an empty file: nothing to read
  inline_reads_ = options_.block_size < options_.min_threaded_block;
  if (inline_reads_) {
    for (unsigned i = 0; i < options_.buffers; ++i) {
      buffers_[i] = new_block();
    }
    allocated_ = options_.buffers;
    return;
  }
  // Pinning memory is slow (tens of ms per 64 MiB): reading starts as soon as the first buffer is
  // there, and the others are allocated behind it.
  buffers_[0] = new_block();
  allocated_ = 1;
  start_threads(threads);
}

void chunked_reader::start_threads(unsigned threads) {
  // A task on the run's threads says when it has ended: the reader waits for that, not for a thread.
  auto on_run_threads = [this](std::function<void()> body) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++running_;
    }
    try {
      options_.threads_from->run(std::move(body), [this] {
        std::lock_guard<std::mutex> lock(mutex_);
        --running_;
        tasks_ended_.notify_all();
      });
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      --running_;
      throw;
    }
  };
  try {
    if (options_.threads_from != nullptr) {
      for (unsigned w = 0; w < threads; ++w) on_run_threads([this, w] { work(w); });
      on_run_threads([this] { allocate_ring(); });
      return;
    }
    for (unsigned w = 0; w < threads; ++w) workers_.emplace_back([this, w] { work(w); });
    allocator_ = std::thread([this] { allocate_ring(); });
  } catch (std::system_error const& e) {
    // The system refused a thread (a low `ulimit -v` or -u): stop those that started, then say so.
    stop_threads();
    throw error(label_ + ": cannot start the reader's " + std::to_string(threads + 1) + " threads (" + e.what() +
                "); give fewer --threads, or raise the process's limits (ulimit -v, ulimit -u)");
  } catch (...) {
    stop_threads();
    throw;
  }
}

std::unique_ptr<char[], chunked_reader::block_deleter> chunked_reader::new_block() const {
  void* const p = options_.memory.allocate(slack_ + options_.block_size + options_.padding);
  return std::unique_ptr<char[], block_deleter>(static_cast<char*>(p), block_deleter{options_.memory.release});
}

void chunked_reader::allocate_ring() {
  try {
    for (unsigned i = 1; i < options_.buffers && !stop_; ++i) {
      auto buffer = new_block();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        buffers_[i] = std::move(buffer);
        ++allocated_;
      }
      buffer_free_.notify_all();
    }
  } catch (...) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_) failure_ = std::current_exception();
  }
  buffer_free_.notify_all();
  block_ready_.notify_all();
}

bool chunked_reader::slot_ready(std::uint64_t block) const {
  return block < released_ + options_.buffers && block % options_.buffers < allocated_;
}

chunked_reader::~chunked_reader() { stop_threads(); }

void chunked_reader::stop_threads() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  buffer_free_.notify_all();
  if (allocator_.joinable()) allocator_.join();
  for (auto& t : workers_) t.join();
  workers_.clear();
  std::unique_lock<std::mutex> lock(mutex_);
  tasks_ended_.wait(lock, [&] { return running_ == 0; });
}

char* chunked_reader::block_data(std::uint64_t block) const { return buffers_[block % options_.buffers].get() + slack_; }

void chunked_reader::work(unsigned /*worker*/) {
  std::uint64_t const tasks = seekable_ ? block_count_ * slices_per_block_ : UINT64_MAX;
  for (;;) {
    std::uint64_t task = 0;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (stop_ || failure_ || next_task_ >= tasks) return;
      task = next_task_++;
      std::uint64_t const block = task / slices_per_block_;
      buffer_free_.wait(lock, [&] { return stop_ || failure_ || slot_ready(block); });
      if (stop_ || failure_) return;
    }
    std::uint64_t const block = task / slices_per_block_;
    bool end_of_stream = false;
    bool slice_odd = false;
    try {
      if (seekable_) {
        slice_odd = read_slice(block, static_cast<std::size_t>(task % slices_per_block_));
      } else {
        read_stream_block(block);
        end_of_stream = states_[block % options_.buffers].end_of_input;
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      block_ready_.notify_all();
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      block_state& state = states_[block % options_.buffers];
      state.quotes_odd = state.quotes_odd != slice_odd;
      --state.slices_left;
    }
    block_ready_.notify_all();
    if (end_of_stream) return;
  }
}

bool chunked_reader::read_slice(std::uint64_t block, std::size_t slice) {
  std::size_t const bytes = states_[block % options_.buffers].bytes;  // fixed for this block: no lock needed
  std::size_t const begin = std::min(slice * slice_size_, bytes);
  std::size_t const end = std::min(begin + slice_size_, bytes);
  // Positions in errors count from the file's start.
  char* const to = block_data(block) + begin;
  read_at(fd_, to, end - begin, base_offset_ + block * options_.block_size + begin, label_, whole_file_);
  return options_.quote != 0 && odd_count(to, end - begin, options_.quote);
}

void chunked_reader::read_stream_block(std::uint64_t block) {
  block_state& state = states_[block % options_.buffers];
  char* const out = block_data(block);
  std::size_t filled = 0;
  bool end = false;
  std::size_t const max_read = std::size_t{1} << 20;  // small reads, so a stop request is seen soon
  while (filled < options_.block_size && !stop_) {
    ssize_t const got = ::read(fd_, out + filled, std::min(max_read, options_.block_size - filled));
    if (got < 0) {
      if (errno == EINTR) continue;
      throw_read_error(label_, block * options_.block_size + filled);
    }
    if (got == 0) {
      end = true;
      break;
    }
    filled += static_cast<std::size_t>(got);
  }
  bool const odd = options_.quote != 0 && odd_count(out, filled, options_.quote);
  std::lock_guard<std::mutex> lock(mutex_);
  state.bytes = filled;
  state.end_of_input = end;
  state.quotes_odd = odd;
}

void chunked_reader::release_locked(std::vector<ring_block>& spare) {
  // The released slot takes the block `buffers` ahead of the one it held.
  std::size_t const slot = released_ % options_.buffers;
  block_state& state = states_[slot];
  std::uint64_t const block = released_ + options_.buffers;
  state.block = block;
  state.slices_left = slices_per_block_;
  state.end_of_input = false;
  state.quotes_odd = false;
  state.bytes = seekable_ && block < block_count_
                    ? static_cast<std::size_t>(std::min<std::uint64_t>(options_.block_size, file_size_ - block * options_.block_size))
                    : 0;
  // No block of the file is left to read into the slot: nothing reads or hands out its memory again.
  if (options_.release_spare && seekable_ && block >= block_count_ && buffers_[slot]) {
    spare.push_back(std::move(buffers_[slot]));
  }
  ++released_;
}

void chunked_reader::release_block() {
  std::vector<ring_block> spare;  // released after the lock
  {
    std::lock_guard<std::mutex> lock(mutex_);
    release_locked(spare);
  }
  buffer_free_.notify_all();
}

void chunked_reader::give_back(std::uint64_t block) {
  if (windows_) {
    windows_->release(block);
    return;
  }
  std::vector<ring_block> spare;  // released after the lock
  {
    std::lock_guard<std::mutex> lock(mutex_);
    given_back_[block % options_.buffers] = 1;
    // Slots are reused in block order: release every block at the front that has come back.
    while (given_back_[released_ % options_.buffers] != 0) {
      given_back_[released_ % options_.buffers] = 0;
      release_locked(spare);
    }
  }
  buffer_free_.notify_all();
}

bool chunked_reader::next(text_chunk& chunk) {
  if (windows_) return next_mapped(chunk);
  if (holding_) {
    release_block();
    holding_ = false;
  }
  while (!finished_) {
    if (seekable_ && current_ >= block_count_) break;

    if (inline_reads_ && !stream_ended_) {
      if (options_.held > 1) {  // lent chunks may still hold the slot this block is read into
        std::unique_lock<std::mutex> lock(mutex_);
        buffer_free_.wait(lock, [&] { return current_ < released_ + options_.buffers; });
      }
      block_state& slot = states_[current_ % options_.buffers];
      if (seekable_) {
        for (std::size_t slice = 0; slice < slices_per_block_; ++slice) {
          slot.quotes_odd = slot.quotes_odd != read_slice(current_, slice);
        }
      } else {
        read_stream_block(current_);
        stream_ended_ = slot.end_of_input;
      }
      slot.slices_left = 0;
    }
    block_state state;
    {
      auto const wait_start = std::chrono::steady_clock::now();
      std::unique_lock<std::mutex> lock(mutex_);
      block_state const& slot = states_[current_ % options_.buffers];
      // (With lent chunks the slot may still hold an earlier block that is not given back yet.)
      auto const ready = [&] { return slot.block == current_ && slot.slices_left == 0; };
      block_ready_.wait(lock, [&] { return failure_ || ready(); });
      if (!ready()) std::rethrow_exception(failure_);
      state = slot;
      wait_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - wait_start).count();
    }
    bool const last = seekable_ ? current_ + 1 == block_count_ : state.end_of_input;
    char* const block = block_data(current_);
    char* const data = block - carry_.size();
    std::memcpy(data, carry_.data(), carry_.size());
    std::size_t const total = carry_.size() + state.bytes;
    std::uint64_t const offset = carry_offset_;
    std::uint64_t const number = current_;
    holding_ = options_.held == 1;  // a lent chunk comes back through give_back
    ++current_;

    block_cut const cut = cut_block(data, carry_.size(), state.bytes, last, state.quotes_odd);
    carry_.clear();
    finished_ = cut.ends;
    if (!cut.ends) {
      carry_.assign(data + cut.chunk, data + total);
      carry_offset_ = offset + cut.chunk;
    }
    if (cut.chunk > 0 || cut.overlong) {
      chunk = text_chunk{data, cut.chunk, offset, cut.overlong, cut.overlong ? data + cut.chunk : nullptr,
                         cut.overlong_size, number};
      return true;
    }
    // An empty input's end, or a block inside one line: all of it was carried.
    if (holding_) {
      release_block();
      holding_ = false;
    } else {
      give_back(number);
    }
  }
  return false;
}

namespace {

/// The end of the first record of data[0, size) (after its '\n'), or 0 when none ends there: the first
/// '\n' with an even number of quotes before it.
std::size_t first_record_end(char const* data, std::size_t size, char quote) {
  bool inside = false;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == quote) inside = !inside;
    else if (data[i] == '\n' && !inside) return i + 1;
  }
  return 0;
}

/// Where the last record of data[0, size) that ends there ends (after its '\n'), looking back no further
/// than `from`; 0 if none ends at or after it. Records start at data[0], so a '\n' ends one when the
/// quotes before it are even: `odd`, the parity of their count over the whole text, is the parity at the
/// end, and a walk back from the end undoes it quote by quote.
std::size_t last_record_end(char const* data, std::size_t size, std::size_t from, char quote, bool odd) {
  for (std::size_t i = size; i > from; --i) {
    char const c = data[i - 1];
    if (c == quote) odd = !odd;
    else if (c == '\n' && !odd) return i;
  }
  return 0;
}

}  // namespace

chunked_reader::block_cut chunked_reader::cut_block(char const* data, std::size_t carried, std::size_t bytes,
                                                    bool last, bool bytes_odd) const {
  std::size_t const total = carried + bytes;
  if (options_.quote != 0) return cut_quoted_block(data, carried, bytes, last, bytes_odd);
  // The line carried into this block ends at the block's first '\n' (or runs on): it is the only
  // line that spans blocks, and it must fit max_line like the carry does.
  if (carried > 0) {
    auto const* first_newline = static_cast<char const*>(std::memchr(data + carried, '\n', bytes));
    std::size_t const first_line = first_newline != nullptr ? static_cast<std::size_t>(first_newline - data) + 1 : total;
    if (first_line > options_.max_line) return {0, true, first_line, true};
  }
  if (last) return {total, false, 0, true};  // the input's last line needs no '\n'
  auto const* newline = static_cast<char const*>(::memrchr(data + carried, '\n', bytes));
  std::size_t const cut = newline != nullptr ? static_cast<std::size_t>(newline - data) + 1 : 0;
  std::size_t const rest = total - cut;
  if (rest > options_.max_line) return {cut, true, rest, true};  // the line after the cut does not fit the carry
  return {cut, false, 0, false};
}

chunked_reader::block_cut chunked_reader::cut_quoted_block(char const* data, std::size_t carried, std::size_t bytes,
                                                           bool last, bool bytes_odd) const {
  // As cut_block, with records for lines: only the carried record may span blocks, and it must fit max_line.
  std::size_t const total = carried + bytes;
  if (carried > 0) {
    std::size_t const first = first_record_end(data, std::min(total, options_.max_line + 1), options_.quote);
    std::size_t const record = first != 0 ? first : total;
    if (record > options_.max_line) return {0, true, record, true};
  }
  if (last) return {total, false, 0, true};
  // The record after the cut must fit the carry: look back at most max_line + 1 bytes.
  std::size_t const from = total > options_.max_line + 1 ? total - options_.max_line - 1 : 0;
  // The quotes of the whole text: the carried record's, counted here, and the block's own (bytes_odd).
  bool const odd = odd_count(data, carried, options_.quote) != bytes_odd;
  std::size_t const cut = last_record_end(data, total, from, options_.quote, odd);
  std::size_t const rest = total - cut;
  if (rest > options_.max_line) return {cut, true, rest, true};
  return {cut, false, 0, false};
}

bool chunked_reader::next_mapped(text_chunk& chunk) {
  if (holding_) {
    windows_->release(held_block_);
    holding_ = false;
  }
  while (!finished_ && current_ < block_count_) {
    std::uint64_t const number = current_++;
    std::uint64_t const block_start = number * options_.block_size;  // from base_offset_, as input offsets are
    auto const bytes = static_cast<std::size_t>(std::min<std::uint64_t>(options_.block_size, file_size_ - block_start));
    std::uint64_t const offset = carry_offset_;  // the carried line is the file's bytes before the block
    auto const carried = static_cast<std::size_t>(block_start - offset);
    char const* const data = windows_->view(number, base_offset_ + offset, carried + bytes);
    // A mapped block was read by no thread of the reader: its quotes are counted here.
    bool const odd = options_.quote != 0 && odd_count(data + carried, bytes, options_.quote);
    block_cut const cut = cut_block(data, carried, bytes, current_ == block_count_, odd);
    finished_ = cut.ends;
    carry_offset_ = offset + cut.chunk;
    if (cut.chunk > 0 || cut.overlong) {
      holding_ = options_.held == 1;  // a lent chunk comes back through give_back
      held_block_ = number;
      chunk = text_chunk{data, cut.chunk, offset, cut.overlong, cut.overlong ? data + cut.chunk : nullptr,
                         cut.overlong_size, number};
      return true;
    }
    windows_->release(number);  // a block inside one line: its bytes come again with the next block
  }
  return false;
}

}  // namespace rowscan::io
