// SPDX-License-Identifier: Apache-2.0
// Runs the rowscan executable as a user would, in a scratch directory: exit code, stdout, stderr.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace support {

struct run_result {
  int exit_code;
  std::string out;
  std::string err;
};

inline std::string read_file(std::string const& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_file(std::string const& path, std::string const& text) {
  std::ofstream(path, std::ios::binary) << text;
}

class cli_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/rowscan-cli-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  std::string path(std::string const& name) const { return dir_ + "/" + name; }

  /// Runs `rowscan ARGS` through the shell (ARGS are shell words; stdin_text feeds standard input).
  run_result run(std::string const& args, std::string const& stdin_text = "") const {
    write_file(path("stdin"), stdin_text);
    std::string const command = std::string("'") + ROWSCAN_EXE + "' " + args + " <'" + path("stdin") + "' >'" +
                                path("stdout") + "' 2>'" + path("stderr") + "'";
    int const status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(path("stdout")), read_file(path("stderr"))};
  }

  std::string dir_;
};

}  // namespace support
