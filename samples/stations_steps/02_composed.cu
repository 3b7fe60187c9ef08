// SPDX-License-Identifier: Apache-2.0
// samples/stations_steps/02_composed.cu: step 2: the pipeline as separate Thrust steps. Every step
// writes its result to its own device_vector, named after what it holds:
//
//   chunk_by(same_line) -> transform(parse) -> find_if(bad line) -> transform(key), sequence(row)
//   -> sort_by_key(key, row) -> gather(parsed, by row) -> transform(reading_stats) -> check the keys
//   -> reduce_by_key((key, row), merge_stats) -> transform(where the group's name begins) -> host
//
// No station list: sorting by a hash of the name brings each station's lines together, and
// reduce_by_key folds each run. The stations are found in the data.
//
// usage: 02_composed FILE [--repeat R] [--csv] [--expect ANSWER_FILE] [--output FILE]
#include "steps_device.hpp"

#include "../common/sample.hpp"

#include "rowscan/chunk_by.hpp"
#include "rowscan/records.hpp"

#include <thrust/device_vector.h>
#include <thrust/find.h>
#include <thrust/gather.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using rowscan::record_range;
using rowscan::stations::merge_stats;
using rowscan::stations::station_stats;
using samples::steps::parsed_line;
using samples::steps::station_summary;

/// A line (with its '\n') parsed into its name's key and its tenths.
struct parse_line_at {
  char const* text;
  ROWSCAN_HD parsed_line operator()(record_range r) const {
    return samples::steps::parse_line(text + r.begin, r.size() - 1);
  }
};
struct is_bad {
  ROWSCAN_HD bool operator()(parsed_line const& p) const { return !p.ok; }
};
struct key_of {
  ROWSCAN_HD std::uint64_t operator()(parsed_line const& p) const { return p.key; }
};
struct reading_of {
  ROWSCAN_HD station_stats operator()(parsed_line const& p) const {
    return rowscan::stations::reading_stats{}(p.tenths);
  }
};
struct line_begin {
  record_range const* lines;
  ROWSCAN_HD std::uint32_t operator()(std::uint32_t row) const { return lines[row].begin; }
};

std::vector<station_summary> summarize(thrust::device_vector<char> const& text, std::string const& host_text,
                                       rowscan::context const& ctx) {
  auto const policy = ctx.policy();
  char const* const t = text.data().get();
  // [docs:composed]
  // 1. Lines: the [begin, end) of every line, by chunk_by (a count, then the interval scan).
  char const* const end = t + text.size();
  std::size_t const m = rowscan::count_chunks<std::uint32_t>(t, end, rowscan::same_line{}, ctx);
  thrust::device_vector<record_range> lines(m);
  rowscan::chunk_by_counted(t, end, rowscan::same_line{}, lines.data().get(), m, ctx);

  // 2. Parse each line; stop at the first bad one.
  thrust::device_vector<parsed_line> parsed(m);
  thrust::transform(policy, lines.begin(), lines.end(), parsed.begin(), parse_line_at{t});
  auto const bad = thrust::find_if(policy, parsed.begin(), parsed.end(), is_bad{});
  if (bad != parsed.end()) throw rowscan::error("line " + std::to_string(bad - parsed.begin() + 1) + " is bad");

  // 3. Sort the row numbers by the names' keys: each station's lines become neighbours.
  thrust::device_vector<std::uint64_t> keys(m);
  thrust::transform(policy, parsed.begin(), parsed.end(), keys.begin(), key_of{});
  thrust::device_vector<std::uint32_t> rows(m);
  thrust::sequence(policy, rows.begin(), rows.end());
  thrust::sort_by_key(policy, keys.begin(), keys.end(), rows.begin());

  // 4. The parsed lines in sorted order, then each as a one-reading summary {t, t, t, 1}.
  thrust::device_vector<parsed_line> sorted(m);
  thrust::gather(policy, rows.begin(), rows.end(), parsed.begin(), sorted.begin());
  thrust::device_vector<station_stats> readings(m);
  thrust::transform(policy, sorted.begin(), sorted.end(), readings.begin(), reading_of{});

  // 5. Equal keys must mean equal names.
  samples::steps::expect_one_name_per_key(t, keys, rows, line_begin{lines.data().get()}, ctx);

  // 6. One summary per run of equal keys; the group's first (key, row) comes along.
  thrust::device_vector<std::uint64_t> group_keys(m);
  thrust::device_vector<std::uint32_t> group_rows(m);
  thrust::device_vector<station_stats> group_stats(m);
  auto const ends = thrust::reduce_by_key(
      policy, thrust::make_zip_iterator(keys.begin(), rows.begin()), thrust::make_zip_iterator(keys.end(), rows.end()),
      readings.begin(), thrust::make_zip_iterator(group_keys.begin(), group_rows.begin()), group_stats.begin(),
      samples::steps::same_key{}, merge_stats{});
  auto const groups = static_cast<std::size_t>(ends.second - group_stats.begin());

  // 7. Where each group's name is: at the begin of its first row's line.
  thrust::device_vector<std::uint32_t> name_begins(groups);
  thrust::transform(policy, group_rows.begin(), group_rows.begin() + static_cast<long>(groups), name_begins.begin(),
                    line_begin{lines.data().get()});
  // [docs:end]
  return samples::steps::to_host(host_text, name_begins, group_stats, groups);
}

}  // namespace

int main(int argc, char** argv) {
  rowscan::context ctx;
  thrust::device_vector<char> text;
  std::string const* host_text = nullptr;
  return samples::steps::run_step(
      argc, argv, "02_composed", [] { return samples::device_name(); },
      [&](std::string const& t, samples::options const&) {
        host_text = &t;
        text.assign(t.begin(), t.end());
      },
      [&] { return summarize(text, *host_text, ctx); }, [](auto&& f) { return samples::device_ms(f); });
}
