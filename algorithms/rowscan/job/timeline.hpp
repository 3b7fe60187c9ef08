// SPDX-License-Identifier: Apache-2.0
// rowscan/job/timeline.hpp: one run's milestones from exec to exit, for measuring where a run's fixed
// cost goes (scripts/timeline.py; docs/performance.md, "One run's timeline"). Plain C++ (no Thrust).
//
// With ROWSCAN_TIMELINE=FILE set, each mark appends one line to FILE: the wall-clock time in
// microseconds since the epoch, the process id and the milestone's name. Both processes of a forked
// job (rowscan/process/answer_first.hpp) append to the same file, so the parent's exit is on it too. Without the
// variable a mark costs one test of a flag read once.
#pragma once

namespace rowscan::job {

/// Appends `milestone` (a short name, no newline) with the time now to ROWSCAN_TIMELINE's file, if set.
void timeline_mark(char const* milestone) noexcept;

}  // namespace rowscan::job
