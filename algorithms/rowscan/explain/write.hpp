// SPDX-License-Identifier: Apache-2.0
// rowscan/explain/write.hpp: `--explain`: every stage's arrays of one small chunk, printed for a learner.
#pragma once

#include "rowscan/group/explained.hpp"
#include "rowscan/group/format.hpp"
#include "rowscan/lineitem/explained.hpp"
#include "rowscan/stations/explained.hpp"
#include "rowscan/stations/format.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace rowscan::explain {

/// The stations pipeline stage by stage, then the answer in `format`, as `rowscan stations` prints it.
void write_explained(std::ostream& out, stations::explained_stations const& e, stations::output_format format);

/// The lineitem load and query stage by stage, then the answer, as `rowscan lineitem` prints it.
void write_explained(std::ostream& out, lineitem::explained_lineitem const& e);

/// The record finder's scan at every byte of `text`, the records and their fields, then the answer in
/// `format` (its values named `value_names`), as `rowscan group` prints it.
void write_explained(std::ostream& out, std::string const& text, group::explained_group const& e,
                     group::summarize_options const& options, std::vector<std::string> const& value_names,
                     group::output_format format);

}  // namespace rowscan::explain
