// SPDX-License-Identifier: Apache-2.0
// rowscan/strings/gather.hpp: gather_strings, a strings column made of chosen strings of a source.
//
//   step 1:  transform(locate_gathered) -> {start, size} of each output string's source bytes, then an
//            in-place exclusive_scan of the sizes -> output offsets
//   chars:   char-parallel    transform(char_of_output) over output bytes, each finding its string by
//                             upper_bound(seq) over the output offsets
//        or  string-parallel  for_each(copy_string_slice) over (string, lane) work items, aligned
//                             16-byte words in the middle of each string, 4-byte words and single bytes
//                             at its ends
//   automatic picks by the average output length (string_parallel_min_average_bytes).
//
// Worked example (tested in tests/test_string_gather.cu, explained in docs/string-gather.md):
//   source  {"Oslo", "", "Abéché", "Yaoundé"}   chars "OsloAbéchéYaoundé" (é is 2 bytes), offsets {0, 4, 4, 12, 20}
//   indices {2, 0, 2, 1}
//   starts  {chars + 4, chars + 0, chars + 4, chars + 4}   sizes {8, 4, 8, 0, (0)}
//           exclusive_scan -> offsets {0, 8, 12, 20, 20}
//   chars   "AbéchéOsloAbéché"; char-parallel: output byte 10 finds its string k as
//           upper_bound(offsets + 1, offsets + 5, 10) - (offsets + 1) = 1, and copies byte
//           10 - offsets[1] = 2 from starts[1]: the 'l' of "Oslo".
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/read_back.hpp"
#include "rowscan/device_buffer.hpp"
#include "rowscan/strings/column.hpp"

#include <thrust/binary_search.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

/// How gather_strings copies the chars.
enum class gather_strategy {
  automatic,        ///< string_parallel when the average output string has string_parallel_min_average_bytes or more
  char_parallel,    ///< one work item per output byte (best when strings are short)
  string_parallel,  ///< a few work items (lanes) per output string, 16-byte words in the middle (best when long)
};

#if ROWSCAN_HAS_CUB
// GPU constants, chosen from benchmarks/string_gather_benchmark.cu's grid (docs/string-gather.md, section 8;
// docs/data/string_gather-h100.csv):
// - char-parallel pays a binary search of about 24 dependent loads per output byte, so it loses to a
//   copy per string wherever the strings are longer than a few bytes;
// - string-parallel pays one chain of dependent loads (its start and offsets, in order since step 1
//   keeps the starts) per string and splits the string over its lanes. One 16-byte word a lane, within
//   4 to 64 lanes, is the best lane count or close to it in every cell of the grid;
// - keeping 2 or 4 words in flight per lane (all loads before the stores) measured slower than a word
//   at a time, so a lane copies a word at a time.

/// Average output length, in bytes, from which `automatic` copies string-parallel: it won every measured
/// cell from 32 bytes up but one tiny call (docs/string-gather.md, section 8); below 16, most of its 4
/// lanes would idle.
inline constexpr std::int64_t string_parallel_min_average_bytes = 16;
/// Lanes per string: average / string_parallel_bytes_per_lane (one word a lane), rounded up to a power
/// of two and kept within [string_parallel_min_lanes, string_parallel_max_lanes].
inline constexpr std::int64_t string_parallel_bytes_per_lane = 16;
inline constexpr unsigned string_parallel_min_lanes = 4;
inline constexpr unsigned string_parallel_max_lanes = 64;
#else
/// On the CPU backends string-parallel is a per-string copy and wins at every length, so `automatic`
/// always takes it: a core has no lanes to keep together, and a search per byte costs more than a copy
/// per string at every average length measured (docs/string-gather.md, section 8;
/// docs/data/string_gather-cpu.csv).
/// Char-parallel stays available for tests and comparison.
inline constexpr std::int64_t string_parallel_min_average_bytes = 0;
inline constexpr std::int64_t string_parallel_bytes_per_lane = 0;  // unused: one lane per string
inline constexpr unsigned string_parallel_min_lanes = 1;
inline constexpr unsigned string_parallel_max_lanes = 1;
#endif

/// The strategy `automatic` stands for, given the number of output strings and their total bytes.
inline gather_strategy choose_gather_strategy(std::size_t count, std::int64_t total_bytes) {
  if (count == 0) return gather_strategy::string_parallel;  // nothing to copy either way
  std::int64_t const average = total_bytes / static_cast<std::int64_t>(count);
  return average >= string_parallel_min_average_bytes ? gather_strategy::string_parallel : gather_strategy::char_parallel;
}

/// Lanes (work items) per string for string_parallel: a power of two, so a string's lanes sit in one warp.
inline unsigned string_parallel_lanes(std::int64_t average_bytes) {
  unsigned lanes = string_parallel_min_lanes;
  while (lanes < string_parallel_max_lanes &&
         static_cast<std::int64_t>(lanes) * string_parallel_bytes_per_lane < average_bytes) {
    lanes *= 2;
  }
  return lanes;
}

/// Where output string k comes from: the start and size of source string indices[k]; {nullptr, 0}
/// for k == count, so that an exclusive scan over count + 1 sizes ends with the total. Step 2 reads the
/// starts instead of indices and the source again: at 16,777,216 strings that saves 16 M random reads
/// of source offsets (docs/string-gather.md, section 8).
template <class Source, class IndexIt>
struct locate_gathered {
  Source source;
  IndexIt indices;
  std::size_t count;
  ROWSCAN_HD thrust::tuple<char const*, std::int64_t> operator()(std::size_t k) const {
    if (k == count) return {nullptr, 0};
    string_ref const s = source(static_cast<std::size_t>(indices[k]));
    return {s.data, static_cast<std::int64_t>(s.size)};
  }
};

/// Byte p of the output: upper_bound over the output offsets names the output string k holding p
/// (the last k with offsets[k] <= p; empty strings share their offset with the next one and are
/// skipped); the byte is byte p - offsets[k] of that string's source.
struct char_of_output {
  char const* const* starts;    ///< source start of each output string
  std::int64_t const* offsets;  ///< output offsets, count + 1 entries
  std::size_t count;
  ROWSCAN_HD char operator()(std::int64_t p) const {
    std::int64_t const* const next = thrust::upper_bound(thrust::seq, offsets + 1, offsets + count + 1, p);
    auto const k = static_cast<std::size_t>(next - (offsets + 1));
    return starts[k][p - offsets[k]];
  }
};

namespace detail {

constexpr std::int64_t word_bytes = 16;

/// Sixteen bytes, moved as one aligned access.
struct alignas(16) word16 {
  std::uint32_t part[4];
};

/// p is 16-byte aligned. On the GPU one 128-bit load; on the host a memcpy (no aliasing questions for
/// the host compiler, which still emits one 16-byte move).
ROWSCAN_HD inline word16 load_word(char const* p) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<word16 const*>(p);
#else
  word16 w;
  std::memcpy(&w, p, sizeof w);
  return w;
#endif
}

ROWSCAN_HD inline void store_word(char* p, word16 w) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<word16*>(p) = w;
#else
  std::memcpy(p, &w, sizeof w);
#endif
}

#if !defined(__CUDA_ARCH__) && defined(__BYTE_ORDER__)
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "bytes_at assumes little-endian words, as on NVIDIA GPUs");
#endif

/// Bits [bits, bits + 32) of hi:lo; bits is 0, 8, 16 or 24 (nvcc makes this one funnel shift).
ROWSCAN_HD inline std::uint32_t funnel_right(std::uint32_t lo, std::uint32_t hi, unsigned bits) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(hi) << 32 | lo) >> bits);
}

/// Parts Q..Q+4 of the eight 4-byte parts c, shifted right by `bits` (constant indices: on the GPU
/// the parts stay in registers).
template <unsigned Q>
ROWSCAN_HD word16 shifted_parts(std::uint32_t const (&c)[8], unsigned bits) {
  return word16{{funnel_right(c[Q], c[Q + 1], bits), funnel_right(c[Q + 1], c[Q + 2], bits),
                 funnel_right(c[Q + 2], c[Q + 3], bits), funnel_right(c[Q + 3], c[Q + 4], bits)}};
}

/// The 16 bytes that start `shift` bytes into the 32 bytes lo, hi (0 < shift < 16).
ROWSCAN_HD inline word16 bytes_at(word16 const& lo, word16 const& hi, unsigned shift) {
  std::uint32_t const c[8] = {lo.part[0], lo.part[1], lo.part[2], lo.part[3], hi.part[0], hi.part[1], hi.part[2], hi.part[3]};
  unsigned const bits = (shift % 4) * 8;
  switch (shift / 4) {
    case 0: return shifted_parts<0>(c, bits);
    case 1: return shifted_parts<1>(c, bits);
    case 2: return shifted_parts<2>(c, bits);
    default: return shifted_parts<3>(c, bits);
  }
}

/// Bytes between p and the w-byte boundary before it (w a power of two).
ROWSCAN_HD inline unsigned misalignment(char const* p, std::int64_t w = word_bytes) {
  return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(p) % static_cast<std::uintptr_t>(w));
}

/// How a string of n bytes is copied: a head, whole w-byte words, a tail, aligned to the destination.
///   head   bytes [0, head): those before the first w-byte aligned destination address (plus w more
///          when the shifted case below needs them);
///   words  w-byte aligned stores at head, head + w, ..., head + w (words - 1). When the source has the
///          same alignment (shift == 0), each word comes from one aligned w-byte load. When it does not,
///          each comes from the two aligned source words around it, shifted into place (bytes_at); those
///          loads read whole aligned words, so the head grows by w bytes where needed for the first one
///          to start inside the string, and the words stop while the second one still ends inside it;
///   tail   bytes [head + w words, n).
/// Every access lies inside [0, n) of both strings (tests/test_string_gather.cu checks this for every
/// pair of alignments and every length up to 300). Too short a string for one word (under w to 3w
/// bytes, by alignment) is all head.
///
/// Why shifted loads rather than falling back to narrower accesses for mismatched alignments: the
/// gathered strings start at arbitrary offsets, so source and destination agree mod 16 only one time in
/// 16; narrower accesses would cost 2-4 memory instructions per 16 bytes on most strings, while the
/// shifted form keeps one store and one new load per word (its other load is the neighbouring word's,
/// a cache hit) for a few register shifts.
struct word_plan {
  std::int64_t head;
  std::int64_t words;
  unsigned shift;  ///< (source address of byte `head`) mod w
};

/// The plan for n bytes in w-byte words, whose destination starts dst_misalignment bytes, and source
/// src_misalignment bytes, after a w-byte boundary.
ROWSCAN_HD inline word_plan plan_words(unsigned dst_misalignment, unsigned src_misalignment, std::int64_t n,
                                       std::int64_t w = word_bytes) {
  std::int64_t head = (w - static_cast<std::int64_t>(dst_misalignment)) % w;
  auto const shift = static_cast<unsigned>((src_misalignment + head) % w);
  if (shift != 0 && head < static_cast<std::int64_t>(shift)) head += w;  // first source word: byte head - shift >= 0
  std::int64_t const span = n - head + static_cast<std::int64_t>(shift);  // bytes from that word to the end
  std::int64_t const words = span / w - (shift != 0 ? 1 : 0);  // shifted words read one aligned word further
  if (words <= 0) return {n, 0, 0};
  return {head, words, shift};
}

/// Four bytes at a 4-byte aligned p (on the host by memcpy, like load_word).
ROWSCAN_HD inline std::uint32_t load_quad(char const* p) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<std::uint32_t const*>(p);
#else
  std::uint32_t q;
  std::memcpy(&q, p, sizeof q);
  return q;
#endif
}

ROWSCAN_HD inline void store_quad(char* p, std::uint32_t q) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<std::uint32_t*>(p) = q;
#else
  std::memcpy(p, &q, sizeof q);
#endif
}

/// Lane `lane` of `lanes`'s share of copying n bytes (a short string, or the head or tail of a long one)
/// by plan_words in 4-byte words: a string of 32 bytes takes about 8 memory instructions instead of 32.
/// Not one template with copy_bytes_slice's 16-byte loop: that form (a loop per shift case here too)
/// measured slower on short strings (a branch per shift case splits a warp whose lanes' strings have
/// different shifts); this loop picks the shifted or plain word per word, so those lanes stay together.
ROWSCAN_HD inline void copy_quads_slice(char* dst, char const* src, std::int64_t n, unsigned lane, unsigned lanes) {
  constexpr std::int64_t w = 4;
  word_plan const plan = plan_words(misalignment(dst, w), misalignment(src, w), n, w);
  for (std::int64_t i = lane; i < plan.head; i += lanes) dst[i] = src[i];
  char* const out = dst + plan.head;
  char const* const in = src + plan.head - plan.shift;  // 4-byte aligned, inside the string
  unsigned const bits = plan.shift * 8;
  for (std::int64_t k = lane; k < plan.words; k += lanes) {
    std::uint32_t const lo = load_quad(in + k * w);
    store_quad(out + k * w, bits == 0 ? lo : funnel_right(lo, load_quad(in + k * w + w), bits));
  }
  for (std::int64_t i = plan.head + plan.words * w + lane; i < n; i += lanes) dst[i] = src[i];
}

/// Lane `lane` of `lanes`'s share of copying the n bytes at src to dst by plan_words: 16-byte words in
/// the middle, 4-byte words (copy_quads_slice) in the head and tail and for strings too short for a
/// 16-byte word. Lanes share each part round-robin (lane j copies words j, j + lanes, ...), so when
/// consecutive work items of one warp are the lanes of one string, every access of the warp covers one
/// contiguous stretch of it.
ROWSCAN_HD inline void copy_bytes_slice(char* dst, char const* src, std::int64_t n, unsigned lane, unsigned lanes) {
  constexpr std::int64_t w = word_bytes;
  word_plan const plan = plan_words(misalignment(dst), misalignment(src), n);
  copy_quads_slice(dst, src, plan.head, lane, lanes);
  char* const out = dst + plan.head;
  if (plan.shift == 0) {
    char const* const in = src + plan.head;
    for (std::int64_t k = lane; k < plan.words; k += lanes) store_word(out + k * w, load_word(in + k * w));
  } else {
    char const* const in = src + plan.head - plan.shift;  // 16-byte aligned, inside the string
    for (std::int64_t k = lane; k < plan.words; k += lanes) {
      store_word(out + k * w, bytes_at(load_word(in + k * w), load_word(in + k * w + w), plan.shift));
    }
  }
  std::int64_t const tail = plan.head + plan.words * w;
  copy_quads_slice(dst + tail, src + tail, n - tail, lane, lanes);
}

}  // namespace detail

/// Work item `item` of string_parallel: lane item % lanes of output string k = item / lanes
/// (lanes = 1 << lane_bits) copies its share of the string from starts[k] to chars + offsets[k].
struct copy_string_slice {
  char const* const* starts;    ///< source start of each output string
  std::int64_t const* offsets;  ///< output offsets
  char* chars;                  ///< output chars
  unsigned lane_bits;
  ROWSCAN_HD void operator()(std::size_t item) const {
    std::size_t const k = item >> lane_bits;
    auto const lane = static_cast<unsigned>(item & ((std::size_t{1} << lane_bits) - 1));
    detail::copy_bytes_slice(chars + offsets[k], starts[k], offsets[k + 1] - offsets[k], lane, 1u << lane_bits);
  }
};

/// Step 1: where each output string comes from and where it goes. Writes count + 1 source starts
/// (starts[k] = source(indices[k]).data; starts[count] = nullptr) and count + 1 offsets (offsets[k] =
/// bytes of the output strings before k), and returns the total, offsets[count] (one read back to the
/// host, which waits for the scan).
///
/// Two passes, because one was slower: an inclusive scan of {start, size} pairs that keeps the later
/// start does it in one, but a scan of 16-byte pairs moves twice the bytes of this transform and a scan
/// of 8-byte sizes, and measured slower on the GPU (docs/string-gather.md, section 8).
template <class Source, class IndexIt>
std::int64_t gathered_offsets(Source source, IndexIt indices, std::size_t count, char const** starts,
                              std::int64_t* offsets, context const& ctx = {}) {
  auto const n = static_cast<std::ptrdiff_t>(count + 1);
  thrust::transform(ctx.policy(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(count + 1),
                    thrust::make_zip_iterator(starts, offsets), locate_gathered<Source, IndexIt>{source, indices, count});
  thrust::exclusive_scan(ctx.policy(), offsets, offsets + n, offsets, std::int64_t{0});  // sizes -> offsets, in place
  std::int64_t total = 0;
  copy_to_host(offsets + count, 1, &total, ctx);
  return total;
}

/// Step 2, char-parallel: one transform over the `total` output bytes.
inline void gather_chars_char_parallel(char const* const* starts, std::size_t count, std::int64_t const* offsets,
                                       std::int64_t total, char* chars, context const& ctx = {}) {
  if (total == 0) return;
  thrust::transform(ctx.policy(), thrust::counting_iterator<std::int64_t>(0), thrust::counting_iterator<std::int64_t>(total),
                    chars, char_of_output{starts, offsets, count});
}

/// Step 2, string-parallel: one for_each over count x lanes work items (lanes a power of two, 1 to 256;
/// over 32, a string's lanes fill whole warps).
inline void gather_chars_string_parallel(char const* const* starts, std::size_t count, std::int64_t const* offsets,
                                         char* chars, unsigned lanes, context const& ctx = {}) {
  unsigned lane_bits = 0;
  while ((1u << lane_bits) < lanes && lane_bits < 8) ++lane_bits;
  std::size_t const items = count << lane_bits;
  thrust::for_each(ctx.policy(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(items),
                   copy_string_slice{starts, offsets, chars, lane_bits});
}

/// Step 2 with a strategy: fills chars[0, total) given the starts and offsets of step 1.
inline void gather_chars(char const* const* starts, std::size_t count, std::int64_t const* offsets, std::int64_t total,
                         char* chars, gather_strategy strategy = gather_strategy::automatic, context const& ctx = {}) {
  if (strategy == gather_strategy::automatic) strategy = choose_gather_strategy(count, total);
  if (total == 0) return;  // only empty strings (or none)
  if (strategy == gather_strategy::char_parallel) {
    gather_chars_char_parallel(starts, count, offsets, total, chars, ctx);
  } else {
    unsigned const lanes = string_parallel_lanes(total / static_cast<std::int64_t>(count));
    gather_chars_string_parallel(starts, count, offsets, chars, lanes, ctx);
  }
}

/// Output string k is source(indices[k]), for k < count. Source is any functor index -> string_ref that
/// runs on the device system (a column_view, or names inside a text chunk); indices may repeat and come
/// in any order, and every one must name a source string. Reads and writes only the bytes of the strings
/// themselves (tests/test_string_gather.cu checks it against guard pages on the CPU and under
/// compute-sanitizer on the GPU). The output's memory comes from ctx's pool; nothing in it is written twice.
template <class Source, class IndexIt>
strings_column gather_strings(Source source, IndexIt indices, std::size_t count,
                              gather_strategy strategy = gather_strategy::automatic, context const& ctx = {}) {
  device_buffer<char const*> starts(count + 1, ctx.memory());  // from step 1 to step 2 only
  device_buffer<std::int64_t> offsets(count + 1, ctx.memory());
  char const** const s = thrust::raw_pointer_cast(starts.data());
  std::int64_t* const o = thrust::raw_pointer_cast(offsets.data());
  std::int64_t const total = gathered_offsets(source, indices, count, s, o, ctx);
  device_buffer<char> chars(static_cast<std::size_t>(total), ctx.memory());
  gather_chars(s, count, o, total, thrust::raw_pointer_cast(chars.data()), strategy, ctx);
  return strings_column(std::move(chars), std::move(offsets));
}

/// Output string k is strings[indices[k]].
template <class Index>
strings_column gather_strings(strings_column const& strings, thrust::device_vector<Index> const& indices,
                              gather_strategy strategy = gather_strategy::automatic, context const& ctx = {}) {
  return gather_strings(column_view(strings), thrust::raw_pointer_cast(indices.data()), indices.size(), strategy, ctx);
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan
