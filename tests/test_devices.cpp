// SPDX-License-Identifier: Apache-2.0
// rowscan/job/devices.hpp: --devices' values and the small-input rule.
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

}  // namespace
