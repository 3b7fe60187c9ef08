// SPDX-License-Identifier: Apache-2.0
// The merge of MPI ranks' partial answers: what one step of the tree costs for stations
// answers of 10,000 stations (names of up to 100 bytes, the 1BRC limits), without the network.
//
//   rowscan_merge_partials [STATIONS] [REPEAT]
//
// A step of ranks::merge_to_root is: decode the two partials' bytes, merge_summaries, encode the result
// (rowscan/process/scale_out.hpp). The two partials share 80% of their names. Medians of REPEAT runs (default 101)
// after one warm-up; a tree over P ranks has ceil(log2 P) steps on its critical path, plus one
// transfer of about the printed bytes per step (`mpirun ... rowscan stations --stats` prints the whole
// merge as the ranks see it).
#include "rowscan/stations/merge_summaries.hpp"
#include "rowscan/stations/workload.hpp"

#include "host_timing.hpp"
#include "rowscan/inputs/partial_wire.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace rowscan;

/// A name of 1..100 bytes of letters.
std::string random_name(std::mt19937& rng) {
  std::string name(1 + rng() % 100, 'a');
  for (char& c : name) c = static_cast<char>('a' + rng() % 26);
  return name;
}

/// A partial answer over the given names, sorted as summarize returns it.
stations::summary partial(std::vector<std::string> const& names, std::mt19937& rng) {
  stations::summary s;
  std::set<std::string> const sorted(names.begin(), names.end());
  for (std::string const& name : sorted) {
    int const a = static_cast<int>(rng() % 1999) - 999, b = static_cast<int>(rng() % 1999) - 999;
    s.stations.push_back({name, std::min(a, b), std::max(a, b), a + b, 2});
  }
  return s;
}

/// The median milliseconds of f (host_timing.hpp).
template <class F>
double median_ms(int repeat, F&& f) {
  return 1e3 * bench::median_host_seconds(repeat, std::forward<F>(f));
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t const stations = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10000;
  int const repeat = argc > 2 ? std::atoi(argv[2]) : 101;
  std::mt19937 rng(1);
  std::set<std::string> unique;
  while (unique.size() < stations + stations / 4) unique.insert(random_name(rng));
  std::vector<std::string> const all(unique.begin(), unique.end());
  std::vector<std::string> const first(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(stations));
  std::vector<std::string> const second(all.end() - static_cast<std::ptrdiff_t>(stations), all.end());
  stations::summary const a = partial(first, rng), b = partial(second, rng);

  auto bytes_of = [](stations::summary const& s) {
    wire_writer out;
    stations::workload::encode(out, s);
    return out.bytes();
  };
  std::string const a_bytes = bytes_of(a), b_bytes = bytes_of(b);
  std::size_t merged_stations = 0;
  double const merge = median_ms(repeat, [&] { merged_stations = stations::merge_summaries(a, b).stations.size(); });
  auto tree_step = [&] {
    wire_reader x(a_bytes), y(b_bytes);
    stations::summary p, q;
    stations::workload::decode(x, p);
    stations::workload::decode(y, q);
    return bytes_of(stations::merge_summaries(std::move(p), q)).size();
  };
  // glibc's defaults first, then as an MPI rank runs it (keep_freed_buffers_mapped).
  double const step_default = median_ms(repeat, tree_step);
  inputs::keep_freed_buffers_mapped();
  double const step = median_ms(repeat, tree_step);
  double const decode_ms = median_ms(repeat, [&] {
    wire_reader x(a_bytes);
    stations::summary p;
    stations::workload::decode(x, p);
    return p.stations.size();
  });
  double const encode_ms = median_ms(repeat, [&] { return bytes_of(a).size(); });
  std::printf("decode one: %.3f ms, encode one: %.3f ms\n", decode_ms, encode_ms);
  std::printf("partials of %zu stations (%zu and %zu bytes on the wire), %zu after the merge\n", stations,
              a_bytes.size(), b_bytes.size(), merged_stations);
  std::printf("merge_summaries:                 %8.3f ms (median of %d)\n", merge, repeat);
  std::printf("one tree step (decode 2, merge, encode): %8.3f ms as a rank runs it, %8.3f ms with glibc's defaults\n",
              step, step_default);
  for (int ranks : {2, 8, 64, 512}) {
    int depth = 0;
    while ((1 << depth) < ranks) ++depth;
    std::printf("tree over %3d ranks: %d steps, %8.3f ms without transfers\n", ranks, depth, depth * step);
  }
  return 0;
}
