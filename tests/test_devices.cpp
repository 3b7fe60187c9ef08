// SPDX-License-Identifier: Apache-2.0
// rowscan/job/devices.hpp: --devices' values and the small-input rule.
#include "rowscan/job/block_size.hpp"
#include "rowscan/job/devices.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {

using rowscan::job::device_choice;
using rowscan::job::parse_device_choice;

TEST(Devices, ParsesEveryChoice) {
  EXPECT_EQ(parse_device_choice("auto")->kind, device_choice::automatic);
  EXPECT_EQ(parse_device_choice("cpu")->kind, device_choice::cpu);
  EXPECT_EQ(parse_device_choice("cpu+gpu")->kind, device_choice::cpu_and_gpu);
  auto const first = parse_device_choice("gpu");
  ASSERT_TRUE(first);
  EXPECT_EQ(first->kind, device_choice::gpu);
  EXPECT_EQ(first->first_gpu(), rowscan::job::default_gpu);
  EXPECT_FALSE(first->all_gpus);
  auto const third = parse_device_choice("gpu:2");
  ASSERT_TRUE(third);
  EXPECT_EQ(third->kind, device_choice::gpu);
  EXPECT_EQ(third->gpus, std::vector<int>{2});
  EXPECT_EQ(third->first_gpu(), 2);
  auto const several = parse_device_choice("gpu:1,0,1");
  ASSERT_TRUE(several);
  EXPECT_EQ(several->kind, device_choice::gpu);
  EXPECT_EQ(several->gpus, (std::vector<int>{1, 0, 1}));  // a GPU named twice gets two workers
  auto const all = parse_device_choice("gpu:all");
  ASSERT_TRUE(all);
  EXPECT_EQ(all->kind, device_choice::gpu);
  EXPECT_TRUE(all->all_gpus);
  EXPECT_TRUE(all->gpus.empty());
}

TEST(Devices, RejectsAnythingElse) {
  for (char const* text : {"", "GPU", "gpu:", "gpu:x", "gpu:-1", "gpu:1x", "gpu:0,", "gpu:,0", "gpu:0,,1", "gpu:0;1", "gpu:all,0", "gpu:ALL", "cpu:0", "auto ", "gpus", "gpu+cpu", "cpu+gpu:1",
                           "gpu:99999999999999999999"}) {
    EXPECT_FALSE(parse_device_choice(text)) << '\'' << text << '\'';
  }
}

TEST(Devices, SmallInputsGrowWithTheHostsWorkers) {
  EXPECT_EQ(rowscan::job::small_input_bytes(1), rowscan::job::host_bytes_per_worker_while_a_gpu_starts);
  EXPECT_EQ(rowscan::job::small_input_bytes(16), 16 * rowscan::job::host_bytes_per_worker_while_a_gpu_starts);
  EXPECT_GE(rowscan::job::host_worker_count(), 1u);
}

// Without a count named, every core gets a worker until there are enough cores to leave one to the
// driver's thread; never none.
TEST(Devices, DefaultHostWorkersLeaveOneCoreToTheDriverFromSixteenCores) {
  using rowscan::job::cores_that_spare_one_for_the_driver;
  using rowscan::job::default_host_workers;
  EXPECT_EQ(default_host_workers(0), 1u);
  for (unsigned cores = 1; cores < cores_that_spare_one_for_the_driver; ++cores) {
    EXPECT_EQ(default_host_workers(cores), cores) << cores << " cores";
  }
  EXPECT_EQ(cores_that_spare_one_for_the_driver, 16u);
  for (unsigned cores : {16u, 17u, 32u, 64u, 128u}) EXPECT_EQ(default_host_workers(cores), cores - 1) << cores << " cores";
}

// An input of fewer blocks than workers is cut into a block a worker, page-aligned, no smaller than
// the floor (or the run's block, if that is smaller); a stream, one worker or a large input keep the
// run's block.
TEST(BlockSize, AnInputOfFewerBlocksThanWorkersGivesEveryWorkerOne) {
  using rowscan::job::block_size_for;
  std::size_t constexpr MiB = std::size_t{1} << 20;
  EXPECT_EQ(block_size_for(UINT64_MAX, 4 * MiB, 16), 4 * MiB);
  EXPECT_EQ(block_size_for(3 * MiB, 4 * MiB, 1), 4 * MiB);
  EXPECT_EQ(block_size_for(64 * MiB, 4 * MiB, 16), 4 * MiB);
  EXPECT_EQ(block_size_for(1000 * MiB, 4 * MiB, 16), 4 * MiB);
  EXPECT_EQ(block_size_for(40 * MiB, 4 * MiB, 16), 40 * MiB / 16);
  EXPECT_EQ(block_size_for(40 * MiB + 1, 4 * MiB, 16), 40 * MiB / 16 + 4096);  // rounded up to a page
  EXPECT_EQ(block_size_for(6 * MiB, 4 * MiB, 3), 2 * MiB);
  EXPECT_EQ(block_size_for(3 * MiB, 4 * MiB, 16), rowscan::job::shared_block_floor);  // 192 KiB a worker
  EXPECT_EQ(block_size_for(0, 4 * MiB, 16), rowscan::job::shared_block_floor);
  EXPECT_EQ(block_size_for(100000, 2048, 4), 2048u);  // a run's block below the floor stays
  // Less than two floors is one block, not a floor and what is over.
  EXPECT_EQ(block_size_for(281000, 8 * MiB, 2), 282624u);
  EXPECT_EQ(block_size_for(2 * rowscan::job::shared_block_floor - 1, 8 * MiB, 16),
            2 * rowscan::job::shared_block_floor);
  EXPECT_EQ(block_size_for(1 * MiB, 4 * MiB, 15), 1 * MiB / 4);  // four floors: four blocks, not 15
  for (std::uint64_t bytes = 1; bytes < 200 * MiB; bytes = bytes * 3 + 7) {
    for (std::size_t workers : {2u, 3u, 15u, 31u}) {
      std::size_t const b = block_size_for(bytes, 4 * MiB, workers);
      EXPECT_LE(b, 4 * MiB) << bytes << " bytes, " << workers << " workers";
      EXPECT_EQ(b % 4096, 0u) << bytes << " bytes, " << workers << " workers";
      std::uint64_t const blocks = (bytes + b - 1) / b;
      if (b > rowscan::job::shared_block_floor && b < 4 * MiB) {
        // Cut for the workers: one block each, or one fewer; fewer where the input holds fewer floors.
        std::uint64_t const floors = bytes / rowscan::job::shared_block_floor;
        EXPECT_LE(blocks, workers) << bytes << " bytes, " << workers << " workers";
        EXPECT_GE(blocks + 1, std::min<std::uint64_t>(workers, floors)) << bytes << " bytes, " << workers << " workers";
      }
      if (blocks > 1 && b < 4 * MiB) {  // no last block of a few bytes: at least a floor, less a page a worker
        std::uint64_t const last = bytes - (blocks - 1) * b;
        EXPECT_GE(last + workers * 4096, rowscan::job::shared_block_floor)
            << bytes << " bytes, " << workers << " workers";
      }
    }
  }
}

}  // namespace
