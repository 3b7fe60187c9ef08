// SPDX-License-Identifier: Apache-2.0
// rowscan: the command-line tool. app::run_command_line does the work (run_command_line.cpp).
#include "commands.hpp"
#include "ranks.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>

int main(int argc, char** argv) {
  rowscan::app::ranks::start(argc, argv);  // MPI, when mpirun started this process (ranks.hpp)
  int const code = rowscan::app::ranks::finish(rowscan::app::run_command_line(argc, argv));
  // Everything is written (stdout only through write_standard_output, which reports its own failures);
  // skip the teardown of the device runtime at exit (about 0.1 s on an H100), which the operating
  // system does anyway when the process ends.
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}
