// SPDX-License-Identifier: Apache-2.0
// tests/support/distinct_stations.hpp: inputs in which every line names a different station
// (scripts/distinct_stations.py), and the byte count of their names that the memory bound takes.
#pragma once

#include "cli_fixture.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace support {

/// scripts/distinct_stations.py --stations S [--name-bytes RANGE] -o FILE, the file `copies` times over
/// (later copies name only known stations); returns the bytes of the S names.
inline std::uint64_t write_distinct_stations(std::string const& file, std::uint64_t stations,
                                             std::string const& name_bytes = "", int copies = 1) {
  std::string const once = copies > 1 ? file + ".once" : file;
  std::string command = "python3 '" ROWSCAN_SOURCE_DIR "/scripts/distinct_stations.py' --stations " +
                        std::to_string(stations) + " -o '" + once + "'";
  if (!name_bytes.empty()) command += " --name-bytes " + name_bytes;
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::string const text = read_file(once);
  if (copies > 1) {
    std::string all;
    for (int i = 0; i < copies; ++i) all += text;
    write_file(file, all);
  }
  std::uint64_t bytes = 0;
  bool in_name = true;
  for (char const c : text) {
    if (c == ';') in_name = false;
    else if (c == '\n') in_name = true;
    else if (in_name) ++bytes;
  }
  return bytes;
}

}  // namespace support
