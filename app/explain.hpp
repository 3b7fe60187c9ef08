// SPDX-License-Identifier: Apache-2.0
// app/explain.hpp: `--explain`: every stage's arrays of one small chunk, printed for a learner.
#pragma once

#include "rowscan/lineitem/explained.hpp"
#include "rowscan/stations/explained.hpp"
#include "rowscan/stations/format.hpp"

#include <ostream>

namespace rowscan::app {

/// The stations pipeline stage by stage, then the answer in `format`, as `rowscan stations` prints it.
void write_explained(std::ostream& out, stations::explained_stations const& e, stations::output_format format);

/// The lineitem load and query stage by stage, then the answer, as `rowscan lineitem` prints it.
void write_explained(std::ostream& out, lineitem::explained_lineitem const& e);

}  // namespace rowscan::app
