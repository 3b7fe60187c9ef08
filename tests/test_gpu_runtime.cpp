// SPDX-License-Identifier: Apache-2.0
// rowscan/gpu_runtime: the CUDA runtime's side (compiled once), or the stub of a build without CUDA. Either way the
// probe agrees with itself and pinned memory is memory; on a GPU machine the CUDA build's tests run the real one.
#include "rowscan/gpu_runtime/gpus.hpp"
#include "rowscan/gpu_runtime/pinned_memory.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

TEST(GpuRuntime, TheProbeAgreesWithTheCount) {
  int const gpus = rowscan::gpu_runtime::gpu_count();
  ASSERT_GE(gpus, 0);
  if (gpus == 0) {
    // No driver, no device, or a build without CUDA: a reason, never an empty one.
    auto const why = rowscan::gpu_runtime::gpu_unavailable(0);
    ASSERT_TRUE(why.has_value());
    EXPECT_FALSE(why->empty());
    if (!rowscan::gpu_runtime::built_with_cuda()) {
      EXPECT_EQ(*why, "this rowscan was built without CUDA");
    }
    return;
  }
  for (int g = 0; g < gpus; ++g) EXPECT_FALSE(rowscan::gpu_runtime::gpu_unavailable(g).has_value()) << "GPU " << g;
  auto const beyond = rowscan::gpu_runtime::gpu_unavailable(gpus);
  ASSERT_TRUE(beyond.has_value());
  EXPECT_EQ(*beyond, "no GPU " + std::to_string(gpus) + " (this machine has " + std::to_string(gpus) + ")");
}

TEST(GpuRuntime, PinnedMemoryHoldsWhatIsWrittenAtAnySize) {
  if (rowscan::gpu_runtime::built_with_cuda() && rowscan::gpu_runtime::gpu_count() == 0) {
    GTEST_SKIP() << "a CUDA build without a usable GPU: page-locking needs its driver";
  }
  std::mt19937 random(5);
  // Sizes around a 2 MiB huge page (registered huge pages), and small ones.
  for (std::size_t const bytes : {std::size_t{1}, std::size_t{4095}, (std::size_t{2} << 20) - 1, std::size_t{2} << 20,
                                  (std::size_t{2} << 20) + 1, (std::size_t{9} << 20) + 7}) {
    SCOPED_TRACE(std::to_string(bytes) + " bytes, seed 5");
    std::vector<char> pattern(bytes);
    for (char& c : pattern) c = static_cast<char>(random());
    rowscan::io::block_memory const memory = rowscan::gpu_runtime::pinned_block_memory();
    void* const p = memory.allocate(bytes);
    ASSERT_NE(p, nullptr);
    std::memcpy(p, pattern.data(), bytes);
    EXPECT_EQ(std::memcmp(p, pattern.data(), bytes), 0);
    memory.release(p);
  }
  rowscan::gpu_runtime::free_pinned(nullptr);  // ignored
}

}  // namespace
