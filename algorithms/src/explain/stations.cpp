// SPDX-License-Identifier: Apache-2.0
// `rowscan stations --explain`: the general path's arrays, stage by stage (rowscan/explain/write.hpp).
#include "rowscan/explain/write.hpp"
#include "rowscan/explain/print.hpp"

#include <cstdio>
#include <iomanip>

namespace rowscan::explain {
namespace {

std::string hex(std::uint64_t key) {
  char text[20];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(key));
  return text;
}

/// "min max sum count" of a summary, in tenths, as columns.
void write_stats(std::ostream& out, std::int64_t min, std::int64_t max, std::int64_t sum, std::int64_t count) {
  out << std::setw(6) << min << std::setw(6) << max << std::setw(7) << sum << std::setw(7) << count;
}

/// Between steps 7 and 8: how a later block goes once every station is known (the fast path), shown
/// on the same text by a second worker that starts from step 7's table.
void write_fast_path(std::ostream& out, stations::explained_stations const& e) {
  out << "\n7+. a later block whose stations are all known takes the fast path instead; shown here on the\n"
         "  same text, folded again by a worker that starts from step 7's table (it does not enter the answer)\n";
  if (!e.fast_path) {
    out << "  (the second block did not take the fast path)\n";
    return;
  }
  out << "  the running table is the dictionary: station id = the row of the name in it (step 7's order)\n";
  out << "  for_each_line(store_line_end): one scan over 16-byte words stores where each line ends;\n"
         "  transform(parse_line_at): a line a thread, parsed from its end, its name looked up by key\n"
         "  (its bucket's first station, else a search of the bucket) and compared word by word\n";
  out << "  line  id  tenths          sorted by id (16-bit keys):  id  tenths\n";
  for (std::size_t i = 0; i < e.ids.size(); ++i) {
    out << "  " << std::setw(4) << i << std::setw(4) << e.ids[i] << std::setw(8) << e.id_tenths[i]
        << "                               " << std::setw(4) << e.sorted_ids[i] << std::setw(8) << e.sorted_tenths[i]
        << '\n';
  }
  out << "  per station: reduce_by_key (under CUDA: lower_bound segment starts + a segmented reduction)\n";
  out << "   id   min   max    sum  count\n";
  for (std::size_t g = 0; g < e.reduced.size(); ++g) {
    auto const& s = e.reduced[g];
    out << "  " << std::setw(3) << e.reduced_ids[g];
    write_stats(out, s.min, s.max, s.sum, s.count);
    out << '\n';
  }
  out << "  transform(merge_stats) into the running table's stats: every count doubles\n";
  out << "   id   min   max    sum  count  name\n";
  for (std::size_t i = 0; i < e.after_fast.size(); ++i) {
    auto const& s = e.after_fast[i];
    out << "  " << std::setw(3) << i;
    write_stats(out, s.min, s.max, s.sum, s.count);
    out << "  " << visible(s.name.data(), s.name.size()) << '\n';
  }
}

}  // namespace

void write_explained(std::ostream& out, stations::explained_stations const& e, stations::output_format format) {
  write_line_stages(out, "rowscan stations", "lines", "the pipeline's own call for a first chunk (the general path)",
                    e.text, e.lines);

  write_stage(out, 4, "parse: transform(parse_record) -> key, tenths, name size");
  out << "  key: a 64-bit hash of the name; find_if(is_bad_line) finds no bad line\n";
  out << "  row  key               tenths  name\n";
  for (std::size_t r = 0; r < e.keys.size(); ++r) {
    out << "  " << std::setw(3) << r << "  " << hex(e.keys[r]) << "  " << std::setw(6) << e.tenths[r] << "  "
        << visible(e.text.data() + e.lines.records[r].begin, e.name_sizes[r]) << '\n';
  }

  write_stage(out, 5, "group_by_name: sort_by_key(key, row) brings equal names together");
  out << "  sorted keys:\n";
  for (std::uint64_t const key : e.sorted_keys) out << "    " << hex(key) << '\n';
  out << "  transform_reduce(key_shared_by_two_names) over adjacent sorted rows: "
      << (e.names_compared ? "a key is shared by two\n  names, so the rows are sorted and grouped by name too\n"
                           : "no key is shared by two\n  names\n");

  write_stage(out, 6, "reduce_by_key(same_station, merge_stats): one group per station");
  out << "  each group's first (key, row), and {min, max, sum, count} of its readings in tenths\n";
  out << "  group  key               row   min   max    sum  count\n";
  for (std::size_t g = 0; g < e.group_keys.size(); ++g) {
    auto const& s = e.group_stats[g];
    out << "  " << std::setw(5) << g << "  " << hex(e.group_keys[g]) << std::setw(5) << e.group_rows[g];
    write_stats(out, s.min, s.max, s.sum, s.count);
    out << '\n';
  }

  write_stage(out, 7, "table_from_groups -> merge_into(running table)");
  out << "  gather_strings copies each group's name from its row; the running table is empty before the\n"
         "  first chunk, so merge_into makes this table the running table (later chunks: merge_tables)\n";
  out << "  key                 min   max    sum  count  name\n";
  for (std::size_t i = 0; i < e.running.size(); ++i) {
    auto const& s = e.running[i];
    out << "  " << hex(e.running_keys[i]);
    write_stats(out, s.min, s.max, s.sum, s.count);
    out << "  " << visible(s.name.data(), s.name.size()) << '\n';
  }

  write_fast_path(out, e);

  write_stage(out, 8, "sorted_by_name -> host -> format");
  out << "  mean = floor((2 sum + count) / (2 count)) tenths; the answer, as `rowscan stations` prints it:\n";
  stations::write(out, e.answer, format);
}

}  // namespace rowscan::explain
