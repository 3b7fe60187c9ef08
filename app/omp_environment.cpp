// SPDX-License-Identifier: Apache-2.0
#include "omp_environment.hpp"

#include "command_line.hpp"

#include <cstring>

namespace rowscan::app {
namespace {

char const* withheld = nullptr;

/// Runs before every library's initializer, libgomp's included (see the header). At that point libc has
/// not yet taken its copy of the environment, so the variable is removed from the initial environment
/// array itself: later entries move down one place. Only plain loops: nothing here may allocate.
void withhold_unusable_omp_num_threads(int /*argc*/, char** /*argv*/, char** envp) {
  constexpr char name[] = "OMP_NUM_THREADS=";
  for (char** entry = envp; entry != nullptr && *entry != nullptr; ++entry) {
    if (std::strncmp(*entry, name, sizeof name - 1) != 0) continue;
    char const* value = *entry + sizeof name - 1;
    if (usable_omp_num_threads(value, static_cast<unsigned>(max_reader_threads))) return;
    bool blank = true;
    for (char const* c = value; *c != '\0'; ++c) blank = blank && (*c == ' ' || *c == '\t');
    withheld = blank ? nullptr : value;  // an empty value means unset, as it does to libgomp
    for (char** to = entry; *to != nullptr; ++to) to[0] = to[1];
    return;
  }
}

}  // namespace

bool usable_omp_num_threads(char const* text, unsigned max) {
  char const* c = text;
  while (*c == ' ' || *c == '\t') ++c;
  bool any = false;
  for (;;) {
    unsigned value = 0;
    char const* const digits = c;
    while (*c >= '0' && *c <= '9') {
      value = value * 10 + static_cast<unsigned>(*c - '0');
      if (value > max) return false;
      ++c;
    }
    if (c == digits || value == 0) return false;
    any = true;
    if (*c != ',') break;
    ++c;
  }
  while (*c == ' ' || *c == '\t') ++c;
  return any && *c == '\0';
}

char const* withheld_omp_num_threads() { return withheld; }

}  // namespace rowscan::app

// The ELF loader calls the functions listed in an executable's .preinit_array before it runs any
// shared library's initializer.
__attribute__((section(".preinit_array"), used)) static void (*const rowscan_withhold_omp_num_threads)(
    int, char**, char**) = rowscan::app::withhold_unusable_omp_num_threads;
