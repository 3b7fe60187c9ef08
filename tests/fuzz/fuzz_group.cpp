// SPDX-License-Identifier: Apache-2.0
// libFuzzer entry: any bytes as a `rowscan group` input; see group_checks.cu for what must agree.
#include "input_checks.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
  std::string const problem = fuzz::check_group_input(std::string_view(reinterpret_cast<char const*>(data), size));
  if (!problem.empty()) {
    std::fprintf(stderr, "rowscan group: disagreement on a %zu-byte input\n  %s\n", size, problem.c_str());
    std::abort();  // libFuzzer saves the input as a crash
  }
  return 0;
}
