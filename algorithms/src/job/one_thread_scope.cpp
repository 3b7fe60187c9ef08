// SPDX-License-Identifier: Apache-2.0
#include "rowscan/job/one_thread_scope.hpp"

#include <omp.h>

namespace rowscan::job {

one_thread_scope::one_thread_scope() : before_(omp_get_max_threads()) { omp_set_num_threads(1); }
one_thread_scope::~one_thread_scope() { omp_set_num_threads(before_); }

}  // namespace rowscan::job
