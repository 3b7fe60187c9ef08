// SPDX-License-Identifier: Apache-2.0
// rowscan/process/ranks.hpp without MPI: one process, rank 0 of 1.
#include "rowscan/process/ranks.hpp"

namespace rowscan::ranks {

char const* built_with() { return ""; }
void start(int&, char**&) {}
int finish(int code) { return code; }
bool in_mpi_job() { return false; }
int rank() { return 0; }
int count() { return 1; }
std::string broadcast(std::string const& bytes) { return bytes; }
std::string merge_to_root(std::string mine, std::function<std::string(std::string const&, std::string const&)> const&) {
  return mine;
}
std::vector<std::string> gather_to_root(std::string const& mine) { return {mine}; }
void barrier() {}

}  // namespace rowscan::ranks
