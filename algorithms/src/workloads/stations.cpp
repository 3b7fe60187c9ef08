// SPDX-License-Identifier: Apache-2.0
// The `stations` entry's members compiled once (rowscan/stations/workload.hpp).
#include "rowscan/stations/workload.hpp"

#include "rowscan/inputs/partial_wire.hpp"
#include "rowscan/stations/merge_summaries.hpp"
#include "entry.hpp"

namespace rowscan {
using stations::workload;

template <>
void workload::encode(wire_writer& out, partial const& s) {
  inputs::encode_report(out, s);
  out.number(s.names_compared ? 1 : 0);
  out.number(s.fast_chunks);
  out.number(s.general_chunks);
  out.number(s.over_limit_chunks);
  std::size_t size = 0;
  for (stations::station_summary const& station : s.stations) size += station.name.size() + 32;
  out.reserve(size + 8);
  out.list(s.stations, [](wire_writer& w, stations::station_summary const& station) {
    w.text(station.name);
    w.raw(station.min);
    w.raw(station.max);
    w.raw(station.sum);
    w.raw(station.count);
  });
}

template <>
void workload::decode(wire_reader& in, partial& s) {
  inputs::decode_report(in, s);
  s.names_compared = in.number() != 0;
  s.fast_chunks = in.number();
  s.general_chunks = in.number();
  s.over_limit_chunks = in.number();
  in.list(s.stations, [](wire_reader& r, stations::station_summary& station) {
    station.name = r.text();
    station.min = r.raw<std::int32_t>();
    station.max = r.raw<std::int32_t>();
    station.sum = r.raw<std::int64_t>();
    station.count = r.raw<std::int64_t>();
  });
}

// The members every entry shares (entry.hpp): run and explain on the engine chosen, merge and empty.
template struct workload_entry<stations::summary, stations::summarize_options, stations::explained_stations>;

}  // namespace rowscan
