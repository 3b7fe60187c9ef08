// SPDX-License-Identifier: Apache-2.0
// samples/scan/scan_trace.cu: a scan traced step by step on a small input, replayed on the host.
//
//   1. Blelloch's work-efficient exclusive scan: an up-sweep (a reduction tree, in place), then a
//      down-sweep that turns the tree into every prefix. 2(n-1) adds, 2 log2(n) steps.
//   2. A single-pass scan with decoupled look-back, the way cub::DeviceScan runs it: the input is cut
//      into tiles; each tile publishes its aggregate (status A), looks back over its predecessors'
//      status words until it meets an inclusive prefix (status P), and publishes its own. The trace is
//      round by round, with a tile that starts late so that another tile must wait on it.
//   3. reduce_by_key as that same scan over {heads so far, value since the last head}: the output slot
//      of a run is its head count minus one (a scan of the flags), and a run that crosses tiles is
//      carried by the tiles' aggregates.
// Then the device system's thrust::exclusive_scan, inclusive_scan and reduce_by_key must agree.
//
// usage: scan_trace [blelloch|look-back|by-key] [--start-round A,B,C,D] [--no-restart] [--expect FILE]
//   (one trace, or all three; docs/scan.md quotes them, CTest compares them with samples/scan/*.txt)
//   --start-round  the round in which each of the four tiles' blocks is scheduled (default 0,0,2,0)
//   --no-restart   a combine that forgets to restart at a run's head (docs/scan.md, exercise 3)
#include "../common/sample.hpp"

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>

#include <algorithm>
#include <cstddef>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

char const* const usage =
    "scan_trace [blelloch|look-back|by-key] [--start-round A,B,C,D] [--no-restart] [--expect FILE]";
bool no_restart = false;  // --no-restart

/// --start-round's value: one round per tile, each 0 to 64.
std::vector<int> parse_start_rounds(std::string const& text, std::size_t tiles) {
  std::vector<int> rounds;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t const comma = std::min(text.find(',', at), text.size());
    std::string const item = text.substr(at, comma - at);
    if (item.empty() || item.size() > 2 || item.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(item) > 64) {
      throw rowscan::error("--start-round takes " + std::to_string(tiles) +
                           " rounds of 0 to 64, such as 0,0,2,0, not '" + text + "'");
    }
    rounds.push_back(std::stoi(item));
    at = comma + 1;
  }
  if (rounds.size() != tiles) {
    throw rowscan::error("--start-round takes " + std::to_string(tiles) + " rounds, one a tile, not '" + text + "'");
  }
  return rounds;
}

using values = std::vector<int>;

void print_row(std::ostream& out, std::string const& label, values const& v, int width = 4) {
  out << "  " << std::left << std::setw(14) << label << std::right;
  for (int x : v) out << std::setw(width) << x;
  out << '\n';
}

// [docs:blelloch]
/// Blelloch's exclusive scan, in place, n a power of two. Each inner loop is one parallel step: its
/// iterations touch disjoint words, so a GPU runs them as threads with a barrier after each step.
values blelloch_exclusive_scan(values a, std::ostream& out) {
  std::size_t const n = a.size();
  int adds = 0;
  // Up-sweep: a reduction tree. After the step of stride d, word k*2d + 2d - 1 holds the sum of its 2d words.
  for (std::size_t d = 1; d < n; d *= 2) {
    for (std::size_t k = 0; k < n; k += 2 * d) {
      a[k + 2 * d - 1] += a[k + d - 1];
      ++adds;
    }
    print_row(out, "up    d=" + std::to_string(d), a);  // [docs:hide]
  }
  // The root holds the total; the prefix of everything before the first word is the identity, 0.
  a[n - 1] = 0;
  print_row(out, "clear root", a);  // [docs:hide]
  // Down-sweep: each node hands its prefix to its left child, and prefix + left sum to its right child.
  for (std::size_t d = n / 2; d >= 1; d /= 2) {
    for (std::size_t k = 0; k < n; k += 2 * d) {
      int const left = a[k + d - 1];
      a[k + d - 1] = a[k + 2 * d - 1];  // left child: the parent's prefix
      a[k + 2 * d - 1] += left;          // right child: the parent's prefix + the left subtree's sum
      ++adds;
    }
    print_row(out, "down  d=" + std::to_string(d), a);  // [docs:hide]
  }
  out << "  " << adds << " adds for " << n << " values (a sequential loop: " << n - 1 << ")\n";
  return a;
}
// [docs:end]

// [docs:tile-state]
/// A tile's status word, as CUB's ScanTileState keeps it: X = not yet processed (SCAN_TILE_INVALID),
/// A = its aggregate is available (SCAN_TILE_PARTIAL), P = its inclusive prefix is available
/// (SCAN_TILE_INCLUSIVE). A real tile writes status and value in one store (one word when they fit).
enum class status : char { X = 'X', A = 'A', P = 'P' };
struct tile_descriptor {
  status flag = status::X;
  int value = 0;  // the aggregate under A, the inclusive prefix under P
};
// [docs:end]

/// One tile's progress through the single-pass scan.
struct tile_run {
  std::size_t begin = 0, end = 0;
  int start_round = 0;     // when its thread block is scheduled
  int aggregate = 0;
  int exclusive = 0;       // the sum of every earlier tile, found by looking back
  std::size_t look = 0;    // the predecessor it reads next (tile index + 1; 0 = none left)
  bool reduced = false, done = false;
};

std::string describe(std::vector<tile_descriptor> const& d) {
  std::ostringstream s;
  for (std::size_t t = 0; t < d.size(); ++t) {
    s << (t ? "  " : "") << "tile " << t << ": " << static_cast<char>(d[t].flag);
    if (d[t].flag != status::X) s << ' ' << d[t].value;
  }
  return s.str();
}

/// The single-pass scan, replayed round by round. In a round every scheduled tile takes one step, and
/// every read sees the status words as they were when the round began (a write is seen one round
/// later, as a store is seen later by another SM). CUB's look-back reads 32 predecessors at once, one
/// per lane of a warp; this trace reads one per round so that each step shows.
values single_pass_scan(values const& in, std::size_t tile_items, std::vector<int> const& start_round,
                        std::ostream& out) {
  std::size_t const tiles = (in.size() + tile_items - 1) / tile_items;
  std::vector<tile_run> run(tiles);
  for (std::size_t t = 0; t < tiles; ++t) {
    run[t].begin = t * tile_items;
    run[t].end = std::min(in.size(), run[t].begin + tile_items);
    run[t].start_round = start_round[t];
  }
  std::vector<tile_descriptor> descriptors(tiles);
  values result(in.size());
  out << "  status words: " << describe(descriptors) << '\n';
  for (int round = 0; !std::all_of(run.begin(), run.end(), [](tile_run const& r) { return r.done; }); ++round) {
    auto const seen = descriptors;  // what every read of this round sees
    out << "  round " << round << ":\n";
    for (std::size_t t = 0; t < tiles; ++t) {
      tile_run& r = run[t];
      if (r.done || round < r.start_round) continue;
      out << "    tile " << t << ": ";
      // [docs:look-back]
      if (!r.reduced) {  // 1. Reduce the tile, publish the aggregate (tile 0 has no predecessor: P at once).
        for (std::size_t i = r.begin; i < r.end; ++i) r.aggregate += in[i];
        r.reduced = true;
        r.look = t;  // the next predecessor to read is tile t - 1
        descriptors[t] = {t == 0 ? status::P : status::A, r.aggregate};
        out << "aggregate " << r.aggregate << ", publishes " << (t == 0 ? "P " : "A ") << r.aggregate;  // [docs:hide]
      } else {  // 2. Look back one predecessor: wait on X, add an A and go on, add a P and stop.
        std::size_t const p = r.look - 1;
        tile_descriptor const d = seen[p];
        out << "reads tile " << p << ": " << static_cast<char>(d.flag);  // [docs:hide]
        if (d.flag == status::X) out << ", waits";  // [docs:hide]
        if (d.flag != status::X) {  // (an X: not ready yet, read the same tile again next round)
          r.exclusive = d.value + r.exclusive;  // earlier + later: the predecessor's part comes first
          out << ' ' << d.value << ", prefix so far " << r.exclusive;  // [docs:hide]
          if (d.flag == status::A) --r.look;
        }
        if (d.flag == status::P) {  // 3. Publish the inclusive prefix for the tiles after this one.
          descriptors[t] = {status::P, r.exclusive + r.aggregate};
          out << ", publishes P " << r.exclusive + r.aggregate;  // [docs:hide]
          r.look = 0;
        }
      }
      if (t == 0 || r.look == 0) {  // 4. Scan the tile itself, seeded with the prefix: the only writes.
        int sum = r.exclusive;
        for (std::size_t i = r.begin; i < r.end; ++i) result[i] = sum += in[i];
        r.done = true;
        out << "; writes its " << r.end - r.begin << " outputs";  // [docs:hide]
      }
      // [docs:end]
      out << '\n';
    }
    out << "    status words after the round: " << describe(descriptors) << '\n';
  }
  return result;
}

// [docs:by-key-op]
/// reduce_by_key's scan element: how many runs have started (heads), and the sum since the last head.
struct segment_sum {
  int heads;
  int value;
};
/// Associative, not commutative (CUB's ReduceBySegmentOp): if the right part starts a run, the left
/// part's value belongs to an earlier run and is dropped; the head counts always add.
segment_sum combine(segment_sum left, segment_sum right) {
  if (no_restart) return {left.heads + right.heads, left.value + right.value};  // --no-restart  [docs:hide]
  return {left.heads + right.heads, right.heads > 0 ? right.value : left.value + right.value};
}
// [docs:end]

std::string show(segment_sum s) { return "{" + std::to_string(s.heads) + "," + std::to_string(s.value) + "}"; }

/// reduce_by_key over sorted keys, as the scan of segment_sum elements: each position's element is
/// {1 if it starts a run, its value}; the inclusive scan's heads number the runs, and a position whose
/// right neighbour starts another run writes its run's sum to slot heads - 1. Printed per tile too.
void reduce_by_key_trace(values const& keys, values const& in, std::size_t tile_items, values& out_keys,
                         values& out_sums, std::ostream& out) {
  std::size_t const n = keys.size();
  values heads(n), scanned_heads(n), scanned_values(n), slot(n, -1);
  // [docs:by-key]
  segment_sum running{0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    bool const head = i == 0 || keys[i] != keys[i - 1];   // the flags: an adjacent-pair transform
    running = combine(running, {head ? 1 : 0, in[i]});    // the inclusive scan (one pass, look-back across tiles)
    bool const tail = i + 1 == n || keys[i + 1] != keys[i];
    if (tail) {                                            // the run ends here: write it to its slot
      out_keys[static_cast<std::size_t>(running.heads - 1)] = keys[i];
      out_sums[static_cast<std::size_t>(running.heads - 1)] = running.value;
    }
    heads[i] = head;                                                    // [docs:hide]
    scanned_heads[i] = running.heads;                                   // [docs:hide]
    scanned_values[i] = running.value;                                  // [docs:hide]
    if (tail) slot[i] = running.heads - 1;                              // [docs:hide]
  }
  // [docs:end]
  values position(n);
  for (std::size_t i = 0; i < n; ++i) position[i] = static_cast<int>(i);
  print_row(out, "position", position);
  print_row(out, "key", keys);
  print_row(out, "value", in);
  print_row(out, "head flag", heads);
  print_row(out, "scan: heads", scanned_heads);
  print_row(out, "scan: value", scanned_values);
  out << "  " << std::left << std::setw(14) << "writes slot" << std::right;
  for (int s : slot) out << std::setw(4) << (s < 0 ? std::string("-") : std::to_string(s));
  out << '\n';
  out << "  per tile of " << tile_items << ": the aggregate a tile publishes, and the prefix its look-back finds\n";
  segment_sum prefix{0, 0};
  for (std::size_t begin = 0, t = 0; begin < n; begin += tile_items, ++t) {
    segment_sum aggregate{0, 0};
    for (std::size_t i = begin; i < std::min(n, begin + tile_items); ++i) {
      aggregate = combine(aggregate, {i == 0 || keys[i] != keys[i - 1] ? 1 : 0, in[i]});
    }
    out << "    tile " << t << ": aggregate " << show(aggregate) << ", exclusive prefix " << show(prefix);
    if (t > 0 && keys[begin] == keys[begin - 1]) {
      out << " (key " << keys[begin] << " continues from tile " << t - 1 << ": its sum so far is " << prefix.value << ")";
    }
    out << '\n';
    prefix = combine(prefix, aggregate);
  }
}

int run(int argc, char** argv) {
  no_restart = samples::take_flag(argc, argv, "--no-restart");
  std::string const rounds_text = samples::take_value(argc, argv, "--start-round", "0,0,2,0", usage);
  auto const opt = samples::parse_options(argc, argv, 0, usage);
  std::string const part = opt.inputs.empty() ? "all" : opt.inputs.front();
  if (opt.inputs.size() > 1 || (part != "all" && part != "blelloch" && part != "look-back" && part != "by-key")) {
    throw rowscan::error(std::string("usage: ") + usage);
  }
  std::ostringstream blelloch_trace, look_back_trace, by_key_trace;

  values const small{3, 1, 7, 0, 4, 1, 6, 3};
  blelloch_trace << "Blelloch's exclusive scan of " << small.size() << " values\n";
  print_row(blelloch_trace, "input", small);
  values const blelloch = blelloch_exclusive_scan(small, blelloch_trace);

  values const in{3, 1, 7, 0, 4, 1, 6, 3, 5, 2, 8, 1, 2, 9, 4, 6};
  std::size_t const tile_items = 4;
  std::vector<int> const start_round = parse_start_rounds(rounds_text, in.size() / tile_items);  // default: tile 2 late
  look_back_trace << "Single-pass inclusive scan with decoupled look-back: " << in.size() << " values, tiles of "
                  << tile_items;
  bool all_at_once = true;
  for (std::size_t t = 0; t < start_round.size(); ++t) {
    if (start_round[t] == 0) continue;
    look_back_trace << ", tile " << t << " scheduled at round " << start_round[t];
    all_at_once = false;
  }
  look_back_trace << (all_at_once ? ", every tile scheduled at round 0\n" : "\n");
  print_row(look_back_trace, "input", in);
  values const single_pass = single_pass_scan(in, tile_items, start_round, look_back_trace);
  print_row(look_back_trace, "output", single_pass);

  values const keys{0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 3, 3, 3, 3};
  by_key_trace << "reduce_by_key as a scan of {heads, value}: the same values, sorted keys, tiles of " << tile_items
               << '\n';
  values out_keys(static_cast<std::size_t>(keys.back() + 1)), out_sums(out_keys.size());
  reduce_by_key_trace(keys, in, tile_items, out_keys, out_sums, by_key_trace);
  print_row(by_key_trace, "unique keys", out_keys);
  print_row(by_key_trace, "sums", out_sums);

  // The device system's algorithms must give the traces' answers.
  thrust::device_vector<int> const d_small(small.begin(), small.end()), d_in(in.begin(), in.end()),
      d_keys(keys.begin(), keys.end());
  thrust::device_vector<int> d_out(in.size()), d_out_keys(in.size()), d_out_sums(in.size());
  thrust::exclusive_scan(d_small.begin(), d_small.end(), d_out.begin());
  bool const blelloch_ok = values(d_out.begin(), d_out.begin() + static_cast<long>(small.size())) == blelloch;
  thrust::inclusive_scan(d_in.begin(), d_in.end(), d_out.begin());
  bool const look_back_ok = values(d_out.begin(), d_out.end()) == single_pass;
  auto const ends = thrust::reduce_by_key(d_keys.begin(), d_keys.end(), d_in.begin(), d_out_keys.begin(), d_out_sums.begin());
  auto const runs = ends.first - d_out_keys.begin();
  bool const by_key_ok = values(d_out_keys.begin(), d_out_keys.begin() + runs) == out_keys &&
                         values(d_out_sums.begin(), d_out_sums.begin() + runs) == out_sums;
  auto verdict = [](std::ostream& out, bool ok, char const* algorithm) {
    out << (ok ? "" : "MISMATCH: ") << algorithm << (ok ? " on the device system agrees" : " differs from the trace")
        << '\n';
  };
  verdict(blelloch_trace, blelloch_ok, "thrust::exclusive_scan");
  verdict(look_back_trace, look_back_ok, "thrust::inclusive_scan");
  verdict(by_key_trace, by_key_ok, "thrust::reduce_by_key");
  std::string const answer = part == "blelloch"    ? blelloch_trace.str()
                             : part == "look-back" ? look_back_trace.str()
                             : part == "by-key"    ? by_key_trace.str()
                                                   : blelloch_trace.str() + '\n' + look_back_trace.str() + '\n' +
                                                         by_key_trace.str();
  samples::deliver_answer(opt, answer);
  return blelloch_ok && look_back_ok && by_key_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) { return samples::run_sample("scan_trace", [&] { return run(argc, argv); }); }
