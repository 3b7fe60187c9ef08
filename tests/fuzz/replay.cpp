// SPDX-License-Identifier: Apache-2.0
// rowscan_fuzz_replay: runs saved inputs (the seed corpus, a fuzzer's finds) through the fuzzers' checks
// without libFuzzer, so any compiler and any backend can replay them. CTest runs it on tests/fuzz/corpus.
//
//   rowscan_fuzz_replay stations|lineitem|group PATH...   (PATH: a file, or a directory of files)
// Exit code 0 when every input agrees with the reference, 1 when one does not, 2 on a usage error.
// ROWSCAN_TEST_LIGHT=1 (tests/support/light_mode.hpp) checks each input's first 1 KiB only.
#include "input_checks.hpp"

#include "support/light_mode.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string read_bytes(std::filesystem::path const& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  std::string const workload = argc > 1 ? argv[1] : "";
  if (argc < 3 || (workload != "stations" && workload != "lineitem" && workload != "group")) {
    std::cerr << "usage: rowscan_fuzz_replay stations|lineitem|group PATH...\n";
    return 2;
  }
  auto const check = workload == "stations"   ? fuzz::check_stations_input
                     : workload == "lineitem" ? fuzz::check_lineitem_input
                                              : fuzz::check_group_input;

  std::vector<std::filesystem::path> inputs;
  for (int i = 2; i < argc; ++i) {
    std::filesystem::path const path = argv[i];
    if (std::filesystem::is_directory(path)) {
      for (auto const& entry : std::filesystem::directory_iterator(path)) {
        if (entry.is_regular_file()) inputs.push_back(entry.path());
      }
    } else {
      inputs.push_back(path);
    }
  }
  std::sort(inputs.begin(), inputs.end());

  int failures = 0;
  for (auto const& path : inputs) {
    std::string text = read_bytes(path);
    // Light mode (sanitizer runs): each input's first 1 KiB, itself an input for the same checks; the
    // smallest chunk sizes make a chunk of every 64 bytes of it.
    if (support::light_mode() && text.size() > 1024) text.resize(1024);
    std::string const problem = check(text);
    if (!problem.empty()) {
      ++failures;
      std::cerr << path.string() << ": " << problem << "\n";
    }
  }
  std::cout << workload << ": " << inputs.size() << " input(s), " << failures << " disagreement(s)\n";
  return failures == 0 && !inputs.empty() ? 0 : 1;
}
