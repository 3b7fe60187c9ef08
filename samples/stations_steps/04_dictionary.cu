// SPDX-License-Identifier: Apache-2.0
// samples/stations_steps/04_dictionary.cu: step 4: the fast path. The seed blog's program was given the
// sorted list of every station and found a line's station by binary search in it; its closing question
// was whether the list could be done without. Here the GPU finds the list in the data first, then uses
// it the blog's way. What changed from step 3:
//
//   - lines: for_each_line, the word-level chunk_by (one 8-byte interval per 16-byte word of text, see
//     docs/chunk_by.md); its sink parses each line where the scan finds it, so no line array is stored
//   - a dictionary: the distinct names of the first --learn bytes, sorted by key (learned again from
//     the whole text if a later line names a station it lacks)
//   - dense ids: a line's station is its position in the dictionary (a lower_bound, then the name's
//     bytes compared), 2 bytes instead of an 8-byte key and a 4-byte row
//   - sort: 16-bit keys, 2-byte values (under CUDA a radix sort of 16 bits instead of 64)
//   - reduce: the stations are the segments [starts[i], starts[i + 1]) of the sorted ids (a vectorized
//     lower_bound); under CUDA one segmented reduction, elsewhere reduce_by_key
//
//   learn:   for_each_line(first --learn bytes, parse) -> find_if(bad) -> stable_sort_by_key(key, name begin)
//            -> check the keys -> unique_by_key -> dictionary: keys ascending, where each name begins
//   look up: count_lines, for_each_line(whole text, parse + find in the dictionary) -> ids[m], tenths[m]
//   group:   sort_by_key(ids, tenths) -> lower_bound(ids, 0 .. D) -> starts[D + 1]
//            (an unknown line has id 0xFFFF and sorts last: starts[D] < m -> learn from all lines, look up again)
//   reduce:  segmented reduce(transform_iterator(tenths, reading_stats), starts) -> host
//
// usage: 04_dictionary FILE [--learn BYTES] [--repeat R] [--csv] [--expect ANSWER_FILE] [--output FILE] [--print]
//   --learn BYTES  learn the dictionary from the lines in the first BYTES bytes (default 1 MiB)
//   --print        shows every intermediate array (for a tiny FILE such as samples/stations_steps/tiny.txt)
#include "steps_device.hpp"

#include "../common/sample.hpp"

#include "rowscan/lines.hpp"
#include "rowscan/read_back.hpp"

#include <thrust/binary_search.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/find.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/unique.h>

#if ROWSCAN_HAS_CUB
#  include <cub/device/device_segmented_reduce.cuh>
#endif

#include <cstdint>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace {

using rowscan::stations::merge_stats;
using rowscan::stations::reading_stats;
using rowscan::stations::station_stats;
using samples::steps::parsed_line;
using samples::steps::station_summary;

/// A station's position in the dictionary, or unknown_station.
using station_id = std::uint16_t;
/// The line's name is not in the dictionary (or the line is bad). Sorts after every station.
constexpr station_id unknown_station = 0xFFFF;

/// The stations found so far: distinct name keys in ascending order, and where in the text each name
/// occurs (a name runs from there up to its ';'). A station's id is its position here.
struct dictionary_view {
  std::uint64_t const* keys;
  std::uint32_t const* name_begins;
  std::uint32_t size;

  /// The seed blog's binary search, over keys the GPU found: lower_bound for the line's key, then the
  /// name's bytes compared with the dictionary's copy, so an equal key alone never decides.
  ROWSCAN_HD station_id find(char const* text, char const* name, parsed_line const& p) const {
    std::uint64_t const* const k = thrust::lower_bound(thrust::seq, keys, keys + size, p.key);
    if (k == keys + size || *k != p.key) return unknown_station;
    auto const id = static_cast<std::uint32_t>(k - keys);
    char const* const known = text + name_begins[id];
    for (std::uint32_t i = 0; i < p.name_size; ++i) {
      if (known[i] != name[i]) return unknown_station;
    }
    return known[p.name_size] == ';' ? static_cast<station_id>(id) : unknown_station;
  }
};

/// for_each_line's sink while learning: line `line` is text[begin, end), its '\n' included.
struct parse_for_learning {
  char const* text;
  std::uint64_t* keys;
  std::uint32_t* name_begins;
  std::uint8_t* ok;
  ROWSCAN_HD void operator()(std::uint32_t line, std::uint32_t begin, std::uint32_t end) const {
    parsed_line const p = samples::steps::parse_line(text + begin, end - begin - 1);
    keys[line] = p.key;
    name_begins[line] = begin;
    ok[line] = p.ok ? 1 : 0;
  }
};
struct is_bad {
  ROWSCAN_HD bool operator()(std::uint8_t ok) const { return ok == 0; }
};
/// The key check's "row -> where its line begins": here the rows are the name begins themselves.
struct same_position {
  ROWSCAN_HD std::uint32_t operator()(std::uint32_t begin) const { return begin; }
};

/// for_each_line's sink on the fast path: each line's station id and tenths.
struct parse_to_station_id {
  char const* text;
  dictionary_view dictionary;
  station_id* ids;
  std::int16_t* tenths;
  ROWSCAN_HD void operator()(std::uint32_t line, std::uint32_t begin, std::uint32_t end) const {
    parsed_line const p = samples::steps::parse_line(text + begin, end - begin - 1);
    ids[line] = p.ok ? dictionary.find(text, text + begin, p) : unknown_station;
    tenths[line] = p.tenths;
  }
};

struct dictionary {
  thrust::device_vector<std::uint64_t> keys;
  thrust::device_vector<std::uint32_t> name_begins;
  dictionary_view view() const {
    return {keys.data().get(), name_begins.data().get(), static_cast<std::uint32_t>(keys.size())};
  }
};

// [docs:learn]
/// The distinct names of the lines in text[0, prefix) (prefix ends a line), sorted by key.
dictionary learn(char const* t, std::size_t prefix, samples::steps::tracer const& show, rowscan::context const& ctx) {
  auto const policy = ctx.policy();
  // 1. Parse the lines of the prefix: each one's key and where its name begins.
  std::size_t const m = rowscan::count_lines(t, prefix, ctx);
  thrust::device_vector<std::uint64_t> keys(m);
  thrust::device_vector<std::uint32_t> name_begins(m);
  thrust::device_vector<std::uint8_t> ok(m);
  rowscan::for_each_line(t, prefix, parse_for_learning{t, keys.data().get(), name_begins.data().get(), ok.data().get()},
                         nullptr, ctx);
  auto const bad = thrust::find_if(policy, ok.begin(), ok.end(), is_bad{});
  if (bad != ok.end()) throw rowscan::error("line " + std::to_string(bad - ok.begin() + 1) + " is bad");
  show("learn 1. for_each_line: the lines of the first bytes, parsed");  // [docs:hide]
  show("keys", keys, m);                                                  // [docs:hide]
  show("name begins", name_begins, m);                                    // [docs:hide]

  // 2. Sort by key (stable: each name's first line stays first), prove one name per key, keep one
  //    line per key: the sorted list of the seed blog, found in the data.
  thrust::stable_sort_by_key(policy, keys.begin(), keys.end(), name_begins.begin());
  samples::steps::expect_one_name_per_key(t, keys, name_begins, same_position{}, ctx);
  auto const ends = thrust::unique_by_key(policy, keys.begin(), keys.end(), name_begins.begin());
  auto const stations = static_cast<std::size_t>(ends.first - keys.begin());
  if (stations >= unknown_station) throw rowscan::error("more stations than 16-bit ids: use rowscan stations");
  keys.resize(stations);
  name_begins.resize(stations);
  show("learn 2. stable_sort_by_key, unique_by_key: the dictionary, one entry per name");  // [docs:hide]
  show("dictionary keys", keys, stations);                                                 // [docs:hide]
  show("dictionary name begins", name_begins, stations);                                   // [docs:hide]
  return {std::move(keys), std::move(name_begins)};
}
// [docs:end]

/// Where learning stops: the end of the last line that ends within the first `learn_bytes` bytes (the end
/// of the first line if none does). Every line of the text ends in '\n' (read_measurements).
std::size_t learning_prefix(std::string const& host_text, std::size_t learn_bytes) {
  if (learn_bytes >= host_text.size()) return host_text.size();
  std::size_t const newline = host_text.rfind('\n', learn_bytes - 1);
  return (newline == std::string::npos || learn_bytes == 0 ? host_text.find('\n') : newline) + 1;
}

/// Says that the first bytes lacked a station: in --print's trace, or once on stderr (CTest looks for it).
void note_relearning(std::size_t unknown, std::size_t stations, std::size_t prefix, bool print) {
  static bool said = false;
  std::string const note = std::to_string(unknown) + " lines unknown to the " + std::to_string(stations) +
                           " stations of the first " + std::to_string(prefix) + " bytes: learning from every line";
  if (print) {
    samples::steps::trace() << note << '\n';
  } else if (!said) {
    std::cerr << "04_dictionary: " << note << '\n';
  }
  said = true;
}

struct step_options {
  std::size_t learn_bytes = std::size_t{1} << 20;
};

std::vector<station_summary> summarize(thrust::device_vector<char> const& text, std::string const& host_text,
                                       step_options const& opt, samples::steps::tracer const& show,
                                       rowscan::context const& ctx) {
  if (text.empty()) return {};
  auto const policy = ctx.policy();
  char const* const t = text.data().get();
  std::size_t const prefix = learning_prefix(host_text, opt.learn_bytes);
  // [docs:fast]
  // 1. The dictionary, from the lines of the first bytes.
  dictionary known = learn(t, prefix, show, ctx);

  // 2. Every line's station id and tenths, parsed where the word-level scan finds the line.
  std::size_t const m = rowscan::count_lines(t, text.size(), ctx);
  thrust::device_vector<station_id> ids(m);
  thrust::device_vector<std::int16_t> tenths(m);
  thrust::device_vector<std::uint32_t> starts;
  for (;;) {
    rowscan::for_each_line(t, text.size(), parse_to_station_id{t, known.view(), ids.data().get(), tenths.data().get()},
                           nullptr, ctx);
    show("3. for_each_line: each line's station id (lower_bound, then the name compared)");  // [docs:hide]
    show("ids", ids, m);                                                                     // [docs:hide]
    show("tenths", tenths, m);                                                               // [docs:hide]

    // 3. Sort the 16-bit ids; the tenths travel with them.
    thrust::sort_by_key(policy, ids.begin(), ids.end(), tenths.begin());
    show("4. sort_by_key: 16-bit ids");  // [docs:hide]
    show("ids", ids, m);                 // [docs:hide]
    show("tenths", tenths, m);           // [docs:hide]

    // 4. Station i's rows are [starts[i], starts[i + 1]); unknown lines sort last, from starts[D].
    std::size_t const stations = known.keys.size();
    starts.resize(stations + 1);
    auto const first_id = thrust::counting_iterator<std::uint32_t>(0);
    thrust::lower_bound(policy, ids.begin(), ids.end(), first_id, first_id + static_cast<long>(stations + 1),
                        starts.begin());
    show("5. lower_bound: where each station's rows start; the last, where unknown rows start");  // [docs:hide]
    show("starts", starts, stations + 1);                                                         // [docs:hide]
    std::size_t const unknown = m - rowscan::read_back(starts, stations, ctx);
    if (unknown == 0) break;
    if (prefix == text.size()) throw rowscan::error("a line the dictionary of every line lacks");  // cannot happen
    // A station the first bytes lacked: learn from every line instead (a bad line is reported there).
    note_relearning(unknown, stations, prefix, show.on);  // [docs:hide]
    known = learn(t, text.size(), show, ctx);
  }

  // 5. One {min, max, sum, count} per station, folding summaries made from the tenths as they are read.
  std::size_t const stations = known.keys.size();
  thrust::device_vector<station_stats> stats(stations);
  auto const readings = thrust::make_transform_iterator(tenths.begin(), reading_stats{});
#if ROWSCAN_HAS_CUB
  std::uint32_t const* const s = starts.data().get();
  std::size_t bytes = 0;
  SAMPLE_CUDA_TRY(cub::DeviceSegmentedReduce::Reduce(nullptr, bytes, readings, stats.data().get(),
                                                     static_cast<std::int64_t>(stations), s, s + 1, merge_stats{},
                                                     station_stats::identity(), ctx.stream()));
  thrust::device_vector<char> temporary(bytes);
  SAMPLE_CUDA_TRY(cub::DeviceSegmentedReduce::Reduce(temporary.data().get(), bytes, readings, stats.data().get(),
                                                     static_cast<std::int64_t>(stations), s, s + 1, merge_stats{},
                                                     station_stats::identity(), ctx.stream()));
#else
  // The portable twin: one group per distinct id, in id order (every station has a line: it was learned
  // from this text).
  thrust::reduce_by_key(policy, ids.begin(), ids.end(), readings, thrust::make_discard_iterator(), stats.begin(),
                        thrust::equal_to<station_id>{}, merge_stats{});
#endif
  show("6. segmented reduce: one {min, max, sum, count} per station");  // [docs:hide]
  show("stats", stats, stations);                                       // [docs:hide]
  // [docs:end]
  return samples::steps::to_host(host_text, known.name_begins, stats, stations);
}

/// Takes `--learn BYTES` out of argv (the other options are every step's, see steps_common.hpp).
step_options take_step_options(int& argc, char** argv) {
  step_options o;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--learn" && i + 1 < argc) {
      std::string const v = argv[++i];
      if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos) {
        throw rowscan::error("--learn takes a number of bytes, not '" + v + "'");
      }
      o.learn_bytes = static_cast<std::size_t>(std::stoull(v));
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  step_options opt;
  if (int const status = samples::run_sample("04_dictionary", [&] {
        opt = take_step_options(argc, argv);
        return 0;
      })) {
    return status;
  }
  rowscan::context ctx;
  thrust::device_vector<char> text;
  std::string const* host_text = nullptr;
  samples::steps::tracer show;
  return samples::steps::run_step(
      argc, argv, "04_dictionary", [] { return samples::device_name(); },
      [&](std::string const& t, samples::options const& o) {
        host_text = &t;
        text.assign(t.begin(), t.end());
        show.on = o.print;
      },
      [&] { return summarize(text, *host_text, opt, show, ctx); }, [](auto&& f) { return samples::device_ms(f); });
}
