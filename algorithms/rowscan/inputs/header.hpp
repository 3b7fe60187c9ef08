// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/header.hpp: a header record (input_source::header), whose fields name the columns.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rowscan::inputs {

/// The fields of a header record (its '\n' and a CR before it dropped), unquoted.
std::vector<std::string> header_fields(std::string record, char delimiter, char quote);

/// The header record of the first of `operands`, as its fields, read as the run will read past it. Standard
/// input is read once, by the run: its header names nothing (an empty list), and asking for names
/// (`names`) is then a usage_error.
std::vector<std::string> first_header(std::vector<std::string> const& operands, char delimiter, char quote, bool names);

/// The bytes of text's first record, up to and with its '\n' outside quotes (all of text if it has none).
std::size_t header_bytes(std::string const& text, char quote);

}  // namespace rowscan::inputs
