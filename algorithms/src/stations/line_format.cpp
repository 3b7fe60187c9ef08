// SPDX-License-Identifier: Apache-2.0
#include "rowscan/stations/line_format.hpp"

namespace rowscan::stations {

char const* describe(line_status status) {
  switch (status) {
    case line_status::ok: return "valid line";
    case line_status::missing_separator: return "missing ';' between station name and temperature";
    case line_status::name_too_long: return "no ';' within the first 101 bytes: station name longer than 100 bytes";
    case line_status::empty_name: return "empty station name";
    case line_status::bad_temperature:
      return "temperature must be -99.9 to 99.9 with exactly one fractional digit (-?[0-9]{1,2}.[0-9])";
    case line_status::carriage_return:
      return "line ends with CR LF (a Windows line ending); read it with --crlf, or convert the file to LF line endings";
  }
  return "invalid line";
}

}  // namespace rowscan::stations
