// SPDX-License-Identifier: Apache-2.0
// The words of lineitem's row errors (rowscan/lineitem/row_format.hpp).
#include "rowscan/lineitem/row_format.hpp"

namespace rowscan::lineitem {

char const* describe(row_status status) {
  switch (status) {
    case row_status::ok: return "valid row";
    case row_status::missing_fields: return "expected 16 fields, each followed by '|' (the last one too)";
    case row_status::extra_fields: return "bytes after the 16th '|': a row has 16 fields, each followed by '|'";
    case row_status::carriage_return:
      return "line ends with CR LF (a Windows line ending); read it with --crlf, or convert the file to LF line endings";
    case row_status::bad_suppkey: return "l_suppkey must be a whole number from 0 to 4294967295";
    case row_status::bad_quantity: return "l_quantity must be a whole number from 0 to 4294967295, like 17 or 17.00";
    case row_status::bad_price:
      return "l_extendedprice must be a decimal with exactly two fractional digits, like 21168.23, "
             "from 0.00 to 42949672.95";
  }
  return "invalid row";
}

}  // namespace rowscan::lineitem
