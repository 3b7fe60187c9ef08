// SPDX-License-Identifier: Apache-2.0
// A header record's fields (rowscan/inputs/header.hpp).
#include "rowscan/inputs/header.hpp"

#include "rowscan/error.hpp"
#include "rowscan/inputs/sources.hpp"
#include "rowscan/io/input_file.hpp"

#include <unistd.h>

namespace rowscan::inputs {

std::vector<std::string> header_fields(std::string record, char delimiter, char quote) {
  if (!record.empty() && record.back() == '\n') record.pop_back();
  if (!record.empty() && record.back() == '\r') record.pop_back();
  std::vector<std::string> fields(1);
  bool inside = false;
  for (std::size_t i = 0; i < record.size(); ++i) {
    char const c = record[i];
    if (quote != 0 && c == quote) {
      if (inside && i + 1 < record.size() && record[i + 1] == quote) {
        fields.back() += c;
        ++i;
      } else {
        inside = !inside;
      }
    } else if (c == delimiter && !inside) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

std::vector<std::string> first_header(std::vector<std::string> const& operands, char delimiter, char quote,
                                      bool names) {
  input_settings settings;
  settings.header = true;
  auto const sources = resolve_inputs(operands, settings).sources;
  if (sources.front().path == "-") {
    if (!names) return {};
    throw usage_error("column names need the header of a FILE, not of standard input; give positions (from 1)");
  }
  io::input_file input(sources.front().path, io::text_options{false});
  std::string record;
  bool inside = false;
  char c = 0;
  while (::read(input.fd(), &c, 1) == 1) {
    record += c;
    if (quote != 0 && c == quote)
      inside = !inside;
    else if (c == '\n' && !inside)
      break;
  }
  return header_fields(record, delimiter, quote);
}

std::size_t header_bytes(std::string const& text, char quote) {
  bool inside = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (quote != 0 && text[i] == quote)
      inside = !inside;
    else if (text[i] == '\n' && !inside)
      return i + 1;
  }
  return text.size();
}

}  // namespace rowscan::inputs
