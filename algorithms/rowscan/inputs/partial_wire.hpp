// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/partial_wire.hpp: what every partial answer carries (its run's report, its tally), as bytes
// for the merge between MPI ranks; each workload's entry adds its own (rowscan/workload.hpp). Each reads
// back exactly what it wrote (tests/test_scale_out_parts.cpp round-trips them).
#pragma once

#include "rowscan/job/run_report.hpp"
#include "rowscan/job/tally.hpp"
#include "rowscan/wire.hpp"

namespace rowscan::inputs {

/// A run's report as bytes: its counters, stage times and workers' shares (`skipped` travels in the
/// outcome, already placed). Every workload's partial answer starts with it (rowscan/workload.hpp).
void encode_report(wire_writer& out, job::run_report const& r);
void decode_report(wire_reader& in, job::run_report& r);
void encode(wire_writer& out, job::tally const& t);
void decode(wire_reader& in, job::tally& t);
void encode(wire_writer& out, job::bad_line const& line);
void decode(wire_reader& in, job::bad_line& line);
void encode(wire_writer& out, std::vector<job::worker_share> const& shares);
void decode(wire_reader& in, std::vector<job::worker_share>& shares);

/// Makes glibc keep freed buffers of a few megabytes mapped (mmap threshold 8 MB, trim threshold 64 MB)
/// instead of returning each to the system: every step of the ranks' merge tree then reuses the pages
/// of the step before rather than faulting a fresh megabyte in, several times faster a step
/// (rowscan_merge_partials; docs/scale-out.md). Called once by an MPI rank at start.
void keep_freed_buffers_mapped();

}  // namespace rowscan::inputs
