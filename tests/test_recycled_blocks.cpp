// SPDX-License-Identifier: Apache-2.0
// io::recycled_blocks: the readers of one run share their ring's blocks. A second reader of a run makes
// none of its own, the text it reads is the file's, and every block goes back to the underlying memory
// once, at the end.
#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/io/recycled_blocks.hpp"

#include "support/temp_input.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using rowscan::io::block_memory;
using rowscan::io::chunked_reader;
using rowscan::io::reader_options;
using rowscan::io::recycled_blocks;
using rowscan::io::text_chunk;

/// Plain memory that counts what it hands out and takes back, and fails the test on a double release.
struct counted_memory {
  std::mutex mutex;
  std::map<void*, bool> live;  // every block made; true while not released
  std::size_t made = 0, released = 0;

  block_memory memory() {
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

std::string random_lines(std::uint32_t seed, std::size_t bytes) {
  std::mt19937 rng(seed);
  std::string text;
  while (text.size() < bytes) {
    std::size_t const n = 1 + rng() % 60;
    for (std::size_t i = 1; i < n; ++i) text += static_cast<char>('a' + rng() % 26);
    text += '\n';
  }
  return text;
}

std::string read_all(int fd, reader_options const& options) {
  chunked_reader reader(fd, "input.txt", options);
  std::string text;
  text_chunk chunk{};
  while (reader.next(chunk)) text.append(chunk.data, chunk.size);
  return text;
}

TEST(RecycledBlocks, TheSecondReaderOfARunMakesNoBlocks) {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    for (unsigned threads : {1u, 4u}) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", " + std::to_string(threads) + " threads");
      counted_memory underlying;
      {
        recycled_blocks ring(underlying.memory());
        reader_options o;
        o.block_size = 4096;
        o.max_line = 128;
        o.threads = threads;
        o.buffers = 4;
        o.min_threaded_block = 0;
        o.memory = ring.memory();
        std::string const first = random_lines(seed, 100000), second = random_lines(seed + 100, 70000);
        support::temp_input a(first), b(second);
        EXPECT_EQ(read_all(a.fd(), o), first);
        std::size_t const made = ring.blocks_made();
        EXPECT_EQ(made, 4u);  // the ring of a file of many blocks
        EXPECT_EQ(ring.blocks_kept(), made);
        EXPECT_EQ(read_all(b.fd(), o), second);
        EXPECT_EQ(ring.blocks_made(), made) << "the second reader made blocks of its own";
        EXPECT_EQ(ring.blocks_kept(), made);
        EXPECT_EQ(underlying.released, 0u) << "a block went back before the run's end";
      }
      EXPECT_EQ(underlying.released, underlying.made);
    }
  }
}

TEST(RecycledBlocks, ABlockOfANewSizeGivesBackTheKeptOnesOfOtherSizes) {
  counted_memory underlying;
  {
    recycled_blocks ring(underlying.memory());
    block_memory const m = ring.memory();
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
  recycled_blocks ring(underlying.memory());
  block_memory const m = ring.memory();
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

}  // namespace
