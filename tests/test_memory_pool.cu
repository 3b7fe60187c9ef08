// SPDX-License-Identifier: Apache-2.0
// The device-memory pool (rowscan/memory_pool.hpp): size classes for large requests, so a
// growing array reuses the block it gave back, and release_unused for the classes it grew out of.
#include "rowscan/context.hpp"
#include "rowscan/io/huge_pages.hpp"
#include "rowscan/memory_pool.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace {

using rowscan::memory_pool;

constexpr std::size_t mib = std::size_t{1} << 20;

TEST(MemoryPool, SizeClassesAreAtMostTwiceTheRequestAndIncreasing) {
  std::size_t previous = 0;
  for (std::size_t bytes = mib + 1; bytes < 64 * mib; bytes += 12345) {
    std::size_t const c = memory_pool::size_class(bytes);
    EXPECT_GE(c, bytes);
    EXPECT_LT(c, 2 * bytes) << bytes;
    EXPECT_GE(c, previous);
    previous = c;
  }
  EXPECT_EQ(memory_pool::size_class(4 * mib), 4 * mib);
  EXPECT_EQ(memory_pool::size_class(4 * mib + 1), 8 * mib);
  EXPECT_EQ(memory_pool::size_class(3 * mib), 4 * mib);
}

TEST(MemoryPool, AGrowingRequestReusesTheBlockOfItsClass) {
  memory_pool pool;
  auto const a = pool.allocate(4 * mib + 100);
  pool.deallocate(a, 4 * mib + 100);
  EXPECT_EQ(pool.cached_bytes(), 8 * mib);
  auto const b = pool.allocate(4 * mib + 200);  // slightly larger, same class: the same block
  EXPECT_EQ(b, a);
  EXPECT_EQ(pool.large_bytes_held(), 8 * mib);
  EXPECT_EQ(pool.cached_bytes(), 0u);
  pool.deallocate(b, 4 * mib + 200);
}

TEST(MemoryPool, ReleaseUnusedFreesOnlyTheClassesNotAskedForSinceTheLastCall) {
  memory_pool pool;
  auto const block = pool.allocate(2 * mib);  // asked for in every "block"
  auto const table = pool.allocate(3 * mib);  // a table (class 4 MiB) that then grows out of its class
  pool.deallocate(block, 2 * mib);
  pool.deallocate(table, 3 * mib);
  pool.release_unused();  // both were asked for since the start: both stay
  EXPECT_EQ(pool.cached_bytes(), 6 * mib);

  auto const block2 = pool.allocate(2 * mib);
  auto const grown = pool.allocate(6 * mib);  // class 8 MiB
  pool.deallocate(block2, 2 * mib);
  pool.deallocate(grown, 6 * mib);
  EXPECT_EQ(pool.cached_bytes(), 14 * mib);
  pool.release_unused();  // the 4 MiB class was not asked for since the last call
  EXPECT_EQ(pool.cached_bytes(), 10 * mib);
  EXPECT_EQ(pool.large_bytes_held(), 10 * mib);
  EXPECT_EQ(pool.peak_large_bytes_held(), 14 * mib);
  pool.release_cached();
  EXPECT_EQ(pool.large_bytes_held(), 0u);
}

TEST(MemoryPool, SmallRequestsComeFromThrustsBuckets) {
  memory_pool pool;
  auto const p = pool.allocate(1000);
  pool.deallocate(p, 1000);
  EXPECT_EQ(pool.large_bytes_held(), 0u);
  EXPECT_EQ(pool.allocate(1000), p);  // the bucket's free block
}

TEST(MemoryPool, TheContextsPoolServesItsPolicyAndItsColumns) {
  rowscan::context ctx;
  auto buffer = rowscan::device_buffer<char>(3 * mib, ctx.memory());
  EXPECT_EQ(ctx.pool().large_bytes_held(), 4 * mib);
}

// Host blocks in huge pages (rowscan/io/huge_pages.hpp): from 2 MiB on on a 2 MiB boundary, every byte
// writable and freed by std::free; below it any block. Advice on a vector's memory leaves its contents.
TEST(HugePages, BlocksHoldTheirBytesAndLargeOnesStartOnAHugePage) {
  std::size_t const huge = rowscan::io::huge_page_bytes;
  for (std::size_t bytes : {std::size_t{0}, std::size_t{1}, huge - 1, huge, huge + 1, 5 * mib + 7}) {
    SCOPED_TRACE("bytes=" + std::to_string(bytes));
    auto* const p = static_cast<unsigned char*>(rowscan::io::allocate_huge_pages(bytes));
    ASSERT_NE(p, nullptr);
    if (bytes >= huge) {
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % huge, 0u);
    }
    for (std::size_t i = 0; i < bytes; i += 4093) p[i] = static_cast<unsigned char>(i % 251);
    if (bytes > 0) p[bytes - 1] = 7;
    for (std::size_t i = 0; i + 1 < bytes; i += 4093) ASSERT_EQ(p[i], static_cast<unsigned char>(i % 251)) << i;
    if (bytes > 0) {
      EXPECT_EQ(p[bytes - 1], 7);
    }
    std::free(p);
  }
  for (std::size_t count : {std::size_t{10}, 3 * mib + 5}) {
    std::vector<std::uint32_t> v(count);
    for (std::size_t i = 0; i < count; ++i) v[i] = static_cast<std::uint32_t>(i * 2654435761u);
    rowscan::io::offer_huge_pages(v.data(), count * sizeof(std::uint32_t));
    for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(v[i], static_cast<std::uint32_t>(i * 2654435761u)) << i;
  }
}

}  // namespace
