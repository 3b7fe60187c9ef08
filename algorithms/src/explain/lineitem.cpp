// SPDX-License-Identifier: Apache-2.0
// `rowscan lineitem --explain`: the load's and the query's arrays, stage by stage (rowscan/explain/write.hpp).
#include "rowscan/explain/write.hpp"
#include "rowscan/explain/print.hpp"

#include "rowscan/lineitem/cents.hpp"
#include "rowscan/lineitem/format.hpp"

#include <iomanip>

namespace rowscan::explain {

void write_explained(std::ostream& out, lineitem::explained_lineitem const& e) {
  write_line_stages(out, "rowscan lineitem", "rows", "the pipeline's own call", e.text, e.lines);

  write_stage(out, 4, "find_fields: count_if + copy_if(is_pipe) over positions, then lower_bound");
  out << "  pipes, every '|' of the chunk:";
  for (std::size_t i = 0; i < e.pipes.size(); ++i) out << (i % 16 == 0 ? "\n   " : "") << std::setw(5) << e.pipes[i];
  out << "\n  lower_bound(record starts, then the text's end) into the pipes: record r's first '|' is pipes[first[r]],\n"
         "  and first[r + 1] - first[r] is its '|' count (16 in a valid row)\n"
         "  record  first  '|' count\n";
  for (std::size_t r = 0; r + 1 < e.first_pipe.size(); ++r) {
    out << "  " << std::setw(6) << r << std::setw(7) << e.first_pipe[r] << std::setw(11)
        << e.first_pipe[r + 1] - e.first_pipe[r] << '\n';
  }

  write_stage(out, 5, "parse: transform(parse_row_at) into the column store");
  out << "  find_if(is_bad_row) finds no bad row\n";
  out << "  row  l_suppkey  l_quantity  l_extendedprice in cents\n";
  for (std::size_t r = 0; r < e.suppkey.size(); ++r) {
    out << "  " << std::setw(3) << r << std::setw(11) << e.suppkey[r] << std::setw(12) << e.quantity[r]
        << std::setw(26) << e.price_cents[r] << '\n';
  }

  write_stage(out, 6, "the query's transform: below_thresholds, one Z at a time");
  out << "  the filter and the product of each row (the query fuses this into its reduction; here it is stored)\n";
  for (lineitem::explained_filter const& f : e.filters) {
    out << "  Z = " << f.suppkey_below << "\n  row  l_suppkey < Z  quantity * cents if kept\n";
    for (std::size_t r = 0; r < f.kept.size(); ++r) {
      out << "  " << std::setw(3) << r << std::setw(15) << static_cast<int>(f.kept[r]) << std::setw(26)
          << f.products[r] << '\n';
    }
  }

  write_stage(out, 7, "sums_below: the query, in 128-bit cents");
  out << "  transform_reduce(zip(suppkey, quantity, cents), below_thresholds, threshold_sums_plus)\n";
  for (lineitem::threshold_answer const& a : e.answer.answers) {
    out << "  Z = " << a.suppkey_below << ": " << a.rows << " row(s) kept, sum " << lineitem::format_cents(a.sum_cents)
        << '\n';
  }
  out << "  the answer, as `rowscan lineitem` prints it:\n" << lineitem::format_text(e.answer);
}

}  // namespace rowscan::explain
