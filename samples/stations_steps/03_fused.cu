// SPDX-License-Identifier: Apache-2.0
// samples/stations_steps/03_fused.cu: step 3: the same answer in fewer passes. What changed from step 2:
//
//   - lines: count + copy_if of the '\n' positions replace the count + interval scan of chunk_by; line
//     k is the text between two adjacent newlines, so no [begin, end) array is written
//   - parse: one transform writes the sort's inputs directly (key, tenths, row, ok) through a zip
//   - sort: the tenths ride along with the rows, so no gather of the parsed lines is needed afterwards
//   - reduce: the one-reading summaries are made on the fly by a transform_iterator, never stored
//
//   count('\n'), copy_if('\n') -> transform(parse line k) -> find_if(bad) -> sort_by_key(key, (tenths, row))
//   -> check the keys -> reduce_by_key((key, row), transform_iterator(reading_stats)) -> name begins -> host
//
// usage: 03_fused FILE [--repeat R] [--csv] [--expect ANSWER_FILE] [--output FILE] [--print]
//   --print shows every intermediate array (for a tiny FILE such as samples/stations_steps/tiny.txt)
#include "steps_device.hpp"

#include "../common/sample.hpp"

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/find.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using rowscan::stations::merge_stats;
using rowscan::stations::reading_stats;
using rowscan::stations::station_stats;
using samples::steps::station_summary;

struct is_newline {
  ROWSCAN_HD bool operator()(char c) const { return c == '\n'; }
};

/// Line k lies between two adjacent newlines: it begins just after newline k - 1 (or at 0) and ends
/// at newline k.
struct line_begin {
  std::uint32_t const* newlines;
  ROWSCAN_HD std::uint32_t operator()(std::uint32_t k) const { return k == 0 ? 0 : newlines[k - 1] + 1; }
};

/// Parses line k into the sort's inputs: (name key, tenths, row k, ok).
struct parse_line_k {
  char const* text;
  std::uint32_t const* newlines;
  ROWSCAN_HD thrust::tuple<std::uint64_t, std::int16_t, std::uint32_t, std::uint8_t> operator()(std::uint32_t k) const {
    std::uint32_t const begin = line_begin{newlines}(k);
    auto const p = samples::steps::parse_line(text + begin, newlines[k] - begin);
    return {p.key, p.tenths, k, static_cast<std::uint8_t>(p.ok)};
  }
};
struct is_bad {
  ROWSCAN_HD bool operator()(std::uint8_t ok) const { return ok == 0; }
};

std::vector<station_summary> summarize(thrust::device_vector<char> const& text, std::string const& host_text,
                                       samples::steps::tracer const& show, rowscan::context const& ctx) {
  auto const policy = ctx.policy();
  char const* const t = text.data().get();
  // [docs:fused]
  // 1. The positions of the newlines: count them, then copy_if keeps them.
  auto const m = static_cast<std::size_t>(thrust::count(policy, t, t + text.size(), '\n'));
  thrust::device_vector<std::uint32_t> newlines(m);
  auto const positions = thrust::counting_iterator<std::uint32_t>(0);
  thrust::copy_if(policy, positions, positions + text.size(), t, newlines.begin(), is_newline{});
  std::uint32_t const* const newline = newlines.data().get();
  show("1. copy_if: the positions of the newlines");  // [docs:hide]
  show("newlines", newlines, m);                      // [docs:hide]

  // 2. Parse line k straight into the sort's keys and values.
  thrust::device_vector<std::uint64_t> keys(m);
  thrust::device_vector<std::int16_t> tenths(m);
  thrust::device_vector<std::uint32_t> rows(m);
  thrust::device_vector<std::uint8_t> ok(m);
  thrust::transform(policy, positions, positions + m,
                    thrust::make_zip_iterator(keys.begin(), tenths.begin(), rows.begin(), ok.begin()),
                    parse_line_k{t, newline});
  auto const bad = thrust::find_if(policy, ok.begin(), ok.end(), is_bad{});
  if (bad != ok.end()) throw rowscan::error("line " + std::to_string(bad - ok.begin() + 1) + " is bad");
  show("2. transform: each line parsed");  // [docs:hide]
  show("keys", keys, m);                   // [docs:hide]
  show("tenths", tenths, m);               // [docs:hide]
  show("rows", rows, m);                   // [docs:hide]
  show("ok", ok, m);                       // [docs:hide]

  // 3. Sort by key; each line's tenths and row travel with it.
  thrust::sort_by_key(policy, keys.begin(), keys.end(), thrust::make_zip_iterator(tenths.begin(), rows.begin()));
  show("3. sort_by_key: equal keys together");  // [docs:hide]
  show("keys", keys, m);                        // [docs:hide]
  show("tenths", tenths, m);                    // [docs:hide]
  show("rows", rows, m);                        // [docs:hide]

  // 4. Equal keys must mean equal names.
  samples::steps::expect_one_name_per_key(t, keys, rows, line_begin{newline}, ctx);

  // 5. One summary per run of equal keys, folding summaries made from the tenths as they are read.
  thrust::device_vector<std::uint64_t> group_keys(m);
  thrust::device_vector<std::uint32_t> group_rows(m);
  thrust::device_vector<station_stats> group_stats(m);
  auto const ends = thrust::reduce_by_key(
      policy, thrust::make_zip_iterator(keys.begin(), rows.begin()), thrust::make_zip_iterator(keys.end(), rows.end()),
      thrust::make_transform_iterator(tenths.begin(), reading_stats{}),
      thrust::make_zip_iterator(group_keys.begin(), group_rows.begin()), group_stats.begin(),
      samples::steps::same_key{}, merge_stats{});
  auto const groups = static_cast<std::size_t>(ends.second - group_stats.begin());
  show("5. reduce_by_key: one group per key, its first (key, row), {min, max, sum, count}");  // [docs:hide]
  show("group keys", group_keys, groups);                                                    // [docs:hide]
  show("group rows", group_rows, groups);                                                    // [docs:hide]
  show("group stats", group_stats, groups);                                                  // [docs:hide]

  // 6. Where each group's name begins: at its first row's line.
  thrust::device_vector<std::uint32_t> name_begins(groups);
  thrust::transform(policy, group_rows.begin(), group_rows.begin() + static_cast<long>(groups), name_begins.begin(),
                    line_begin{newline});
  show("6. transform: where each group's name begins in the text");  // [docs:hide]
  show("name begins", name_begins, groups);                          // [docs:hide]
  // [docs:end]
  return samples::steps::to_host(host_text, name_begins, group_stats, groups);
}

}  // namespace

int main(int argc, char** argv) {
  rowscan::context ctx;
  thrust::device_vector<char> text;
  std::string const* host_text = nullptr;
  samples::steps::tracer show;
  return samples::steps::run_step(
      argc, argv, "03_fused", [] { return samples::device_name(); },
      [&](std::string const& t, samples::options const& opt) {
        host_text = &t;
        text.assign(t.begin(), t.end());
        show.on = opt.print;
      },
      [&] { return summarize(text, *host_text, show, ctx); }, [](auto&& f) { return samples::device_ms(f); });
}
