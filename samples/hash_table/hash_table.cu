// SPDX-License-Identifier: Apache-2.0
// samples/hash_table/hash_table.cu: grouping rows by a long name (90 to 100 bytes), two ways.
//
//   open_addressing   a hash table in the sample, as a CPU 1BRC program keeps one: a slot per station
//                     (its name's 64-bit hash, where its name is, and its statistics), linear probing,
//                     every row's name compared in full with the slot's. One thread, row after row.
//                     On a GPU the same table needs an atomic claim per slot and atomics on every
//                     statistic: rowscan writes no such table (CONTRIBUTING.md).
//   sort_verify       rowscan's way: each row's 64-bit name hash (a transform), a sort of (hash, row)
//                     pairs, one group per run of equal hashes (reduce_by_key), then a check that every
//                     row's name equals its group's first name: equal hashes must be equal names, and a
//                     collision is found, not assumed away.
//
// It prints the time of each, the memory each needs, the table's probes (how many slots a row looked
// at, on average and at most) at the load factor asked for, and the 64-bit collisions the check found.
// Both answers are compared with a std::map of the names.
//
// usage: hash_table [--size ROWS] [--stations S] [--load PERCENT] [--repeat R] [--csv]
//        (default 2,000,000 rows, 10,000 stations, a table 50% full)
#include "../common/sample.hpp"

#include "rowscan/hd.hpp"

#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/logical.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

char const* const usage = "hash_table [--size ROWS] [--stations S] [--load PERCENT] [--repeat R] [--csv]";

/// Rows as a column store: every row's name is a copy in one text (as lines are), its temperature apart.
struct rows {
  std::string text;                  // the names, one after another
  std::vector<std::uint32_t> start;  // row r's name: text[start[r], start[r] + size[r])
  std::vector<std::uint8_t> size;
  std::vector<std::int16_t> tenths;
};

rows make_rows(std::size_t n, std::size_t stations, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<std::string> names(stations);
  for (auto& name : names) {  // 90 to 100 bytes, letters: long keys, all sharing no prefix on purpose
    name.resize(90 + random() % 11);
    for (char& c : name) c = static_cast<char>('a' + random() % 26);
  }
  rows r;
  r.text.reserve(n * 96);
  for (std::size_t i = 0; i < n; ++i) {
    std::string const& name = names[random() % stations];
    r.start.push_back(static_cast<std::uint32_t>(r.text.size()));
    r.size.push_back(static_cast<std::uint8_t>(name.size()));
    r.text += name;
    r.tenths.push_back(static_cast<std::int16_t>(static_cast<int>(random() % 1999) - 999));
  }
  return r;
}

/// FNV-1a over a name's bytes: 64 bits, the same on the host and the device.
ROWSCAN_HD inline std::uint64_t name_hash(char const* p, std::uint32_t n) {
  std::uint64_t h = 14695981039346656037ull;
  for (std::uint32_t i = 0; i < n; ++i) h = (h ^ static_cast<unsigned char>(p[i])) * 1099511628211ull;
  return h;
}

struct stats {
  std::int64_t sum = 0;
  std::uint32_t count = 0;
  std::int16_t min = 1000, max = -1000;
};

// [docs:open-addressing]
/// One slot of the table: the name's hash (0: empty), where a copy of its name is, its statistics.
struct slot {
  std::uint64_t hash = 0;
  std::uint32_t start = 0;
  std::uint8_t size = 0;
  stats s;
};

/// Linear probing: a row goes to slot hash mod capacity, or the next one, until it finds its name or an
/// empty slot. Every probe that meets a slot of the same hash compares the names in full.
struct open_table {
  std::vector<slot> slots;
  std::uint64_t probes = 0, longest = 0;
  void add(rows const& r, std::size_t row) {
    char const* name = r.text.data() + r.start[row];
    std::uint64_t const h = name_hash(name, r.size[row]) | 1;  // never 0, the empty slot's mark
    std::size_t at = h % slots.size();
    std::uint64_t looked = 1;
    while (slots[at].hash != 0 && !(slots[at].hash == h && slots[at].size == r.size[row] &&
                                    std::memcmp(r.text.data() + slots[at].start, name, r.size[row]) == 0)) {
      at = at + 1 == slots.size() ? 0 : at + 1;
      ++looked;
    }
    slot& s = slots[at];
    if (s.hash == 0) s = {h, r.start[row], r.size[row], {}};
    s.s.sum += r.tenths[row];
    s.s.count += 1;
    s.s.min = std::min(s.s.min, r.tenths[row]);
    s.s.max = std::max(s.s.max, r.tenths[row]);
    probes += looked;
    longest = std::max(longest, looked);
  }
};
// [docs:end]

// [docs:sort-verify]
/// Each row's hash, from its name where it lies.
struct hash_of_row {
  char const* text;
  std::uint32_t const* start;
  std::uint8_t const* size;
  ROWSCAN_HD std::uint64_t operator()(std::uint32_t row) const { return name_hash(text + start[row], size[row]); }
};
/// After the sort: does row `sorted_rows[i]` carry the same name as the row before it, where their hashes
/// are equal? Equal neighbours all through a run make the whole run one name; a 64-bit collision would
/// put two names in one run, and this finds it.
struct same_name_as_previous {
  char const* text;
  std::uint32_t const* start;
  std::uint8_t const* size;
  std::uint32_t const* sorted_rows;
  std::uint64_t const* sorted_hashes;
  ROWSCAN_HD bool operator()(std::uint32_t i) const {
    if (i == 0 || sorted_hashes[i - 1] != sorted_hashes[i]) return true;
    std::uint32_t const a = sorted_rows[i], b = sorted_rows[i - 1];
    if (size[a] != size[b]) return false;
    for (std::uint32_t k = 0; k < size[a]; ++k) {
      if (text[start[a] + k] != text[start[b] + k]) return false;
    }
    return true;
  }
};
// [docs:end]

struct tenths_of_row {
  std::int16_t const* tenths;
  ROWSCAN_HD std::int64_t operator()(std::uint32_t row) const { return tenths[row]; }
};

int run(int argc, char** argv) {
  std::size_t const stations = std::stoul(samples::take_value(argc, argv, "--stations", "10000", usage).c_str());
  std::size_t const load = std::stoul(samples::take_value(argc, argv, "--load", "50", usage).c_str());
  if (stations < 1 || stations > 1000000 || load < 1 || load > 95) {
    throw rowscan::error("--stations takes 1 to 1,000,000 and --load a percent of 1 to 95");
  }
  auto const opt = samples::parse_options(argc, argv, 2000000, usage);
  if (!opt.inputs.empty() || opt.size < 1 || opt.size > 20000000) {
    throw rowscan::error(std::string("--size takes 1 to 20,000,000 rows\nusage: ") + usage);
  }
  rows const r = make_rows(opt.size, stations, 7);
  std::size_t const n = opt.size;
  std::ostream& text = opt.csv ? std::cerr : std::cout;

  // The reference: a std::map of every name's count and sum.
  std::map<std::string, std::pair<std::uint32_t, std::int64_t>> reference;
  for (std::size_t i = 0; i < n; ++i) {
    auto& e = reference[r.text.substr(r.start[i], r.size[i])];
    e.first += 1;
    e.second += r.tenths[i];
  }

  // Open addressing, one thread.
  std::size_t const capacity = std::max<std::size_t>(1, stations * 100 / load);
  open_table table;
  double const open_ms = samples::median_ms(opt.repeat, [&] {
    table = open_table{std::vector<slot>(capacity), 0, 0};
    return samples::host_ms([&] {
      for (std::size_t i = 0; i < n; ++i) table.add(r, i);
    });
  });
  std::size_t groups_open = 0;
  bool open_ok = true;
  for (slot const& s : table.slots) {
    if (s.hash == 0) continue;
    ++groups_open;
    auto const it = reference.find(r.text.substr(s.start, s.size));
    open_ok &= it != reference.end() && it->second.first == s.s.count && it->second.second == s.s.sum;
  }
  open_ok &= groups_open == reference.size();

  // Sort + verify on the device system.
  thrust::device_vector<char> const d_text(r.text.begin(), r.text.end());
  thrust::device_vector<std::uint32_t> const d_start(r.start.begin(), r.start.end());
  thrust::device_vector<std::uint8_t> const d_size(r.size.begin(), r.size.end());
  thrust::device_vector<std::int16_t> const d_tenths(r.tenths.begin(), r.tenths.end());
  thrust::device_vector<std::uint64_t> hashes(n), group_hashes(n);
  thrust::device_vector<std::uint32_t> sorted_rows(n);
  thrust::device_vector<std::int64_t> group_sums(n);
  std::size_t groups_sorted = 0;
  bool names_agree = false;
  auto const i0 = thrust::counting_iterator<std::uint32_t>(0);
  double const sort_ms = samples::median_ms(opt.repeat, [&] {
    return samples::device_ms([&] {
      hash_of_row const h{thrust::raw_pointer_cast(d_text.data()), thrust::raw_pointer_cast(d_start.data()),
                          thrust::raw_pointer_cast(d_size.data())};
      thrust::transform(i0, i0 + n, hashes.begin(), h);
      thrust::sequence(sorted_rows.begin(), sorted_rows.end());
      thrust::sort_by_key(hashes.begin(), hashes.end(), sorted_rows.begin());
      auto const tenths = thrust::make_transform_iterator(sorted_rows.begin(),
                                                          tenths_of_row{thrust::raw_pointer_cast(d_tenths.data())});
      auto const ends =
          thrust::reduce_by_key(hashes.begin(), hashes.end(), tenths, group_hashes.begin(), group_sums.begin());
      groups_sorted = static_cast<std::size_t>(ends.first - group_hashes.begin());
      names_agree =
          thrust::all_of(i0, i0 + n,
                         same_name_as_previous{h.text, h.start, h.size, thrust::raw_pointer_cast(sorted_rows.data()),
                                               thrust::raw_pointer_cast(hashes.data())});
    });
  });
  // Every group's sum against the reference, by the group's first row's name.
  thrust::host_vector<std::uint64_t> const h_hashes(hashes);
  thrust::host_vector<std::uint32_t> const h_rows(sorted_rows);
  thrust::host_vector<std::int64_t> const h_sums(group_sums.begin(), group_sums.begin() + groups_sorted);
  bool sort_ok = names_agree && groups_sorted == reference.size();
  for (std::size_t i = 0, g = 0; sort_ok && i < n; ++i) {
    if (i > 0 && h_hashes[i] == h_hashes[i - 1]) continue;
    std::uint32_t const row = h_rows[i];
    auto const it = reference.find(r.text.substr(r.start[row], r.size[row]));
    sort_ok = it != reference.end() && it->second.second == h_sums[g++];
  }

  std::size_t const table_bytes = capacity * sizeof(slot);
  std::size_t const sort_bytes = n * (2 * sizeof(std::uint64_t) + sizeof(std::uint32_t) + sizeof(std::int64_t));
  text << n << " rows, " << stations << " stations, names of 90-100 bytes (" << r.text.size() << " bytes of names)\n";
  text << "open_addressing (one thread): " << open_ms << " ms; " << capacity << " slots of " << sizeof(slot)
       << " bytes = " << table_bytes << " bytes (" << load << "% full); probes a row " << std::fixed;
  text.precision(3);
  text << static_cast<double>(table.probes) / static_cast<double>(n) << " on average, " << table.longest
       << " at most\n";
  text.precision(6);
  text.unsetf(std::ios::fixed);
  text << "sort_verify (" << samples::device_name() << "): " << sort_ms << " ms; " << sort_bytes
       << " bytes of hashes, rows and sums (and the sort's temporaries); " << groups_sorted << " groups, "
       << (names_agree ? "no 64-bit collision" : "a 64-bit collision: two names in one run") << '\n';
  if (opt.csv) {
    samples::print_csv_header();
    std::size_t const bytes = r.text.size();
    samples::print_csv_row("hash_table_" + std::to_string(stations), "host CPU 1 thread",
                           {"open_addressing", n, bytes, open_ms});
    samples::print_csv_row("hash_table_" + std::to_string(stations), samples::device_name(),
                           {"sort_verify", n, bytes, sort_ms});
  }
  text << (open_ok && sort_ok ? "both ways agree with std::map" : "MISMATCH: a way differs from std::map") << '\n';
  return open_ok && sort_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return samples::run_sample("hash_table", [&] { return run(argc, argv); });
}
