// SPDX-License-Identifier: Apache-2.0
// app/omp_environment.hpp: an OMP_NUM_THREADS that rowscan cannot use never reaches libgomp.
//
// libgomp reads OMP_NUM_THREADS while the program loads, before main: a malformed value makes it print
// its own warning, and a huge one (100000) makes it start that many threads. rowscan's executable
// therefore looks at the variable first (a .preinit_array function, which runs before any library's
// initializer) and withholds from the process's environment a value that is not a list of whole numbers
// from 1 to 64. The command line then decides: --threads N or ROWSCAN_THREADS=N win over it, as the
// help says; without them the withheld value is a usage error that names it.
#pragma once

namespace rowscan::app {

/// The OMP_NUM_THREADS text withheld from libgomp, or null if it was unset, empty or usable.
char const* withheld_omp_num_threads();

/// Whether text (without its NUL) is what rowscan lets libgomp read: whole numbers from 1 to max,
/// separated by commas, with spaces or tabs around the whole. No allocation: it runs before main.
bool usable_omp_num_threads(char const* text, unsigned max);

}  // namespace rowscan::app
