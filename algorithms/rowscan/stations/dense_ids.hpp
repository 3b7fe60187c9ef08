// SPDX-License-Identifier: Apache-2.0
// rowscan/stations/dense_ids.hpp: the fast path's parse, which names each line's station by a small id.
//
// Once the stations of a file are known (the running table, sorted by key, is the dictionary), a
// line's station is the position of its name in that table: a lower_bound over the keys, confirmed by
// comparing the name's bytes. Rows then carry a 2-byte id and 2-byte tenths instead of an 8-byte key,
// and the sort that groups them has 16 bits to sort, not 64.
//
// The parse reads a line from its end: the temperature "-?d?d.d" and the ';' before it sit in the last
// 4 to 6 bytes, so the name's length is known without scanning it. The name is then read eight bytes
// at a time, to hash it and to compare it with the dictionary's copy. Only a name found in the
// dictionary is accepted, and dictionary names are valid (1..100 bytes, no ';'), so an accepted line
// is exactly a line parse_line accepts. Anything else gets the sentinel id, which sorts after every
// station: one look at the last group tells whether the chunk needs the general path, which then
// learns the new stations or reports the first bad line.
#pragma once

#include "rowscan/config.hpp"
#include "rowscan/stations/line_format.hpp"
#include "rowscan/stations/summary.hpp"

#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/tuple.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN

/// A station's position in the dictionary, or the sentinel below.
using station_id = std::uint16_t;
/// The line is not known to the dictionary: a new station, or a bad line.
constexpr station_id needs_general_path = 0xFFFF;
/// Dictionaries larger than this leave the fast path (ids must stay below the sentinel).
constexpr std::size_t max_dictionary_size = max_fast_path_stations;
static_assert(max_dictionary_size == needs_general_path, "every id below the sentinel names a station");

/// The host systems' ids past max_dictionary_size stations: 32 bits. There a worker folds each line into
/// its station's row by the id, so the id's width costs only the dictionary's bytes; the GPU's fold sorts
/// its ids, and 16 bits keep that sort short (docs/stations.md, "A million stations").
using wide_station_id = std::uint32_t;
/// The most stations a wide dictionary names (its directory must hold every position, and the sentinel).
constexpr std::size_t max_wide_dictionary_size = 0xFFFFFFFEu;

/// Sizes of the dictionary's arrays for ids of type Id: the sentinel, the largest dictionary and the
/// directory's buckets.
template <class Id>
struct id_layout;

template <>
struct id_layout<station_id> {
  static constexpr std::size_t max_stations = max_dictionary_size;
  static constexpr std::uint32_t max_directory_bits = 16;
  static constexpr std::size_t buckets_per_station = ROWSCAN_HAS_CUB ? 4 : 16;
};

/// A wide dictionary (over 65,535 stations) has four buckets a station, as the GPU's: sixteen would make
/// its directory and first ids 128 bytes a station, read at random; with four (32 bytes) about 88% of
/// names are their bucket's first station, found without a walk.
template <>
struct id_layout<wide_station_id> {
  static constexpr std::size_t max_stations = max_wide_dictionary_size;
  static constexpr std::uint32_t max_directory_bits = 24;
  static constexpr std::size_t buckets_per_station = 4;
};

/// The sentinel id of a dictionary with ids of type Id: all ones, above every station's.
template <class Id>
ROWSCAN_HD constexpr Id unknown_station() {
  return static_cast<Id>(~Id{0});
}

/// The shortest valid line with its '\n' ("a;0.0\n"): a chunk of n bytes has at most n / 6 + 1 lines.
constexpr std::size_t min_line_bytes = 6;

/// The directory splits the keys by their top bits: keys of bucket b are [directory[b], directory[b + 1]).
/// 256 to 65,536 buckets: every lookup reads the directory at random. On the GPU about four buckets a
/// station (sixteen measured no faster there: docs/gpu-profile.md). On the host sixteen: a name then shares
/// its bucket with an earlier key less often, and a lookup compares the bucket's first entry before any
/// walk (dictionary_view::find_words), whose branch a core mispredicts each time it must walk. 413
/// stations' 8,192 buckets (16 KiB) stay in a core's L1 cache; 10,000 stations' 65,536 (128 KiB) in its
/// L2, and more measured slower there (docs/data/host_lookup-h100.csv).
constexpr std::uint32_t min_directory_bits = 8;
constexpr std::uint32_t max_directory_bits = id_layout<station_id>::max_directory_bits;
constexpr std::size_t directory_buckets_per_station = id_layout<station_id>::buckets_per_station;

/// A directory entry: the first entry of a bucket (dictionaries hold at most max_dictionary_size, so 16
/// bits hold every position up to the end), half the bytes of a 32-bit index to keep in a core's cache.
using directory_index = std::uint16_t;
static_assert(max_dictionary_size <= 0xFFFF, "directory_index must hold every position");

/// The directory's bits for a dictionary of `stations` names with ids of type Id.
template <class Id = station_id>
ROWSCAN_HD std::uint32_t directory_bits_for(std::size_t stations) {
  std::uint32_t bits = min_directory_bits;
  while (bits < id_layout<Id>::max_directory_bits &&
         (std::size_t{1} << bits) < id_layout<Id>::buckets_per_station * stations)
    ++bits;
  return bits;
}

/// Little-endian 8-byte words of the bytes at p, zero above the name's end: the words of name_hash.
struct name_words {
  char const* p;
#if ROWSCAN_HAS_CUB
  /// The 8 bytes at p + offset. Aligned 8-byte loads joined by shifts (the text has 16 bytes of padding
  /// after its end, and a name is never at its very start unless the start is aligned, so no load
  /// leaves the allocation).
  ROWSCAN_HD std::uint64_t word_at(std::uint32_t offset) const {
    auto const address = reinterpret_cast<std::uintptr_t>(p) + offset;
    auto const* aligned = reinterpret_cast<std::uint64_t const*>(address & ~std::uintptr_t{7});
    unsigned const shift = static_cast<unsigned>(address & 7) * 8;
    return shift == 0 ? aligned[0] : (aligned[0] >> shift) | (aligned[1] << (64 - shift));
  }
  /// Word 1 of a name of `size` bytes: 0 for a name of at most 8.
  ROWSCAN_HD std::uint64_t second_word(std::uint32_t size) const { return size > 8 ? (*this)(1, size - 8) : 0; }
#else
  /// The 8 bytes at p + offset: one unaligned load (the same padding makes it safe).
  std::uint64_t word_at(std::uint32_t offset) const {
    std::uint64_t w = 0;
    std::memcpy(&w, p + offset, sizeof w);
    return w;
  }
  /// Word 1 of a name of `size` bytes: 0 for a name of at most 8. Loaded whatever the size (a name,
  /// ';' and a temperature leave bytes p[8, 16) readable) and masked, so the size takes no branch.
  std::uint64_t second_word(std::uint32_t size) const {
    std::uint32_t const rest = size > 8 ? size - 8 : 0;
    return word_at(8) & (rest >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * rest)) - 1);
  }
#endif
  /// Word i of the name, `remaining` of its bytes from there (zero above the name's end).
  ROWSCAN_HD std::uint64_t operator()(std::uint32_t i, std::uint32_t remaining) const {
    std::uint64_t const w = word_at(8u * i);
    return remaining >= 8 ? w : w & ((std::uint64_t{1} << (8 * remaining)) - 1);
  }
};

/// The words of a name that neither its first two words nor its last word hold: words 2 to (size - 1) / 8
/// - 1, which only names over 24 bytes have, each xor-ed in and multiplied, so that their order counts.
/// 0 for a name of at most 24 bytes. word(i) is the name's word i.
template <class Words>
ROWSCAN_HD std::uint64_t middle_key(Words const& word, std::uint32_t size) {
  std::uint64_t m = 0;
  std::uint32_t const last = (size - 1) / 8;  // the word that holds the name's last byte (its tail has it whole)
  for (std::uint32_t i = 2; i < last; ++i) m = (m ^ word(i)) * 0xff51afd7ed558ccdull;
  return m;
}

/// The fast path's lookup key of a name: its first two words, its last word (names over 16 bytes), its
/// middle words (middle_key, names over 24 bytes) and its size. The first three and the size are each
/// times an odd constant and xor-ed: the products are independent, so a name of up to 24 bytes costs
/// about one multiply's latency where name_hash chains a multiply per word and three more at the end.
/// Every byte of a name is in its key, so names that share their first 16 and last 8 bytes (`Weather
/// station #12345 (auto)`) differ in it like any others, and a lookup meets a second name of its key only
/// by chance (docs/stations.md, "Names that share their ends"). Only the dictionary's own index is
/// sorted by it; the name comparison decides.
ROWSCAN_HD inline std::uint64_t lookup_key(std::uint64_t w0, std::uint64_t w1, std::uint64_t tail, std::uint64_t middle,
                                           std::uint32_t size) {
  std::uint64_t const k = (w0 * 0x9e3779b97f4a7c15ull) ^ (w1 * 0xc2b2ae3d27d4eb4full) ^ (tail * 0x165667b19e3779f9ull) ^
                          (size * 0xd6e8feb86659fd93ull) ^ middle;
  return k ^ (k >> 29);  // the low words' high bits reach the bucket bits too
}

/// A name's word i, read from the text (middle_key's words of a name being looked up).
struct text_word {
  name_words read;
  ROWSCAN_HD std::uint64_t operator()(std::uint32_t i) const { return read.word_at(8 * i); }
};

/// What a lookup reads of one station, in one 16-byte load (24 with a wide id): its lookup key, where
/// its padded name words start, its size and its id (its place in the table).
template <class Id>
struct basic_dictionary_entry {
  std::uint64_t key;
  std::uint32_t first_word;  ///< the name starts at words[first_word]
  std::uint16_t size;        ///< the name's bytes
  Id id;
};
using dictionary_entry = basic_dictionary_entry<station_id>;

/// A station's name as a lookup compares it first, with the bucket's first id: its first two words (zero
/// above its end) and its size. Indexed by station id; one more, of size 0, that no name matches.
/// 24 bytes: 413 stations' records, first ids and rows take 10 + 16 + 7 KiB of a core's L1 cache.
struct name_record {
  std::uint64_t w0;
  std::uint64_t w1;
  std::uint32_t size;
};

/// What a name over 16 bytes is compared with beside its name_record: its last word (lookup_key), so
/// that a name of up to 24 bytes is whole in the two, and where its padded words start, for the middle
/// of a longer one. Indexed by station id like name_record, and apart from it, so that the short names'
/// records stay 24 bytes.
struct long_name_record {
  std::uint64_t tail;
  std::uint32_t first_word;
};

/// Orders entries by key, for lower_bound.
struct entry_key_below {
  template <class Entry>
  ROWSCAN_HD bool operator()(Entry const& e, std::uint64_t key) const {
    return e.key < key;
  }
};

/// Whether a name of more than 16 bytes equals the padded words theirs from byte 16 on: full words,
/// then its last word masked (a mask per word, readied for every word a name may have, cost the host
/// fold more than the comparison).
ROWSCAN_HD inline bool same_after_16(std::uint64_t const* theirs, name_words const& read, std::uint32_t size) {
  std::uint32_t const last = (size - 1) / 8;  // the word that holds the name's last byte
  for (std::uint32_t i = 2; i < last; ++i)
    if (theirs[i] != read.word_at(8 * i)) return false;
  return theirs[last] == read(last, size - 8 * last);
}

/// The known stations, laid out for lookups: one entry per station in lookup_key order (equal keys
/// adjacent), the directory, and each name zero-padded to whole words so a comparison is a few 8-byte
/// loads. Id is station_id (16 bits), or wide_station_id for the host systems' dictionaries past
/// max_dictionary_size stations; the directory's entries are of the same type, to hold every position.
template <class Id>
struct basic_dictionary_view {
  using id_type = Id;
  /// find's answer for a name the dictionary does not know.
  static constexpr Id unknown = unknown_station<Id>();

  basic_dictionary_entry<Id> const* entries;
  Id const* directory;
  std::uint64_t const* words;         ///< every name's padded words, back to back
  Id const* first_ids;                ///< per bucket, the id of its first entry (for an empty one, of the next)
  name_record const* name_records;    ///< per station id, and one of size 0 for the id after the last
  long_name_record const* long_names; ///< per station id, the same count
  std::uint64_t key_mask;
  std::uint32_t directory_bits;       ///< a key's bucket is its top directory_bits bits

  /// The id of the station named by the size bytes at name, or unknown.
  ROWSCAN_HD Id find(char const* name, std::uint32_t size) const {
    if (size > max_name_bytes) return unknown;
    name_words const read{name};
    // Names of at most 16 bytes (most of them) take no branch on their size: both first words are
    // read (the second is 0 past the name's end).
    return find_words(name, size, read(0, size), read.second_word(size));
  }

  /// find, given the name's first two words as name_words reads them (zero above the name's end; w1 is
  /// 0 for a name of at most 8 bytes): a parse that has loaded them already passes them on.
  ROWSCAN_HD Id find_words(char const* name, std::uint32_t size, std::uint64_t w0, std::uint64_t w1) const {
#if !ROWSCAN_HAS_CUB
    // On the host a name over 16 bytes is looked up out of line. Its word loop stays out of the host
    // fold's loop, and the compiler no longer keeps that loop's values ready for a call on every line.
    // The host fold then runs fewer instructions a line, and less time, even where few lines have a long
    // name (docs/data/host_lookup-h100.csv).
    if (size > 16) return find_long_name(name, size, w0, w1);
#else
    if (size > 16) return find_long_words(name, size, w0, w1);
#endif
    // A shorter name is most often its bucket's first entry: its id is read from the bucket and its
    // name by the id, compared whole (the same name has the same key) before any walk of the bucket.
    // The lookup then waits for two loads, not for the directory, the entry and the name one after
    // another; on the host the station's row is read by the same id, so a core fetches name and row at
    // once. A bucket with no entries names the next bucket's first, or the record of size 0 after the
    // last station. Faster than the walk on a core and on the GPU, more so with long names
    // (docs/performance.md, "The host engine"; docs/gpu-profile.md; docs/data/host_lookup-h100.csv,
    // docs/data/fast_path_parse-h100.csv).
    std::uint64_t const key = lookup_key(w0, w1, 0, 0, size) & key_mask;
    Id const first = first_ids[key >> (64 - directory_bits)];
    name_record const& theirs = name_records[first];
    if ((theirs.size == size) & (theirs.w0 == w0) & (theirs.w1 == w1)) return first;
    return find_in_bucket(name, size, w0, w1, key);
  }

#if !ROWSCAN_HAS_CUB
  /// find_long_words, out of line (find_words says why).
  [[gnu::noinline]] Id find_long_name(char const* name, std::uint32_t size, std::uint64_t w0, std::uint64_t w1) const {
    return find_long_words(name, size, w0, w1);
  }
#endif

  /// A name of more than 16 bytes, looked up like a short one: its bucket's first id, then that station's
  /// name_record and long_name_record, which hold a name of up to 24 bytes whole; only a longer name
  /// reads its middle words, and only a name that is not its bucket's first walks the bucket. The walk
  /// alone waited for the directory, the entry and the stored name one after another; this waits for two
  /// loads, which pays where many names are long (docs/performance.md, "Long names by their bucket's first
  /// station"; docs/data/host_long_names-h100x2.csv).
  ROWSCAN_HD Id find_long_words(char const* name, std::uint32_t size, std::uint64_t w0, std::uint64_t w1) const {
    name_words const read{name};
    std::uint64_t const tail = read.word_at(size - 8);  // size > 16: inside the name
    std::uint64_t const key = lookup_key(w0, w1, tail, middle_key(text_word{read}, size), size) & key_mask;
    Id const first = first_ids[key >> (64 - directory_bits)];
    name_record const& theirs = name_records[first];
    long_name_record const& rest = long_names[first];  // read beside theirs: both by the same id
    bool const head = (theirs.size == size) & (theirs.w0 == w0) & (theirs.w1 == w1) & (rest.tail == tail);
    if (head && (size <= 24 || same_after_16(words + rest.first_word, read, size))) return first;
    return find_in_bucket(name, size, w0, w1, key);
  }

  /// The walk of the name's bucket, for a name that is not its first station: its key (lookup_key,
  /// masked, as the caller computed it) among the bucket's, then the name itself.
  ROWSCAN_HD Id find_in_bucket(char const* name, std::uint32_t size, std::uint64_t w0, std::uint64_t w1,
                               std::uint64_t key) const {
    name_words const read{name};
    auto const bucket = static_cast<std::uint32_t>(key >> (64 - directory_bits));  // (bits <= 16 < 64)
    basic_dictionary_entry<Id> const* e = entries + directory[bucket];
    basic_dictionary_entry<Id> const* const end = entries + directory[bucket + 1];
    // A bucket holds a quarter of a key on average: a few steps find the first key not below ours,
    // where a binary search would mispredict its branches (it stays for full buckets: --key-bits).
    if (end - e > 4) e = thrust::lower_bound(thrust::seq, e, end, key, entry_key_below{});
    while (e != end && e->key < key) ++e;
    for (; e != end && e->key == key; ++e) {  // more than one only when names share a key
      if (e->size != size) continue;
      std::uint64_t const* theirs = words + e->first_word;  // theirs[1] exists: the words end in a 0
      bool const head = (theirs[0] == w0) & ((size <= 8) | (theirs[1] == w1));
      if (head && (size <= 16 || same_after_16(theirs, read, size))) return e->id;
    }
    return unknown;
  }
};
/// The 16-bit view: the GPU's fast path, and the host's up to max_dictionary_size stations.
using dictionary_view = basic_dictionary_view<station_id>;
/// The host systems' view past max_dictionary_size stations.
using wide_dictionary_view = basic_dictionary_view<wide_station_id>;

/// Parses "...;-?d?d.d" from the end of the line [begin, stop): the tenths and the ';' position.
ROWSCAN_HD inline bool temperature_at_end(char const* text, std::uint32_t begin, std::uint32_t stop, std::int16_t& tenths,
                                          std::uint32_t& separator) {
  std::uint32_t const size = stop - begin;
  char const* t = text + stop;
  if (size < 5 || !is_digit(t[-1]) || t[-2] != '.' || !is_digit(t[-3])) return false;
  // One or two integer digits, and a sign or not, come in any mix: masks, not branches, decide them
  // (a compiler turns a select on them into a branch that misses half the time).
  int const tens_digit = t[-4] - '0';
  auto const two_digits = static_cast<std::uint32_t>(static_cast<unsigned>(tens_digit) <= 9u);
  int value = (t[-3] - '0') * 10 + (t[-1] - '0') + ((tens_digit * 100) & -static_cast<int>(two_digits));
  std::uint32_t used = 3 + two_digits;  // bytes of the temperature so far
  auto const negative = static_cast<std::uint32_t>(t[-static_cast<int>(used) - 1] == '-');  // t[-4] or t[-5]: in the line
  used += negative;
  if (size < used + 2 || t[-static_cast<int>(used) - 1] != ';') return false;  // a name byte and ';' must precede
  separator = stop - used - 1;
  tenths = static_cast<std::int16_t>(negative ? -value : value);
  return true;
}

/// A line's station id and reading: the id is needs_general_path unless the line is valid and its
/// station is in the dictionary.
struct station_reading {
  station_id id;
  std::int16_t tenths;
};

/// Parses the line text[begin, end) ('\n' included, or the text's unterminated last line).
ROWSCAN_HD inline station_reading read_station_line(char const* text, std::uint32_t begin, std::uint32_t end,
                                                    dictionary_view const& dictionary) {
  std::uint32_t const stop = text[end - 1] == '\n' ? end - 1 : end;
  station_reading r{needs_general_path, 0};
  std::uint32_t separator = 0;
  if (temperature_at_end(text, begin, stop, r.tenths, separator)) r.id = dictionary.find(text + begin, separator - begin);
  return r;
}

/// for_each_line's sink on the fast path, its first pass: ends[line] = where the line ends (its '\n'
/// included), for every line below `capacity`. Line i is then [ends[i - 1], ends[i]), line 0 from 0.
struct store_line_end {
  std::uint32_t* ends;
  std::uint32_t capacity;
  ROWSCAN_HD void operator()(std::uint32_t line, std::uint32_t, std::uint32_t end) const {
    if (line < capacity) ends[line] = end;
  }
};

/// The fast path's second pass: line i's station id and reading, from the line ends the scan stored.
/// A transform over the lines gives each thread one line; a sink inside the scan would parse as many
/// lines as its 16-byte word ends (0 to 3 when every line is valid), and a warp would wait for its
/// busiest lane.
struct parse_line_at {
  char const* text;
  std::uint32_t const* ends;
  dictionary_view dictionary;
  ROWSCAN_HD thrust::tuple<station_id, std::int16_t> operator()(std::uint32_t line) const {
    std::uint32_t const begin = line == 0 ? 0 : ends[line - 1];
    station_reading const r = read_station_line(text, begin, ends[line], dictionary);
    return thrust::make_tuple(r.id, r.tenths);
  }
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
