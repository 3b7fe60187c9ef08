// SPDX-License-Identifier: Apache-2.0
// --devices: the processor that runs a job never changes its output. The answer, every error line and
// --skip-invalid's report are byte-identical whether the host's cores or the GPU run it; bad values are
// usage errors. The CUDA build holds both systems (cmake/rowscan_host_system.cmake); the cpu build only
// the host's, so there `--devices gpu` is a usage error.
#include "reference/stations_reference.hpp"
#include "support/cli_fixture.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

using support::write_file;

class CliDevices : public support::cli_fixture {
 protected:
  void SetUp() override {
    support::cli_fixture::SetUp();
    built_for_cuda_ = run("--version").out.find("CUDA") != std::string::npos;
    choices_ = {" --devices auto", " --devices cpu"};
    if (built_for_cuda_) {
      choices_.push_back(" --devices gpu");
      choices_.push_back(" --devices gpu:0");
      choices_.push_back(" --devices cpu+gpu");
      // Several GPU workers fed from one queue, their tables merged on the host: on a machine with one
      // GPU, two workers on it.
      choices_.push_back(" --devices gpu:0,0");
      choices_.push_back(" --devices gpu:all");
    }
  }

  /// Whether this rowscan has a GPU system (its --version names CUDA).
  bool built_for_cuda() const { return built_for_cuda_; }

  /// The --devices options this build accepts, besides giving none.
  std::vector<std::string> const& choices() const { return choices_; }

  /// Runs `rowscan ARGS` without --devices and once per --devices choice, and expects the exit code,
  /// stdout and stderr of each choice to equal the first run's.
  void expect_same_everywhere(std::string const& args) const {
    auto const first = run(args);
    for (auto const& choice : choices()) {
      auto const r = run(args + choice);
      EXPECT_EQ(r.exit_code, first.exit_code) << args << choice;
      EXPECT_EQ(r.out, first.out) << args << choice;
      EXPECT_EQ(r.err, first.err) << args << choice;
    }
  }

 private:
  bool built_for_cuda_ = false;
  std::vector<std::string> choices_;
};

/// A measurements file of `lines` random lines over `stations` names, every `bad_every`th line broken
/// (0: none).
std::string measurements(unsigned seed, int lines, int stations, int bad_every) {
  std::mt19937 random(seed);
  std::string text;
  for (int i = 1; i <= lines; ++i) {
    if (bad_every != 0 && i % bad_every == 0) {
      text += "broken line without a separator\n";
      continue;
    }
    int const tenths = static_cast<int>(random() % 1999) - 999;
    text += "station" + std::to_string(random() % stations) + ';' + (tenths < 0 ? "-" : "") +
            std::to_string(std::abs(tenths) / 10) + '.' + std::to_string(std::abs(tenths) % 10) + '\n';
  }
  return text;
}

TEST_F(CliDevices, StationsAnswerTheSameOnEveryProcessor) {
  for (unsigned seed : {1u, 2u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    write_file(path("m.txt"), measurements(seed, 8000, 300, 0));
    std::string const m = " '" + path("m.txt") + "'";
    expect_same_everywhere("stations" + m);
    expect_same_everywhere("stations --format json --chunk-size 4K" + m);
    auto const answer = run("stations --devices cpu" + m);
    ASSERT_EQ(answer.exit_code, 0) << answer.err;
    EXPECT_EQ(answer.out, reference::stations_answer(support::read_file(path("m.txt"))));
  }
}

TEST_F(CliDevices, ErrorsAndSkippedLinesAreTheSameOnEveryProcessor) {
  write_file(path("bad.txt"), measurements(3, 5000, 50, 777));
  std::string const bad = " '" + path("bad.txt") + "'";
  expect_same_everywhere("stations" + bad);
  expect_same_everywhere("stations --skip-invalid --chunk-size 1K" + bad);
  write_file(path("l.tbl"), "1|2|3|4|5|6.00|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|x|\n"
                            "1|2|3|oops|5|6.00|0.04|0.02|N|O|1996-03-13|1996-02-12|1996-03-22|DELIVER IN PERSON|TRUCK|x|\n");
  expect_same_everywhere("lineitem --suppkey-below 5 '" + path("l.tbl") + "'");
  expect_same_everywhere("lineitem --suppkey-below 5 --skip-invalid --format json '" + path("l.tbl") + "'");
  expect_same_everywhere("stations '" + path("no-such-file") + "'");
}

TEST_F(CliDevices, SeveralGpuWorkersShareTheBlocks) {
  write_file(path("m.txt"), measurements(4, 20000, 100, 0));
  auto const one = run("stations --devices cpu '" + path("m.txt") + "'");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  if (!built_for_cuda()) GTEST_SKIP() << "the cpu build has no GPU engine";
  auto const two = run("stations --devices gpu:0,0 --chunk-size 16K --stats '" + path("m.txt") + "'");
  if (two.err.find("no usable GPU") != std::string::npos) GTEST_SKIP() << two.err;
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_EQ(two.out, one.out);
  // --stats ends with each worker's share: two GPU workers, the blocks split between them.
  std::size_t workers = 0, blocks = 0;
  for (std::size_t at = two.err.find("  gpu    "); at != std::string::npos; at = two.err.find("  gpu    ", at + 1)) {
    ++workers;
    blocks += std::stoul(two.err.substr(at + 13, 6));  // "  gpu    N   BBBBBB blocks"
  }
  EXPECT_EQ(workers, 2u) << two.err;
  EXPECT_GT(blocks, 2u) << two.err;
}

TEST_F(CliDevices, AnEmptyInputTouchesNoGpu) {
  write_file(path("empty.txt"), "");
  write_file(path("m.txt"), "Hamburg;12.0\n");
  std::string const empty = " '" + path("empty.txt") + "'";
  expect_same_everywhere("stations" + empty);
  expect_same_everywhere("stations" + empty + " '" + path("m.txt") + "'");
  expect_same_everywhere("lineitem --suppkey-below 5" + empty);
  if (!built_for_cuda()) GTEST_SKIP() << "the cpu build has no GPU engine";
  // Nothing to fold: the host answers and no GPU is touched, so even a GPU the machine lacks is not
  // missed; a file with a line goes to the GPU named.
  for (char const* gpus : {"gpu", "gpu:0,0", "gpu:99"}) {
    auto const none = run("stations --stats --devices " + std::string(gpus) + empty);
    EXPECT_EQ(none.exit_code, 0) << gpus << none.err;
    EXPECT_EQ(none.out, "{}\n") << gpus;
    EXPECT_NE(none.err.find("the input holds no bytes: answered on the host's cores, no GPU touched"), std::string::npos)
        << gpus << none.err;
  }
  auto const missing = run("stations --devices gpu:99" + empty + " '" + path("m.txt") + "'");
  EXPECT_EQ(missing.exit_code, 1) << missing.err;
  EXPECT_NE(missing.err.find("no usable GPU"), std::string::npos) << missing.err;
  auto const one = run("stations --devices gpu --stats" + empty + " '" + path("m.txt") + "'");
  if (one.err.find("no usable GPU") != std::string::npos) GTEST_SKIP() << one.err;
  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.out, "{Hamburg=12.0/12.0/12.0}\n");
  EXPECT_EQ(one.err.find("no GPU touched"), std::string::npos) << one.err;
  EXPECT_NE(one.err.find("  gpu    "), std::string::npos) << one.err;  // its worker's share: a GPU's
}

TEST_F(CliDevices, ExplainRunsOnEveryProcessor) {
  write_file(path("m.txt"), "Hamburg;12.0\nBulawayo;8.9\nHamburg;-3.4\n");
  std::vector<std::string> every = {""};
  every.insert(every.end(), choices().begin(), choices().end());
  for (auto const& choice : every) {
    auto const r = run("stations --explain '" + path("m.txt") + "'" + choice);
    EXPECT_EQ(r.exit_code, 0) << choice << r.err;
    EXPECT_NE(r.out.find("{Bulawayo=8.9/8.9/8.9, Hamburg=-3.4/4.3/12.0}"), std::string::npos) << choice;
  }
}

TEST_F(CliDevices, BadValuesAreUsageErrors) {
  write_file(path("m.txt"), "a;1.0\n");
  std::string const m = " '" + path("m.txt") + "'";
  for (char const* value : {"tpu", "gpu:", "gpu:x", "gpu:-1", "GPU", "", "gpu:0,", "gpu:all,1"}) {
    auto const r = run("stations --devices '" + std::string(value) + "'" + m);
    EXPECT_EQ(r.exit_code, 2) << value;
    EXPECT_EQ(r.err, "rowscan: error: --devices: '" + std::string(value) + "' is not one of auto, cpu, gpu, gpu:N, gpu:N,M,..., gpu:all, cpu+gpu (see --help)\n")
        << value;
  }
  if (!built_for_cuda()) {
    for (std::string const value : {"gpu", "cpu+gpu", "gpu:0,1", "gpu:all"}) {
      std::string args = "lineitem --suppkey-below 5 --devices ";
      args += value;
      args += m;
      auto const r = run(args);
      EXPECT_EQ(r.exit_code, 2);
      std::string expected = "rowscan: error: --devices ";
      expected += value;
      expected += ": this rowscan was built without CUDA (the cpu preset); it runs on the host's cores (see --help)\n";
      EXPECT_EQ(r.err, expected);
    }
  }
}

}  // namespace
