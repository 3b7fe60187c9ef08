// SPDX-License-Identifier: Apache-2.0
// rowscan/process/answer_first.hpp: the user waits for the answer, not for the GPU's teardown.
//
// A process that used a GPU spends a noticeable time after its last write in the kernel, unmapping its
// pinned memory and letting the driver release the device (docs/performance.md, "The answer first").
// Before a job that may use the GPU, the process forks: the parent waits only until the child reports
// its exit code, which the child does once its answer and messages are written and its stdout and
// stderr are closed; the parent then exits with that code at once, and the child's teardown goes on
// after it, off the user's clock.
//
//   parent: fork ------------------------------ read(code) -> exit(code)
//   child:       choose the engine, run the job, write the answer, close stdout/stderr -> write(code)
//                -> exit: its memory and the GPU released in the background
//
// Signals the parent gets (SIGINT, SIGTERM, SIGHUP) are passed on to the child, which handles them as
// the process would; if the parent is killed outright, the child gets SIGKILL (PR_SET_PDEATHSIG). A
// child that ends without reporting (a crash) ends the parent the same way, signal or code. No fork
// under MPI (mpirun watches its processes), with ROWSCAN_ANSWER_FIRST=0 (the process then owns the GPU
// until it exits), or when fork fails: the run is then the plain process.
#pragma once

namespace rowscan::process {

/// Forks for a job that may use the GPU (or any job, with ROWSCAN_ANSWER_FIRST=1), if this process has
/// not yet and nothing forbids it (see the file's comment); only the child returns. Call it before
/// anything starts a thread or a device (the GPU engine's first call).
void answer_first(bool may_use_gpu);

/// In the child of answer_first: hands the parent the exit code, with stdout and stderr flushed and
/// closed first (nothing more may be written). Elsewhere nothing. Returns the code.
int answer_delivered(int code);

}  // namespace rowscan::process
