// SPDX-License-Identifier: Apache-2.0
// The progress bar's text (app/progress.hpp): what a user sees while a long run reads its input.
#include "progress.hpp"

#include <gtest/gtest.h>

namespace {

using rowscan::app::progress_meter;

TEST(Progress, ShowsFractionBytesRateAndTimeLeft) {
  EXPECT_EQ(progress_meter::render(6'900'000'000, 13'800'000'000, 0.5),
            "[###############...............]  50%  6.9 of 13.8 GB  13.8 GB/s  0.5 s left");
}

TEST(Progress, StartAndEnd) {
  EXPECT_EQ(progress_meter::render(0, 1000, 1.0), "[..............................]   0%  0.0 of 0.0 MB  0.0 MB/s  0.0 s left");
  EXPECT_EQ(progress_meter::render(1000, 1000, 1.0), "[##############################] 100%  0.0 of 0.0 MB  0.0 MB/s  0.0 s left");
  // Below a GB the bar counts in MB.
  EXPECT_EQ(progress_meter::render(25'000'000, 100'000'000, 0.5),
            "[#######.......................]  25%  25.0 of 100.0 MB  50.0 MB/s  1.5 s left");
}

TEST(Progress, UnknownSizeShowsBytesAndRateOnly) {
  EXPECT_EQ(progress_meter::render(2'000'000'000, 0, 2.0), "2.0 GB  1.0 GB/s");
  EXPECT_EQ(progress_meter::render(2'000'000, 0, 2.0), "2.0 MB  1.0 MB/s");
}

TEST(Progress, DisabledMeterNeverDraws) {
  progress_meter meter(100, false);
  testing::internal::CaptureStderr();
  meter.update(50);
  meter.finish();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

}  // namespace
