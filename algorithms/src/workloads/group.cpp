// SPDX-License-Identifier: Apache-2.0
// The `group` entry's members compiled once (rowscan/group/workload.hpp).
#include "rowscan/group/workload.hpp"

#include "rowscan/inputs/partial_wire.hpp"

#include "entry.hpp"

namespace rowscan {
using group::workload;

template <>
void workload::encode(wire_writer& out, partial const& s) {
  inputs::encode_report(out, s);
  out.number(s.records);
  out.number(s.keys_compared ? 1 : 0);
  out.list(s.scales, [](wire_writer& w, unsigned scale) { w.number(scale); });
  out.list(s.rows, [](wire_writer& w, group::group_row const& row) {
    w.text(row.key);
    w.list(row.values, [](wire_writer& w2, group::value_stats const& v) {
      w2.number(v.count);
      w2.number(v.missing);
      w2.raw(v.sum);
      w2.raw(v.min);
      w2.raw(v.max);
    });
  });
}

template <>
void workload::decode(wire_reader& in, partial& s) {
  inputs::decode_report(in, s);
  s.records = in.number();
  s.keys_compared = in.number() != 0;
  in.list(s.scales, [](wire_reader& r, unsigned& scale) { scale = static_cast<unsigned>(r.number()); });
  in.list(s.rows, [](wire_reader& r, group::group_row& row) {
    row.key = r.text();
    r.list(row.values, [](wire_reader& r2, group::value_stats& v) {
      v.count = r2.number();
      v.missing = r2.number();
      v.sum = r2.raw<__int128>();
      v.min = r2.raw<__int128>();
      v.max = r2.raw<__int128>();
    });
  });
}

// The members every entry shares (entry.hpp): run and explain on the engine chosen, merge and empty.
template struct workload_entry<group::summary, group::summarize_options, group::explained_group>;

}  // namespace rowscan
