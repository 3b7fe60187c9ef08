// SPDX-License-Identifier: Apache-2.0
// tests/support/host_workers_env.hpp: fixes how many host workers the rowscan processes a test starts
// will use (OMP_NUM_THREADS), and restores the variable when the test ends.
#pragma once

#include <cstdlib>
#include <string>

namespace support {

/// Sets OMP_NUM_THREADS=n for the child processes started in its lifetime, then restores what it was.
class host_workers_env {
 public:
  explicit host_workers_env(int n) : had_(std::getenv("OMP_NUM_THREADS") != nullptr) {
    if (had_) saved_ = std::getenv("OMP_NUM_THREADS");
    setenv("OMP_NUM_THREADS", std::to_string(n).c_str(), 1);
  }
  ~host_workers_env() {
    if (had_) {
      setenv("OMP_NUM_THREADS", saved_.c_str(), 1);
    } else {
      unsetenv("OMP_NUM_THREADS");
    }
  }
  host_workers_env(host_workers_env const&) = delete;
  host_workers_env& operator=(host_workers_env const&) = delete;

 private:
  bool had_;
  std::string saved_;
};

}  // namespace support
