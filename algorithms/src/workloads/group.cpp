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
  out.number(s.scales.size());
  for (unsigned scale : s.scales) out.number(scale);
  out.number(s.rows.size());
  for (group::group_row const& row : s.rows) {
    out.text(row.key);
    out.number(row.values.size());
    for (group::value_stats const& v : row.values) {
      out.number(v.count);
      out.number(v.missing);
      out.raw(v.sum);
      out.raw(v.min);
      out.raw(v.max);
    }
  }
}

template <>
void workload::decode(wire_reader& in, partial& s) {
  inputs::decode_report(in, s);
  s.records = in.number();
  s.keys_compared = in.number() != 0;
  s.scales.resize(in.number());
  for (unsigned& scale : s.scales) scale = static_cast<unsigned>(in.number());
  s.rows.resize(in.number());
  for (group::group_row& row : s.rows) {
    row.key = in.text();
    row.values.resize(in.number());
    for (group::value_stats& v : row.values) {
      v.count = in.number();
      v.missing = in.number();
      v.sum = in.raw<__int128>();
      v.min = in.raw<__int128>();
      v.max = in.raw<__int128>();
    }
  }
}

// The members every entry shares (entry.hpp): run and explain on the engine chosen, merge and empty.
template struct workload_entry<group::summary, group::summarize_options, group::explained_group>;

}  // namespace rowscan
