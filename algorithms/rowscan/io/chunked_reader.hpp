// SPDX-License-Identifier: Apache-2.0
// rowscan/io/chunked_reader.hpp: input text in chunks of whole lines, read by many threads at once.
//
//   file --pread x threads--> blocks (a ring) --next()--> chunk = carry + block up to its last '\n'
//   file --mmap, a window a round of blocks (io/mapped_windows.hpp)--> the same chunks, where the page cache holds them
//
// The byte-offset partitioning of the seed blog, without losing the line that straddles a boundary:
// the input is cut into fixed blocks; a chunk is the unfinished line carried over from the block
// before, followed by the block up to its last '\n'. Reader threads fill the next blocks of a ring of
// staging buffers while the caller works on the current chunk. A regular file is read with pread by
// up to `threads` threads, a slice each; a pipe or FIFO by one thread with read(), so the input's size
// need not be known. Never more than the ring's bytes of input are held. With map_file a regular file is
// not copied at all: each chunk is a view of the file's pages, cut where a copied one would be.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace rowscan::io {

class mapped_windows;
class reader_threads;

/// A piece of the input holding whole lines; only the input's last line may lack its '\n'.
struct text_chunk {
  char const* data;             ///< in reader_options::memory (pinned for a GPU: it copies at full speed)
  std::size_t size;
  std::uint64_t input_offset;   ///< offset of data[0] in the input
  /// Right after this chunk starts a line longer than max_line: its first max_line + 1 or more bytes are
  /// at overlong_prefix. The reader ends after such a chunk.
  bool overlong_line;
  char const* overlong_prefix;
  std::size_t overlong_prefix_size;
  std::uint64_t block = 0;      ///< the block it came with: give_back(block) when the reader lends chunks
};

/// Where a reader's blocks live: plain host memory by default; a GPU engine's driver gives page-locked
/// memory (gpu_runtime/pinned_memory.hpp), which the device copies from at the bus's speed, and a run shared by
/// host workers and GPUs memory that the GPUs lock once they are ready (job/lockable_memory.hpp).
struct block_memory {
  std::function<void*(std::size_t bytes)> allocate;  ///< throws (std::bad_alloc, rowscan::device_error) if it cannot
  std::function<void(void* p)> release;               ///< frees what allocate returned; null is ignored; never throws
};

/// operator new and delete, as block_memory.
block_memory plain_block_memory();

struct reader_options {
  std::size_t block_size = std::size_t{64} << 20;  ///< bytes read per block (a chunk is at most this + max_line)
  std::size_t max_line = 4096;                      ///< the longest line carried from one block to the next
  unsigned threads = 0;                             ///< pread threads for a regular file; 0: up to 16
  unsigned buffers = 4;                             ///< staging blocks in the ring (at least 2)
  /// Chunks the caller may hold at once. 1: a chunk is valid until the next call of next(). More: the
  /// reader lends chunks, each valid until the caller gives it back (give_back, from any thread, in
  /// any order); the ring grows to hold them and still read ahead.
  unsigned held = 1;
  std::size_t padding = 0;                          ///< readable bytes after every chunk's end
  /// Blocks smaller than this are read by the caller's thread inside next(): handing a tiny block from
  /// thread to thread costs more than reading it (and much more on an oversubscribed machine).
  std::size_t min_threaded_block = std::size_t{64} << 10;
  /// A regular file is read from the descriptor's position up to this many bytes, not to its end: a
  /// byte range of a file (one rank's share, scale-out). Streams are always read to their end.
  std::uint64_t max_bytes = UINT64_MAX;
  block_memory memory = plain_block_memory();       ///< where the ring's blocks come from
  /// A regular file's chunks are views of its mapped pages (io/mapped_windows.hpp) instead of copies in
  /// a ring: for a caller that folds them where they lie. No reader threads; a stream is read as before.
  bool map_file = false;
  /// map_file: consecutive blocks that share one mapped window (io/mapped_windows.hpp). More make fewer
  /// mmap and munmap calls; the pages of a window stay mapped until its last block is back.
  std::size_t blocks_per_window = 1;
  /// The run's threads to read with (io/reader_threads.hpp), so that a list of inputs, a reader each,
  /// does not make threads for every input; null: the reader makes its own.
  reader_threads* threads_from = nullptr;
  /// A regular file's ring block goes back to `memory` as soon as no block of the file is left to be
  /// read into it, not when the reader ends: the next reader of a run, started while this one's last
  /// chunks are still lent, takes it from the run's recycled blocks (io/recycled_blocks.hpp) instead of
  /// page-locking a new one. Its release then runs on the thread that gives a chunk back.
  bool release_spare = false;
  /// 0: a chunk ends at any '\n'. Else the quote byte of quoted fields (RFC 4180): a chunk ends only at a
  /// '\n' with an even number of quotes before it since the chunk's start, so that a quoted field's
  /// newline never ends a chunk (chunks then hold whole records, and max_line bounds a record).
  char quote = 0;
};

/// The bytes a chunked_reader of fd would read, at most max_bytes: a regular file's from the
/// descriptor's position to its end; UINT64_MAX for a stream (its size is not known).
std::uint64_t bytes_ahead(int fd, std::uint64_t max_bytes = UINT64_MAX);

/// Reads a file descriptor (a file, a pipe) in chunks of whole lines, with reader threads ahead of the caller.
class chunked_reader {
 public:
  chunked_reader(int fd, std::string label, reader_options const& options);
  ~chunked_reader();
  chunked_reader(chunked_reader const&) = delete;
  chunked_reader& operator=(chunked_reader const&) = delete;

  /// Where reading started in the file (the descriptor's position; 0 for a stream): a chunk's
  /// input_offset counts from here, error positions from the file's start.
  std::uint64_t first_byte() const { return base_offset_; }

  /// The next chunk, valid until the next call; false at the end of the input. Throws rowscan::error
  /// naming the input if reading fails or a file shrinks while it is read.
  bool next(text_chunk& chunk);

  /// Ends the loan of a chunk (reader_options::held > 1): its block may be read into again once every
  /// block before it has been given back too. Thread-safe.
  void give_back(std::uint64_t block);

  /// Whether next() has given every chunk of a file (the next call returns false): a run may then open
  /// its next input, whose reader reads ahead while this one's last chunks are still in use. A stream's
  /// end is known once its last block is read.
  bool gave_every_chunk() const { return finished_ || (seekable_ && current_ >= block_count_); }

  /// Seconds the caller spent waiting in next() for blocks to arrive.
  double wait_seconds() const { return wait_seconds_; }

 private:
  struct block_state;
  struct block_deleter {
    std::function<void(void*)> release;
    void operator()(char* p) const noexcept { release(p); }
  };

  void start_threads(unsigned threads);
  void stop_threads();
  std::unique_ptr<char[], block_deleter> new_block() const;  ///< one block of the ring, with its slack and padding
  void allocate_ring();  ///< the allocator thread: pins buffers 1.. of the ring
  void work(unsigned worker);
  bool read_slice(std::uint64_t block, std::size_t slice);  ///< true: the slice holds an odd number of quotes
  void read_stream_block(std::uint64_t block);
  char* block_data(std::uint64_t block) const;
  using ring_block = std::unique_ptr<char[], block_deleter>;
  void release_block();
  /// release_block's work, under mutex_; a ring block with no block left to read into it goes to
  /// `spare` (reader_options::release_spare), to be released once mutex_ is let go.
  void release_locked(std::vector<ring_block>& spare);
  bool slot_ready(std::uint64_t block) const;
  bool next_mapped(text_chunk& chunk);

  /// How a block's text, after `carried` bytes of a line begun before it, becomes a chunk.
  struct block_cut {
    std::size_t chunk = 0;          ///< bytes of whole lines from the carried line's start
    bool overlong = false;          ///< a line longer than max_line starts at the chunk's end
    std::size_t overlong_size = 0;  ///< that line's bytes in this text
    bool ends = false;              ///< the reader ends with this chunk
  };
  /// bytes_odd: whether the block's own bytes (after the carried ones) hold an odd number of quotes, for
  /// quoted input; taken as the block is read (block_state::quotes_odd).
  block_cut cut_block(char const* data, std::size_t carried, std::size_t bytes, bool last, bool bytes_odd) const;
  /// cut_block for quoted records (reader_options::quote).
  block_cut cut_quoted_block(char const* data, std::size_t carried, std::size_t bytes, bool last,
                             bool bytes_odd) const;

  int fd_;
  std::string label_;
  reader_options options_;
  bool seekable_;
  std::uint64_t base_offset_ = 0;  ///< the descriptor's position when the reader started
  std::uint64_t file_size_ = 0;    ///< bytes to read from base_offset_ (seekable inputs)
  std::uint64_t whole_file_ = 0;   ///< the file's size when the reader started (seekable inputs)
  std::uint64_t block_count_ = 0;  ///< blocks of a seekable input
  std::size_t slice_size_ = 0;
  std::size_t slices_per_block_ = 1;
  std::size_t slack_ = 0;          ///< room before each block for the carried line
  bool inline_reads_ = false;      ///< small blocks: next() reads them itself (hand-offs would cost more)

  std::unique_ptr<mapped_windows> windows_;  ///< map_file: the chunks' views (no ring, no threads)
  std::uint64_t held_block_ = 0;             ///< map_file, held == 1: the block whose view next() ends

  std::vector<std::unique_ptr<char[], block_deleter>> buffers_;
  std::vector<block_state> states_;

  // Shared with the workers, under mutex_.
  std::mutex mutex_;
  std::condition_variable block_ready_;
  std::condition_variable buffer_free_;
  std::uint64_t next_task_ = 0;      ///< next (block, slice) task, numbered block * slices_per_block_ + slice
  std::uint64_t released_ = 0;       ///< blocks the caller is done with: block b may be read once b < released_ + buffers
  std::vector<char> given_back_;     ///< lent chunks: per ring slot, whether its block came back (released in order)
  unsigned allocated_ = 0;           ///< staging buffers allocated so far (the first in the constructor, the rest behind it)
  std::atomic<bool> stop_{false};  ///< set by the destructor; a stream worker checks it between reads
  std::exception_ptr failure_;
  std::vector<std::thread> workers_;
  std::thread allocator_;            ///< allocates buffers 1.. while the workers read into buffer 0
  unsigned running_ = 0;             ///< tasks on reader_options::threads_from's threads that have not ended
  std::condition_variable tasks_ended_;

  // The caller's side.
  std::uint64_t current_ = 0;        ///< the next block to hand out
  bool holding_ = false;             ///< a block is handed out and not yet released
  bool finished_ = false;
  bool stream_ended_ = false;        ///< inline reads: the stream's last block has been read
  std::vector<char> carry_;          ///< the unfinished line after the last handed-out '\n'
  std::uint64_t carry_offset_ = 0;   ///< input offset of carry_[0]
  double wait_seconds_ = 0;
};

}  // namespace rowscan::io
