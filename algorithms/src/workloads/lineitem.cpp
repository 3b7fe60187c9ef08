// SPDX-License-Identifier: Apache-2.0
// The `lineitem` entry's members compiled once (rowscan/lineitem/workload.hpp).
#include "rowscan/lineitem/workload.hpp"

#include "rowscan/inputs/partial_wire.hpp"
#include "rowscan/lineitem/merge_summaries.hpp"
#include "entry.hpp"

namespace rowscan {
using lineitem::workload;

template <>
auto workload::empty(options const& o) -> partial {
  return lineitem::empty_summary(o.suppkey_below);
}

template <>
void workload::encode(wire_writer& out, partial const& s) {
  inputs::encode_report(out, s);
  out.number(s.rows);
  out.raw(s.load_seconds);
  out.raw(s.query_seconds);
  out.number(s.queried_rows);
  out.list(s.answers, [](wire_writer& w, lineitem::threshold_answer const& a) {
    w.number(a.suppkey_below);
    w.raw(a.sum_cents);
    w.number(a.rows);
  });
}

template <>
void workload::decode(wire_reader& in, partial& s) {
  inputs::decode_report(in, s);
  s.rows = in.number();
  s.load_seconds = in.raw<double>();
  s.query_seconds = in.raw<double>();
  s.queried_rows = in.number();
  in.list(s.answers, [](wire_reader& r, lineitem::threshold_answer& a) {
    a.suppkey_below = r.number();
    a.sum_cents = r.raw<lineitem::uint128>();
    a.rows = r.number();
  });
}

// The members every entry shares (entry.hpp): run and explain on the engine chosen, merge.
template struct workload_entry<lineitem::summary, lineitem::summarize_options, lineitem::explained_lineitem>;

}  // namespace rowscan
