// SPDX-License-Identifier: Apache-2.0
// io::chunked_reader: chunks of whole lines from files (many pread threads) and pipes (one reader).
#include "rowscan/error.hpp"
#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/io/mapped_windows.hpp"
#include "rowscan/io/reader_threads.hpp"
#include "rowscan/io/recycled_blocks.hpp"

#include "support/temp_input.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <cstdlib>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace {

using rowscan::io::chunked_reader;
using rowscan::io::reader_options;
using rowscan::io::text_chunk;

/// Lines of 1..max_line bytes (with the '\n'), with or without a final newline.
std::string random_lines(std::uint32_t seed, std::size_t bytes, std::size_t max_line, bool final_newline) {
  std::mt19937 rng(seed);
  std::string text;
  while (text.size() < bytes) {
    std::size_t const n = 1 + rng() % max_line;
    for (std::size_t i = 1; i < n; ++i) text += static_cast<char>('a' + rng() % 26);
    text += '\n';
  }
  if (!final_newline) text.pop_back();
  return text;
}

struct read_result {
  std::string text;
  std::size_t chunks = 0;
  bool overlong = false;
  std::uint64_t overlong_at = 0;
  std::string overlong_prefix;
};

/// Reads everything, checking that chunks are contiguous and end on '\n' (all but the input's last).
read_result read_all(int fd, reader_options const& options) {
  chunked_reader reader(fd, "input.txt", options);
  read_result r;
  text_chunk chunk{};
  bool ended_without_newline = false;
  while (reader.next(chunk)) {
    EXPECT_FALSE(ended_without_newline) << "only the last chunk may end without '\\n'";
    EXPECT_EQ(chunk.input_offset, r.text.size());
    r.text.append(chunk.data, chunk.size);
    ended_without_newline = chunk.size > 0 && chunk.data[chunk.size - 1] != '\n';
    ++r.chunks;
    if (chunk.overlong_line) {
      r.overlong = true;
      r.overlong_at = chunk.input_offset + chunk.size;
      r.overlong_prefix.assign(chunk.overlong_prefix, chunk.overlong_prefix_size);
      EXPECT_FALSE(reader.next(chunk)) << "the reader ends after an overlong line";
      break;
    }
  }
  return r;
}

reader_options options_of(std::size_t block, std::size_t max_line, unsigned threads, unsigned buffers) {
  reader_options o;
  o.block_size = block;
  o.max_line = max_line;
  o.threads = threads;
  o.buffers = buffers;
  o.min_threaded_block = 0;  // reader threads even for tiny blocks: these tests are about them
  return o;
}

/// Reads a file of random lines (seed) that is cut to 10,000 bytes after its first chunk: the reader
/// must throw the shrinking file's error, naming it, not end at the new size.
void expect_shrinking_file_error(reader_options const& options, std::uint32_t seed) {
  std::string const text = random_lines(seed, 100000, 80, true);
  support::temp_input input(text);
  chunked_reader reader(input.fd(), "shrinking.txt", options);
  text_chunk chunk{};
  ASSERT_TRUE(reader.next(chunk));
  ASSERT_EQ(::ftruncate(input.fd(), 10000), 0);
  try {
    while (reader.next(chunk)) {
    }
    FAIL() << "read a shrinking file to its new end without an error (seed " << seed << ")";
  } catch (rowscan::error const& e) {
    EXPECT_EQ(std::string(e.what()).rfind("shrinking.txt: the file shrank while it was read", 0), 0u) << e.what();
  }
}

TEST(ChunkedReader, FilesArriveWholeForEveryBlockSizeAndThreadCount) {
  for (bool final_newline : {true, false}) {
    for (std::size_t block : {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{4096}, std::size_t{1} << 20}) {
      // Tiny blocks cost a hand-over each: a smaller text for them.
      std::string const text = random_lines(5, block < 64 ? 3000 : 200000, 60, final_newline);
      for (unsigned threads : {1u, 3u, 8u}) {
        for (unsigned buffers : {2u, 5u}) {
          SCOPED_TRACE("seed=5 block=" + std::to_string(block) + " threads=" + std::to_string(threads) +
                       " buffers=" + std::to_string(buffers) + " final_newline=" + std::to_string(final_newline));
          support::temp_input input(text);
          read_result const r = read_all(input.fd(), options_of(block, 64, threads, buffers));
          EXPECT_FALSE(r.overlong);
          EXPECT_EQ(r.text, text);
        }
      }
    }
  }
}

TEST(ChunkedReader, SmallBlocksAreReadInlineAlike) {
  std::string const text = random_lines(8, 50000, 60, false);
  for (std::size_t block : {std::size_t{5}, std::size_t{100}, std::size_t{4096}}) {
    SCOPED_TRACE("seed=8 block=" + std::to_string(block));
    reader_options o = options_of(block, 64, 4, 3);
    o.min_threaded_block = std::size_t{64} << 10;  // the default: these blocks are read by next() itself
    support::temp_input input(text);
    EXPECT_EQ(read_all(input.fd(), o).text, text);
  }
}

TEST(ChunkedReader, EmptyInputsHaveNoChunks) {
  support::temp_input input("");
  EXPECT_EQ(read_all(input.fd(), options_of(128, 64, 2, 2)).chunks, 0u);
}

TEST(ChunkedReader, StartsAtTheDescriptorsPosition) {
  support::temp_input input("skip me\nline 2\nline 3");
  ASSERT_EQ(::lseek(input.fd(), 8, SEEK_SET), 8);
  read_result const r = read_all(input.fd(), options_of(4, 16, 2, 3));
  EXPECT_EQ(r.text, "line 2\nline 3");
}

/// A pipe whose read end gives `text`, written by a thread of its own in pieces of 4099 bytes (a stream
/// of unknown size); the writer is joined and the read end closed when it goes.
class piped_text {
 public:
  explicit piped_text(std::string const& text) {
    if (::pipe(fds_) != 0) throw std::runtime_error("pipe");
    writer_ = std::thread([this, &text] {
      // A test that stops reading early closes the read end: the write then fails with EPIPE rather than
      // the signal ending the test program.
      sigset_t pipe_signal;
      sigemptyset(&pipe_signal);
      sigaddset(&pipe_signal, SIGPIPE);
      pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
      for (std::size_t done = 0; done < text.size();) {
        ssize_t const n = ::write(fds_[1], text.data() + done, std::min<std::size_t>(4099, text.size() - done));
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
      }
      ::close(fds_[1]);
    });
  }
  ~piped_text() {
    ::close(fds_[0]);  // a writer still writing gets EPIPE and ends
    writer_.join();
  }
  piped_text(piped_text const&) = delete;
  piped_text& operator=(piped_text const&) = delete;
  int fd() const { return fds_[0]; }

 private:
  int fds_[2] = {-1, -1};
  std::thread writer_;
};

TEST(ChunkedReader, PipesStreamWithoutKnowingTheirSize) {
  std::string const text = random_lines(6, 300000, 100, true);
  for (std::size_t block : {std::size_t{100}, std::size_t{65536}}) {
    SCOPED_TRACE("seed=6 block=" + std::to_string(block));
    piped_text const pipe(text);
    read_result const r = read_all(pipe.fd(), options_of(block, 128, 4, 3));
    EXPECT_FALSE(r.overlong);
    EXPECT_EQ(r.text, text);
  }
}

/// Records of one to three fields (RFC 4180), each field plain or quoted, a quoted one holding ',', '\n'
/// and doubled quotes: records end at the '\n's after an even number of quotes.
std::string random_quoted_records(std::uint32_t seed, std::size_t bytes, bool final_newline) {
  std::mt19937 rng(seed);
  char const* const inside[] = {"a", "b", ",", "\n", "\"\""};
  std::string text;
  while (text.size() < bytes) {
    unsigned const fields = 1 + rng() % 3;
    for (unsigned f = 0; f < fields; ++f) {
      if (f > 0) text += ',';
      bool const quoted = rng() % 2 == 0;
      if (quoted) text += '"';
      for (unsigned n = rng() % 12; n > 0; --n) text += quoted ? inside[rng() % 5] : std::string(1, static_cast<char>('a' + rng() % 26));
      if (quoted) text += '"';
    }
    text += '\n';
  }
  if (!final_newline) text.pop_back();
  return text;
}

/// The offsets just after each record-ending '\n' of text (even quotes before it).
std::set<std::uint64_t> record_ends(std::string const& text) {
  std::set<std::uint64_t> ends;
  bool inside = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') inside = !inside;
    else if (text[i] == '\n' && !inside) ends.insert(i + 1);
  }
  return ends;
}

// Quoted input: every chunk ends where a record ends, whichever thread read which slice of a block
// (each slice's quote parity is taken by its reader thread), for files, mapped files and pipes.
TEST(ChunkedReader, QuotedRecordsAreCutWhereTheyEnd) {
  for (std::uint32_t seed : {31u, 32u, 33u}) {
    // Seed 33's text fills blocks of 4 MiB, each read as four 1 MiB slices by as many threads.
    std::size_t const size = seed == 31 ? 3000 : seed == 32 ? 120000 : std::size_t{9} << 20;
    std::string const text = random_quoted_records(seed, size, seed != 32);
    std::set<std::uint64_t> const ends = record_ends(text);
    auto const expect_record_cuts = [&](int fd, reader_options const& o, std::string const& how) {
      SCOPED_TRACE("seed=" + std::to_string(seed) + " block=" + std::to_string(o.block_size) +
                   " threads=" + std::to_string(o.threads) + " " + how);
      chunked_reader reader(fd, "input.csv", o);
      text_chunk chunk{};
      std::string got;
      while (reader.next(chunk)) {
        ASSERT_FALSE(chunk.overlong_line);
        ASSERT_EQ(chunk.input_offset, got.size());
        got.append(chunk.data, chunk.size);
        if (got.size() < text.size()) {
          EXPECT_EQ(ends.count(got.size()), 1u) << "a chunk ends at " << got.size();
        }
      }
      EXPECT_EQ(got, text);
    };
    for (std::size_t block : {std::size_t{7}, std::size_t{100}, std::size_t{4096}, std::size_t{4} << 20}) {
      if (block < 100 && seed != 31) continue;   // a hand-over a few bytes: the small text is enough
      if (block < 4096 && seed == 33) continue;  // the large text is for the sliced blocks
      for (unsigned threads : {1u, 3u, 8u}) {
        reader_options o = options_of(block, 256, threads, 3);
        o.quote = '"';
        support::temp_input input(text);
        expect_record_cuts(input.fd(), o, "copied");
        reader_options mapped = o;
        mapped.map_file = true;
        ASSERT_EQ(::lseek(input.fd(), 0, SEEK_SET), 0);
        expect_record_cuts(input.fd(), mapped, "mapped");
      }
      piped_text const pipe(text);
      reader_options o = options_of(block, 256, 4, 3);
      o.quote = '"';
      expect_record_cuts(pipe.fd(), o, "pipe");
    }
  }
}

TEST(ChunkedReader, LineLongerThanTheCarryIsFlaggedWhereItStarts) {
  std::string const before = "ok\nfine\n";
  std::string const long_line(1000, 'x');
  std::string const text = before + long_line + "\nafter\n" + std::string(5000, 'y') + "\n";
  for (std::size_t block : {std::size_t{16}, std::size_t{100}, std::size_t{300}}) {
    SCOPED_TRACE("block=" + std::to_string(block));
    support::temp_input input(text);
    read_result const r = read_all(input.fd(), options_of(block, 64, 2, 3));
    ASSERT_TRUE(r.overlong);
    EXPECT_EQ(r.overlong_at, before.size());
    EXPECT_EQ(r.text, before);
    EXPECT_GT(r.overlong_prefix.size(), 64u);
    EXPECT_EQ(r.overlong_prefix, text.substr(before.size(), r.overlong_prefix.size()));
  }
}

TEST(ChunkedReader, LongLinesThatFitTheCarryPass) {
  // Lines up to max_line bytes always pass, whatever the block size, also lines spanning many blocks.
  std::string const text = random_lines(7, 20000, 500, true);
  for (std::size_t block : {std::size_t{3}, std::size_t{128}, std::size_t{1000}}) {
    SCOPED_TRACE("seed=7 block=" + std::to_string(block));
    support::temp_input input(text);
    read_result const r = read_all(input.fd(), options_of(block, 500, 4, 4));
    EXPECT_FALSE(r.overlong);
    EXPECT_EQ(r.text, text);
  }
}

TEST(ChunkedReader, AFileThatShrinksWhileReadIsAnError) {
  // Blocks this small are read inline by next(), so the truncation lands between two reads for sure.
  expect_shrinking_file_error(options_of(4096, 128, 2, 4), 8);
}

TEST(ChunkedReader, DirectoriesAreReadErrors) {
  int const fd = ::open("/", O_RDONLY);
  ASSERT_GE(fd, 0);
  EXPECT_THROW(read_all(fd, options_of(128, 64, 2, 2)), rowscan::error);
  ::close(fd);
}

// ---- map_file: chunks as views of the file's pages ---------------------------------------------------

/// Every chunk a reader hands out, as the caller sees it, and its padding read (a view must have it).
struct chunk_record {
  std::uint64_t offset = 0;
  std::string text;
  bool overlong = false;
  std::string overlong_prefix;
  bool operator==(chunk_record const& o) const {
    return offset == o.offset && text == o.text && overlong == o.overlong && overlong_prefix == o.overlong_prefix;
  }
};

std::vector<chunk_record> every_chunk(int fd, reader_options const& options) {
  chunked_reader reader(fd, "input.txt", options);
  std::vector<chunk_record> chunks;
  std::vector<text_chunk> lent;
  text_chunk chunk{};
  unsigned padding_sum = 0;  // read, not checked: a view without its padding would fault here
  while (reader.next(chunk)) {
    chunk_record r{chunk.input_offset, std::string(chunk.data, chunk.size), chunk.overlong_line, {}};
    if (chunk.overlong_line) r.overlong_prefix.assign(chunk.overlong_prefix, chunk.overlong_prefix_size);
    for (std::size_t i = 0; i < options.padding; ++i) padding_sum += static_cast<unsigned char>(chunk.data[chunk.size + i]);
    chunks.push_back(std::move(r));
    if (options.held > 1) {  // hold up to held chunks, give them back oldest last
      lent.push_back(chunk);
      if (lent.size() == options.held) {
        for (auto b = lent.rbegin(); b != lent.rend(); ++b) reader.give_back(b->block);
        lent.clear();
      }
    }
  }
  for (text_chunk const& c : lent) reader.give_back(c.block);
  static std::atomic<unsigned> sink{0};
  sink += padding_sum;
  return chunks;
}

TEST(ChunkedReader, MappedFilesGiveTheChunksOfCopiedOnes) {
  std::string const long_line(300, 'x');
  for (std::uint32_t seed : {21u, 22u, 23u, 24u}) {
    // Seeds 23 and 24 hold a line longer than the carry, near the start or the end.
    std::string text = random_lines(seed, 20000, 60, seed % 2 == 0);
    if (seed == 23) text.insert(text.find('\n', 500) + 1, long_line + "\n");
    if (seed == 24) text.insert(text.find('\n', text.size() - 400) + 1, long_line + "\n");
    for (std::size_t block : {std::size_t{1}, std::size_t{7}, std::size_t{100}, std::size_t{4096}, std::size_t{1} << 20}) {
      for (unsigned held : {1u, 4u}) {
        for (std::size_t padding : {std::size_t{0}, std::size_t{16}}) {
          for (off_t start : {off_t{0}, off_t{4097}}) {
           for (std::size_t per_window : {std::size_t{1}, std::size_t{3}}) {
            SCOPED_TRACE("seed=" + std::to_string(seed) + " block=" + std::to_string(block) + " held=" +
                         std::to_string(held) + " padding=" + std::to_string(padding) + " start=" + std::to_string(start) +
                         " blocks_per_window=" + std::to_string(per_window));
            // A map call a byte (and a hand-over a byte for the copies): one case is enough.
            if (block == 1 && (seed != 21 || held != 1 || start != 0)) continue;
            // The copying reader reuses its ring in block order: a caller that holds chunks while it asks
            // for more waits forever once a line spans more blocks than the ring has left.
            if (held > 1 && block < 100) continue;
            support::temp_input input(text);
            reader_options copied = options_of(block, 64, 3, 3);
            copied.held = held;
            copied.padding = padding;
            copied.max_bytes = start == 0 ? UINT64_MAX : 9000;  // a byte range, as a rank reads
            ASSERT_EQ(::lseek(input.fd(), start, SEEK_SET), start);
            std::vector<chunk_record> const expected = every_chunk(input.fd(), copied);
            reader_options mapped = copied;
            mapped.map_file = true;
            mapped.blocks_per_window = per_window;
            ASSERT_EQ(::lseek(input.fd(), start, SEEK_SET), start);
            std::vector<chunk_record> const got = every_chunk(input.fd(), mapped);
            ASSERT_EQ(got.size(), expected.size());
            for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], expected[i]) << "chunk " << i;
           }
          }
        }
      }
    }
  }
}

/// Windows of page-sized blocks (4096 bytes), `blocks` to a window, a 128-byte lead and 16 bytes of padding.
rowscan::io::window_layout page_blocks(std::size_t blocks) {
  rowscan::io::window_layout layout;
  layout.block_size = 4096;
  layout.blocks_per_window = blocks;
  layout.lead = 128;
  layout.padding = 16;
  return layout;
}

TEST(MappedWindows, BlocksShareAWindowThatGoesOnceTheyAreBackAndTheReaderIsPast) {
  std::string const text = random_lines(27, 41000, 40, true);  // 10 blocks and a few bytes
  ASSERT_GT(text.size(), std::size_t{10} * 4096);
  ASSERT_LT(text.size(), std::size_t{12} * 4096);  // window 2 ends at the file's end
  support::temp_input input(text);
  rowscan::io::window_layout const layout = page_blocks(4);
  rowscan::io::mapped_windows windows(input.fd(), "input.txt", text.size(), layout);
  auto expect_bytes = [&](char const* view, std::uint64_t offset, std::size_t size) {
    EXPECT_EQ(std::string(view, size), text.substr(offset, size)) << "offset " << offset;
  };
  // Blocks 0-3 share window 0; block 1's view starts with a carried line of the whole lead.
  for (std::uint64_t b = 0; b < 4; ++b) {
    std::uint64_t const offset = b == 1 ? 4096 - 128 : b * 4096;
    std::size_t const size = 4096 - (b == 1 ? 0 : 100);
    expect_bytes(windows.view(b, offset, size), offset, size);
  }
  EXPECT_EQ(windows.windows_mapped(), 1u);
  // Block 4 opens window 1; window 0 stays while its blocks are out, and goes with the last of them.
  std::uint64_t constexpr block = 4096;
  // Block 4's carried line is longer than the lead, and still in the window's first page.
  expect_bytes(windows.view(4, 4 * block - 129, 4096), 4 * block - 129, 4096);
  expect_bytes(windows.view(5, 5 * block, 4000), 5 * block, 4000);
  EXPECT_EQ(windows.windows_mapped(), 2u);
  EXPECT_EQ(windows.windows_held(), 2u);
  for (std::uint64_t b : {2u, 0u, 3u}) windows.release(b);
  EXPECT_EQ(windows.windows_held(), 2u);
  windows.release(1);
  EXPECT_EQ(windows.windows_held(), 1u);
  // Window 1's blocks all back before the reader is past it: it stays until block 8 opens window 2.
  windows.release(4);
  windows.release(5);
  EXPECT_EQ(windows.windows_held(), 1u);
  expect_bytes(windows.view(8, 8 * block, 4096), 8 * block, 4096);
  EXPECT_EQ(windows.windows_held(), 1u);
  EXPECT_EQ(windows.windows_mapped(), 3u);
  // The file's last bytes have no padding after them in the file: still a view of window 2, its padding
  // readable (zeros past the file's end).
  std::size_t const tail = 50;
  char const* const last = windows.view(9, text.size() - tail, tail);
  expect_bytes(last, text.size() - tail, tail);
  for (std::size_t i = 0; i < layout.padding; ++i) EXPECT_EQ(last[tail + i], '\0') << "padding byte " << i;
  EXPECT_EQ(windows.windows_mapped(), 3u);
  EXPECT_EQ(windows.copies_made(), 0u);
  windows.release(9);
  windows.release(8);
}

TEST(MappedWindows, AFilesLastBlockIsAViewWithReadablePaddingWhereverTheFileEndsInItsPage) {
  // The padding of the last block runs past the file's end: inside the file's last page, or (a file that
  // ends at or near a page's end) into the zero pages after it. Either way a view, not a copy.
  for (std::size_t const size : {std::size_t{4096}, std::size_t{8192 - 3}, std::size_t{8192 - 16},
                                 std::size_t{8192 - 17}, std::size_t{100}, std::size_t{3 * 4096 + 1}}) {
    std::string text(size, 'x');
    for (std::size_t i = 9; i < size; i += 10) text[i] = '\n';
    support::temp_input input(text);
    rowscan::io::window_layout const layout = page_blocks(2);
    rowscan::io::mapped_windows windows(input.fd(), "input.txt", text.size(), layout);
    std::uint64_t const last_block = (size - 1) / 4096;
    std::uint64_t const offset = last_block * 4096;
    char const* const view = windows.view(last_block, offset, size - offset);
    EXPECT_EQ(std::string(view, size - offset), text.substr(offset)) << "size " << size;
    for (std::size_t i = 0; i < layout.padding; ++i) EXPECT_EQ(view[size - offset + i], '\0') << "size " << size;
    EXPECT_EQ(windows.copies_made(), 0u) << "size " << size;
    EXPECT_EQ(windows.windows_held(), 1u) << "size " << size;
    windows.release(last_block);
  }
}

TEST(ChunkedReader, AMappedFileThatShrinksBeforeABlockIsAnError) {
  reader_options options = options_of(4096, 128, 2, 4);
  options.map_file = true;
  options.padding = 16;
  expect_shrinking_file_error(options, 25);
}

/// In a death test's process: reads the first chunk of a file of `text` (label names it) through mapped
/// windows, then does `then` to it (given the file's descriptor); exits 3 without a chunk, 4 if `then`
/// returns.
[[noreturn]] void with_first_mapped_chunk(std::string const& text, char const* label,
                                          void (*then)(text_chunk const& chunk, int fd)) {
  support::temp_input input(text);
  reader_options options = options_of(std::size_t{1} << 16, 128, 2, 4);
  options.map_file = true;
  chunked_reader reader(input.fd(), label, options);
  text_chunk chunk{};
  if (!reader.next(chunk)) std::_Exit(3);
  then(chunk, input.fd());
  std::_Exit(4);
}

TEST(ChunkedReaderDeathTest, AMappedBlockWhoseFileShrinksUnderItEndsWithOneErrorLine) {
  // The file shrinks after its block was mapped: touching the gone page raises SIGBUS, which must end
  // the process with the reader's one line and exit code 1, not a crash.
  std::string const text = random_lines(26, 200000, 80, true);
  auto const shrink_and_read = [](text_chunk const& chunk, int fd) {
    if (::ftruncate(fd, 0) != 0) std::_Exit(3);
    unsigned sum = 0;
    for (std::size_t i = 0; i < chunk.size; ++i) sum += static_cast<unsigned char>(chunk.data[i]);
    std::_Exit(sum == 0 ? 5 : 6);  // not reached: the pages are gone
  };
  EXPECT_EXIT(with_first_mapped_chunk(text, "gone.txt", shrink_and_read), ::testing::ExitedWithCode(1),
              "rowscan: error: gone.txt: the file shrank while it was read");
}

TEST(ChunkedReaderDeathTest, ASigbusSentByAnotherProcessIsNotTakenForAShrinkingFile) {
  // Only a SIGBUS the kernel raises for an access is the file shrinking; one sent with kill(1) keeps its
  // default action, though mapped windows live.
  std::string const text = random_lines(27, 100000, 80, true);
  auto const send_sigbus = [](text_chunk const&, int) { ::kill(::getpid(), SIGBUS); };
  EXPECT_EXIT(with_first_mapped_chunk(text, "sent.txt", send_sigbus), ::testing::KilledBySignal(SIGBUS), "");
}

// io::recycled_blocks: the readers of one run share their ring's blocks. A second reader of a run makes
// none of its own, the text it reads is the file's, and every block goes back to the underlying memory
// once, at the end.

/// Plain memory that counts what it hands out and takes back, and fails the test on a double release.
struct counted_memory {
  std::mutex mutex;
  std::map<void*, bool> live;  // every block made; true while not released
  std::size_t made = 0, released = 0;

  rowscan::io::block_memory memory() {
    return {[this](std::size_t bytes) {
              void* const p = ::operator new(bytes);
              std::lock_guard<std::mutex> const lock(mutex);
              live[p] = true;
              ++made;
              return p;
            },
            [this](void* p) noexcept {
              if (p == nullptr) return;
              std::lock_guard<std::mutex> const lock(mutex);
              EXPECT_TRUE(live[p]) << "a block released twice";
              live[p] = false;
              ++released;
              ::operator delete(p);
            }};
  }
};

/// A reader of 4 KiB blocks in a ring of four, taking its blocks from `ring`.
reader_options ring_reader(rowscan::io::recycled_blocks& ring, unsigned threads) {
  reader_options o;
  o.block_size = 4096;
  o.max_line = 128;
  o.threads = threads;
  o.buffers = 4;
  o.min_threaded_block = 0;
  o.memory = ring.memory();
  return o;
}

TEST(RecycledBlocks, TheSecondReaderOfARunMakesNoBlocks) {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    for (unsigned threads : {1u, 4u}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(threads) + " threads");
      counted_memory underlying;
      {
        rowscan::io::recycled_blocks ring(underlying.memory());
        reader_options o = ring_reader(ring, threads);
        std::string const first = random_lines(seed, 100000, 60, true), second = random_lines(seed + 100, 70000, 60, true);
        support::temp_input a(first), b(second);
        EXPECT_EQ(read_all(a.fd(), o).text, first);
        std::size_t const made = ring.blocks_made();
        EXPECT_EQ(made, 4u);  // the ring of a file of many blocks
        EXPECT_EQ(ring.blocks_kept(), made);
        EXPECT_EQ(read_all(b.fd(), o).text, second);
        EXPECT_EQ(ring.blocks_made(), made) << "the second reader made blocks of its own";
        EXPECT_EQ(ring.blocks_kept(), made);
        EXPECT_EQ(underlying.released, 0u) << "a block went back before the run's end";
      }
      EXPECT_EQ(underlying.released, underlying.made);
    }
  }
}

// With release_spare a ring block goes back to the run's recycled blocks once the file has no block
// left to read into it, so the next file's reader, started while this one's last chunks are still lent
// (the driver opens the next input then), takes those blocks instead of making new ones.
TEST(RecycledBlocks, ANextReaderTakesTheBlocksThatTheFileNoLongerNeeds) {
  for (bool const release_spare : {false, true}) {
    for (unsigned const threads : {1u, 4u}) {
      SCOPED_TRACE(std::string("release_spare ") + (release_spare ? "on" : "off") + ", " + std::to_string(threads) +
                   " threads");
      counted_memory underlying;
      {
        rowscan::io::recycled_blocks ring(underlying.memory());
        reader_options o = ring_reader(ring, threads);
        o.held = 2;  // the caller may hold two chunks: the ring is max(4, 2 + 2) blocks
        o.release_spare = release_spare;
        std::string const first = random_lines(31, 100000, 60, true), second = random_lines(32, 70000, 60, true);
        support::temp_input a(first), b(second);
        chunked_reader reader(a.fd(), "a.txt", o);
        std::string got;
        std::vector<std::uint64_t> held;  // the last two chunks stay lent
        text_chunk chunk{};
        while (reader.next(chunk)) {
          got.append(chunk.data, chunk.size);
          held.push_back(chunk.block);
          if (held.size() > 2) {
            reader.give_back(held.front());
            held.erase(held.begin());
          }
        }
        EXPECT_EQ(got, first);
        EXPECT_TRUE(reader.gave_every_chunk());
        std::size_t const made = ring.blocks_made();
        EXPECT_EQ(made, 4u);
        // The two slots whose blocks came back have no block of the file left: kept for the next reader.
        EXPECT_EQ(ring.blocks_kept(), release_spare ? 2u : 0u);
        reader_options next = o;
        next.held = 1;  // read_all holds one chunk at a time: a ring of 4 blocks again
        EXPECT_EQ(read_all(b.fd(), next).text, second);
        EXPECT_EQ(ring.blocks_made(), made + (release_spare ? 2u : 4u));
        for (std::uint64_t const block : held) reader.give_back(block);
      }
      EXPECT_EQ(underlying.released, underlying.made);
    }
  }
}

TEST(RecycledBlocks, ABlockOfANewSizeGivesBackTheKeptOnesOfOtherSizes) {
  counted_memory underlying;
  {
    rowscan::io::recycled_blocks ring(underlying.memory());
    rowscan::io::block_memory const m = ring.memory();
    void* const a = m.allocate(100);
    void* const b = m.allocate(100);
    m.release(a);
    EXPECT_EQ(m.allocate(100), a);  // kept, and of this size
    m.release(a);
    void* const c = m.allocate(200);  // a, kept, goes back; b is still lent
    EXPECT_EQ(underlying.released, 1u);
    EXPECT_EQ(ring.blocks_made(), 2u);
    m.release(b);
    m.release(c);
    EXPECT_EQ(ring.blocks_kept(), 2u);
    EXPECT_EQ(m.allocate(200), c);
    EXPECT_EQ(ring.blocks_kept(), 1u);  // b, of the old size, is kept until a new size is asked for
    m.release(nullptr);
    void* const foreign = underlying.memory().allocate(8);
    m.release(foreign);  // not one of the ring's: given back, not kept
    EXPECT_EQ(underlying.released, 2u);
    m.release(c);
  }
  EXPECT_EQ(underlying.released, underlying.made);
}

TEST(RecycledBlocks, ThreadsNeverHoldOneBlockAtOnce) {
  counted_memory underlying;
  rowscan::io::recycled_blocks ring(underlying.memory());
  rowscan::io::block_memory const m = ring.memory();
  std::mutex mutex;
  std::map<void*, int> holders;
  std::atomic<bool> shared_block{false};
  std::vector<std::thread> threads;
  threads.reserve(8);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) {
        void* const p = m.allocate(64);
        {
          std::lock_guard<std::mutex> const lock(mutex);
          if (++holders[p] != 1) shared_block = true;
        }
        {
          std::lock_guard<std::mutex> const lock(mutex);
          --holders[p];
        }
        m.release(p);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_FALSE(shared_block);
  EXPECT_LE(ring.blocks_made(), 8u);
  EXPECT_EQ(ring.blocks_kept(), ring.blocks_made());
}

/// Files read one after another by readers that take their threads from one io::reader_threads, as the
/// inputs of a run do: the same text as a reader with threads of its own, and the threads made once.
TEST(ReaderThreads, ReadersOfAListShareTheRunsThreads) {
  rowscan::io::reader_threads threads;
  for (std::uint32_t seed = 1; seed <= 12; ++seed) {
    std::string const text = random_lines(seed, 2000 + seed * 997, 40, seed % 2 == 0);
    support::temp_input const input(text);
    reader_options options = options_of(64 + seed * 13, 40, 1 + seed % 4, 2 + seed % 3);
    options.threads_from = &threads;
    EXPECT_EQ(read_all(input.fd(), options).text, text) << "seed " << seed;
  }
  // A reader ends once its tasks have, and their threads are idle by then: no more are made than one
  // reader uses at once (4 reading and an allocator).
  EXPECT_LE(threads.made(), 5u);
  EXPECT_GE(threads.made(), 1u);
}

/// A task that waits for a later one gets a thread of its own: tasks are never queued behind a busy thread.
TEST(ReaderThreads, ATaskWaitingForALaterOneDoesNotHoldItBack) {
  rowscan::io::reader_threads threads;
  std::mutex mutex;
  std::condition_variable changed;
  bool second_ran = false;
  bool first_done = false;
  threads.run([&] {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return second_ran; });
    first_done = true;
    changed.notify_all();
  });
  threads.run([&] {
    std::lock_guard<std::mutex> lock(mutex);
    second_ran = true;
    changed.notify_all();
  });
  std::unique_lock<std::mutex> lock(mutex);
  changed.wait(lock, [&] { return first_done; });
  EXPECT_EQ(threads.made(), 2u);
}

}  // namespace
