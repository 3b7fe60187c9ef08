// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/memory_bound.hpp: how much memory `rowscan stations` may need, as a
// formula in what the user controls (the chunk size C) and what the input decides (S distinct
// stations with N bytes of names in all). No Thrust here: the CLI's help and its tests use it too.
//
//   peak <= 14 C + 640 S + 12 N + 32 MiB       (host RSS on the CPU backends; docs/performance.md)
//
// for one worker. With W host workers (one per core on the CPU build), each holds a block's arrays and
// a station table of its own, while the reader's ring is shared:
//
//   peak <= 2 C + W (12 C + 640 S + 12 N) + 32 MiB
//
// Host workers alone fold the ring's blocks in place, so the two device slots of each worker's 12 C are
// the ring's instead: it holds two blocks (C) per worker and three more (1.5 C) for the driver and the
// reader (job/driver.cu). Reading a regular file, they have no ring at all: each folds its block where
// the page cache holds it, in windows of W blocks (io/mapped_windows.hpp) that go once their blocks are
// back. The queue lends at most W + 1 consecutive blocks (a worker's each and the driver's), which lie
// in at most two windows: 2 W blocks of C / 2, so C a worker, within its 12 C.
//
// - 14 C, the block's arrays: the reader's ring of four half-chunk blocks (2 C), the two device slots
//   (C), and the per-line arrays of a block of the shortest lines ("a;0.0\n", 6 bytes: C/12 lines a
//   slot): the general path's records, keys, tenths, sizes and statuses (20 bytes a line), its sort and
//   grouping (48), the fast path's line ends, ids and tenths with their sort buffers (12), rounded up to
//   powers of two by the pool (memory_pool.hpp). Measured: 12.5 bytes per chunk byte at 16 MiB chunks
//   of 6-byte lines, 5.5 with 1BRC-like lines (14 bytes), before the fast path stored line ends (4 bytes
//   a line, on a GPU; the host's workers walk their lines and store none).
// - 640 S + 12 N, the station table, its dictionary and what their merges leave behind:
//   - the table at rest: 44 bytes a station (key 8, stats 24, name offset 8, name row 4) and its names; a merge
//     holds the old table, the block's, the merged keys (8), rows (4), sort buffers (12), groups (36),
//     gather starts and offsets (16) and the new names, each array rounded up to a power of two, and
//     the classes the last growth left; at the end the answer's host copy (the stats, a std::string and
//     a summary per station: about 140 bytes and 2 N with the output text). About 240 S + 4 N; measured
//     with every name distinct, one worker: 225 to 300 bytes a station and 3.9 per name byte, hence
//     320 S + 5 N.
//   - the fast path's dictionary beside it (dictionary.cu), at most 65,535 stations: an entry (16), a
//     name record (24) and a long name's record (16) a station, the names padded to words (N + 8 S), the
//     directory and first ids (at most 65,536 buckets of 2 + 2 bytes, inside the 32 MiB); while it is
//     rebuilt their host copies (64 S + N), the bucket counts (8 S) and the names as strings (about
//     48 S + N): about 184 S + 3 N. With the table, 504 S + 8 N.
//   - what glibc keeps: a worker's merges free their arrays into its thread's own arena, which keeps
//     them for that thread. With 2 to 16 workers, runs of 30,000 to 65,000 distinct names of 12-44 and
//     90-100 bytes at 16-64 KiB chunks peaked at up to 1.13 times what 448 S + 8 N allows (two workers,
//     65,000 names of 90-100 bytes; docs/data/memory_workers-cpu.csv), and at most 0.82 of 640 S + 12 N.
// - Several host workers share the stations they learn (shared_stations.hpp): one more table at rest
//   (40 S + N) and, while a worker adds to it, one merge (at most about 240 S + 4 N). Two or more
//   workers' terms hold it; the runs above include it.
// - 32 MiB: the process, its threads, and the general path's smallest piece (1 MiB of text).
//
// The chunk size moves only the first term. A table that does not fit does not fit at any chunk size.
#pragma once

#include <cstdint>
#include <string>

namespace rowscan::stations {

struct memory_bound_terms {
  static constexpr std::uint64_t per_chunk_byte = 14;
  static constexpr std::uint64_t per_station = 640;
  static constexpr std::uint64_t per_name_byte = 12;
  static constexpr std::uint64_t fixed = std::uint64_t{32} << 20;
};

/// The memory a station table of `stations` names of `name_bytes` bytes in all, with its dictionary, may
/// need while it merges and while the answer is written: 640 S + 12 N.
/// How the advice on a full memory words the table's terms: "640 bytes a station and 12 a name byte".
inline std::string table_terms_in_words() {
  return std::to_string(memory_bound_terms::per_station) + " bytes a station and " +
         std::to_string(memory_bound_terms::per_name_byte) + " a name byte";
}

constexpr std::uint64_t table_memory_bound(std::uint64_t stations, std::uint64_t name_bytes) {
  return memory_bound_terms::per_station * stations + memory_bound_terms::per_name_byte * name_bytes;
}

/// The memory a block of `chunk_size` bytes may need: 14 C.
constexpr std::uint64_t block_memory_bound(std::uint64_t chunk_size) {
  return memory_bound_terms::per_chunk_byte * chunk_size;
}

/// The peak memory of a run with `workers` workers: 2 C + W (12 C + 640 S + 12 N) + 32 MiB (one worker:
/// 14 C + 640 S + 12 N + 32 MiB).
constexpr std::uint64_t peak_memory_bound(std::uint64_t chunk_size, std::uint64_t stations, std::uint64_t name_bytes,
                                          std::uint64_t workers = 1) {
  std::uint64_t const ring = 2 * chunk_size;  // shared by the workers
  return ring + workers * (block_memory_bound(chunk_size) - ring + table_memory_bound(stations, name_bytes)) +
         memory_bound_terms::fixed;
}

}  // namespace rowscan::stations
