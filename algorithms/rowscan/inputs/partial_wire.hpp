// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/partial_wire.hpp: partial answers and outcomes as bytes, for the merge between MPI ranks. Each
// reads back exactly what it wrote (tests/test_scale_out_parts.cpp round-trips them).
#pragma once

#include "rowscan/group/summary.hpp"
#include "rowscan/lineitem/summary.hpp"
#include "rowscan/stations/summary.hpp"

#include "rowscan/job/tally.hpp"
#include "rowscan/wire.hpp"

namespace rowscan::inputs {

void encode(wire_writer& out, stations::summary const& s);
void decode(wire_reader& in, stations::summary& s);
void encode(wire_writer& out, lineitem::summary const& s);
void decode(wire_reader& in, lineitem::summary& s);
void encode(wire_writer& out, group::summary const& s);
void decode(wire_reader& in, group::summary& s);
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
