// SPDX-License-Identifier: Apache-2.0
// `rowscan stations --explain` (rowscan/stations/explain.hpp): the general path's library calls, with
// each device array copied to the host after the call that writes it.
#include "rowscan/stations/explain.hpp"

#include "rowscan/context.hpp"
#include "rowscan/explain/lines.hpp"
#include "rowscan/stations/group.hpp"
#include "rowscan/stations/parse.hpp"
#include "rowscan/stations/table.hpp"

#include <thrust/device_vector.h>
#include <thrust/iterator/transform_iterator.h>

#include <utility>

namespace rowscan::stations {

using explain::to_host;

explained_stations explain(std::string const& text, std::string const& label) {
  context ctx;
  explained_stations out;
  out.text = text;
  thrust::device_vector<char> device_text(text.begin(), text.end());
  char const* const chars = thrust::raw_pointer_cast(device_text.data());

  parsed_records parsed;  // find_lines -> transform(parse_record) -> find_if(is_bad_line)
  std::size_t const bad = parse_records(chars, text.size(), ~std::uint64_t{0}, parsed, ctx);
  if (bad < parsed.records.size()) throw bad_line_error(label, chars, parsed.records[bad], chunk_position{0, 0}, bad + 1);
  out.lines = explain::explain_lines(chars, text.size(), parsed.records, ctx);
  out.keys = to_host(parsed.keys);
  out.tenths = to_host(parsed.tenths);
  out.name_sizes = to_host(parsed.name_sizes);

  record_names names{chars, thrust::raw_pointer_cast(parsed.records.data()),
                     thrust::raw_pointer_cast(parsed.name_sizes.data())};
  auto readings = thrust::make_transform_iterator(parsed.tenths.begin(), reading_stats{});
  groups g = group_by_name(parsed.keys, names, readings, ctx);  // sorts parsed.keys in place
  out.sorted_keys = to_host(parsed.keys);
  out.names_compared = g.names_compared;
  out.group_keys = to_host(g.keys);
  out.group_rows = to_host(g.representative);
  out.group_stats = to_host(g.stats);

  station_table running;
  merge_into(running, table_from_groups(std::move(g), names, ctx), ctx);
  out.running_keys = to_host(running.keys);
  out.running = to_host_summaries(running);

  out.answer = to_host_summaries(sorted_by_name(running, ctx));
  return out;
}

}  // namespace rowscan::stations
