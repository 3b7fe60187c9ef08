// SPDX-License-Identifier: Apache-2.0
// rowscan/job/resident_device.hpp: the bytes of a session's files kept in device memory, and runs of the job
// driver that fold them where they lie (rowscan/session.hpp; compiled for each Thrust system).
//
//   session's cache: a file -keep_on_device-> a copy in the GPU's memory and an index of its line ends, keyed
//   by the inode of the memory file that the session's runs read in the file's place (holding only its first bytes)
//   run_blocks(an input on that memory file) -run_resident-> the copy cut into blocks at line ends -> the workers
//   fold them on threads of their own (fold_block) -> their tallies merged in input order -> the report
//
// Nothing is read and nothing is copied to the device in such a run: what the GPU does is the fold alone.
// A run that cannot fold the copy (run_resident) reads the memory file, which is then filled from the copy.
// The host systems keep nothing (their workers read the memory file itself): keep_on_device is false there.
#pragma once

#include "rowscan/context.hpp"
#include "rowscan/job/driver.hpp"
#include "rowscan/job/tally.hpp"
#include "rowscan/system.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::job {
ROWSCAN_SYSTEM_BEGIN

/// Copies `bytes` of the file on `file` to the current GPU's memory, for the runs that read the memory file on
/// `memory` in its place (of `bytes` bytes, of which the caller wrote the first ones that opening a file reads).
/// False under the host systems, or when the GPU has no room for it; throws rowscan::error when the file
/// cannot be read.
bool keep_on_device(int file, int memory, std::uint64_t bytes);

/// Whether keep_on_device kept a copy for the memory file on fd (always false under the host systems).
bool kept_on_device(int fd);

/// Frees what keep_on_device kept for the memory file on fd (a run that is folding it keeps it until it ends).
void drop_from_device(int fd);

/// The driver's run of one input over the device copy of the memory file on fd, from fd's offset: the same tallies, merged in
/// input order, the same errors and report, the blocks folded where they lie. False when fd has no copy, or
/// the run cannot fold it there (a run a GPU joins, quoted records, a line that may be longer than the workload
/// carries, a worker on another GPU, a block with no line end): the memory file then holds every byte of the
/// copy, and run_blocks reads fd.
bool run_resident(int fd, std::string const& label, job_options const& options, block_layout const& layout,
                  std::vector<worker_slot> const& workers, run_report& report);

/// While a session holds them (hold_contexts(true), once for each session), the contexts that start_context makes are
/// kept when their run ends, and a later run on the same GPU takes an idle one: its stream is made, and its pool
/// holds the block-sized memory the last run asked for, so that a session's later query neither allocates nor
/// frees it (each cudaFree waits for the whole device). hold_contexts(false) by the last holder frees them. Nothing
/// under the host systems, whose contexts hold no stream.
void hold_contexts(bool hold);

/// start_context's context on the current GPU: a kept idle one while contexts are held, else a new one.
context take_context();

/// The driver's fold of one block of text in device-system memory (driver.cu): the worker's tally, folded
/// again in halves if the device runs out of memory for the whole; file_offset places the block in errors.
tally fold_block(worker_slot const& slot, char const* text, std::size_t size, std::uint64_t file_offset,
                 std::string const& label, std::size_t chunk_size);

ROWSCAN_SYSTEM_END
}  // namespace rowscan::job
