// SPDX-License-Identifier: Apache-2.0
// generate_lineitem.cpp: a TPC-H lineitem.tbl generator in dbgen's format (dbgen itself is not shipped).
//
// The columns `rowscan lineitem` reads follow the specification's domains exactly (l_suppkey,
// l_quantity, l_extendedprice); the others are plausible by the same rules. Everything random comes
// from generate/random.hpp streams, one per block of orders, so the bytes depend only on the options.
#include "rowscan/io/write_all.hpp"
#include "rowscan/generate/lineitem.hpp"
#include "rowscan/generate/random.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace rowscan::generate {
namespace {

/// Independent streams of one seed: the comment text and each block of orders get their own.
enum class stream_tag : std::uint64_t { text = 101, orders = 102 };

random_stream make_rng(std::uint64_t seed, stream_tag tag, std::uint64_t index) {
  return random_stream(seed, static_cast<std::uint64_t>(tag), index);
}

// ---------------------------------------------------------------------------------------------------
// Dates: day numbers from STARTDATE (1992-01-01) to ENDDATE (1998-12-31), TPC-H 4.2.3

constexpr int start_year = 1992;
constexpr int end_year = 1998;

/// Days since 1970-01-01 of a civil date (proleptic Gregorian; Howard Hinnant's days_from_civil).
constexpr long days_from_civil(long y, unsigned m, unsigned d) {
  y -= m <= 2;
  long const era = (y >= 0 ? y : y - 399) / 400;
  auto const yoe = static_cast<unsigned>(y - era * 400);
  unsigned const doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  unsigned const doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long>(doe) - 719468;
}

constexpr long start_day = days_from_civil(start_year, 1, 1);
constexpr int end_date = static_cast<int>(days_from_civil(end_year, 12, 31) - start_day);   // ENDDATE
constexpr int current_date = static_cast<int>(days_from_civil(1995, 6, 17) - start_day);    // CURRENTDATE
constexpr int last_order_date = end_date - 151;

/// "YYYY-MM-DD" for every day of STARTDATE..ENDDATE.
std::vector<std::array<char, 10>> make_dates() {
  std::vector<std::array<char, 10>> dates;
  unsigned const month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  for (int y = start_year; y <= end_year; ++y) {
    bool const leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    for (unsigned m = 1; m <= 12; ++m) {
      unsigned const days = month_days[m - 1] + (m == 2 && leap ? 1 : 0);
      for (unsigned d = 1; d <= days; ++d) {
        char text[11];
        std::snprintf(text, sizeof text, "%04d-%02u-%02u", y, m, d);
        std::array<char, 10> date{};
        std::memcpy(date.data(), text, 10);
        dates.push_back(date);
      }
    }
  }
  return dates;
}

// ---------------------------------------------------------------------------------------------------
// Words: the specification's lists (4.2.2.13 and 4.2.3)

constexpr std::array<std::string_view, 4> instructions = {"DELIVER IN PERSON", "COLLECT COD", "NONE",
                                                          "TAKE BACK RETURN"};
constexpr std::array<std::string_view, 7> modes = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};

constexpr std::array<std::string_view, 20> nouns = {
    "foxes", "ideas", "theodolites", "pinto beans", "instructions", "dependencies", "excuses",
    "platelets", "asymptotes", "courts", "dolphins", "multipliers", "sauternes", "warthogs",
    "frets", "dinos", "attainments", "somas", "packages", "accounts"};
constexpr std::array<std::string_view, 16> verbs = {"sleep", "wake", "are", "cajole", "haggle", "nag", "use",
                                                    "boost", "affix", "detect", "integrate", "maintain",
                                                    "nod", "was", "lose", "sublate"};
constexpr std::array<std::string_view, 16> adjectives = {"furious", "sly", "careful", "blithe", "quick", "fluffy",
                                                         "slow", "quiet", "ruthless", "thin", "close", "dogged",
                                                         "regular", "final", "ironic", "even"};
constexpr std::array<std::string_view, 16> adverbs = {"sometimes", "always", "never", "furiously", "slyly",
                                                      "carefully", "blithely", "quickly", "fluffily", "slowly",
                                                      "quietly", "ruthlessly", "thinly", "closely", "finally",
                                                      "ironically"};
constexpr std::array<std::string_view, 12> prepositions = {"about", "above", "according to", "across", "after",
                                                           "against", "along", "among", "around", "at", "before",
                                                           "beside"};

template <std::size_t N>
std::string_view pick(random_stream& random, std::array<std::string_view, N> const& words) {
  return words[random.below(N)];
}

/// A text of dbgen-like sentences ("blithely regular foxes haggle slyly above the ideas. ..."); each
/// comment is a random slice of it, as in dbgen, so comments often start or end inside a word.
std::string make_comment_text(std::uint64_t seed, std::size_t size) {
  random_stream random = make_rng(seed, stream_tag::text, 0);
  std::string text;
  text.reserve(size + 128);
  while (text.size() < size) {
    if (random.below(2) == 0) (text += pick(random, adverbs)) += ' ';
    if (random.below(2) == 0) (text += pick(random, adjectives)) += ' ';
    (text += pick(random, nouns)) += ' ';
    text += pick(random, verbs);
    if (random.below(2) == 0) (text += ' ') += pick(random, adverbs);
    ((text += ' ') += pick(random, prepositions)) += " the ";
    text += pick(random, nouns);
    text += random.below(4) == 0 ? "! " : ". ";
  }
  return text;
}

// ---------------------------------------------------------------------------------------------------
// Rows

constexpr std::uint64_t orders_per_block = std::uint64_t{1} << 14;  // fixed: part of the output's definition
constexpr std::size_t comment_text_bytes = std::size_t{1} << 20;
constexpr std::size_t max_row_bytes = 256;  // the longest row is about 170 bytes

/// Appends the decimal digits of v.
char* put_uint(char* out, std::uint64_t v) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0) *out++ = digits[--n];
  return out;
}

/// Appends cents as dollars with two decimals.
char* put_cents(char* out, std::uint64_t cents) {
  out = put_uint(out, cents / 100);
  *out++ = '.';
  *out++ = static_cast<char>('0' + cents / 10 % 10);
  *out++ = static_cast<char>('0' + cents % 10);
  return out;
}

char* put_text(char* out, std::string_view text) {
  std::memcpy(out, text.data(), text.size());
  return out + text.size();
}

char* put_date(char* out, std::array<char, 10> const& date) {
  std::memcpy(out, date.data(), date.size());
  return out + date.size();
}

struct tables {
  lineitem_sizes sizes;
  std::vector<std::array<char, 10>> dates;
  std::string comments;
};

/// Formats the rows of the orders of block number `block` into buffer; returns {bytes, rows}. Only the
/// block number picks the random stream, so the bytes do not depend on which thread runs the block.
std::pair<std::size_t, std::uint64_t> fill_block(std::uint64_t block, std::uint64_t seed, tables const& t,
                                                 std::vector<char>& buffer) {
  random_stream random = make_rng(seed, stream_tag::orders, block);
  std::uint64_t const first_order = block * orders_per_block;
  std::uint64_t const orders = std::min(orders_per_block, t.sizes.orders - first_order);
  // About 4 rows of 140 bytes per order; the buffer grows in the rare block that needs more.
  buffer.resize(std::max<std::size_t>(buffer.size(), orders * 600 + 7 * max_row_bytes));
  char* out = buffer.data();
  std::uint64_t rows = 0;
  for (std::uint64_t o = first_order; o < first_order + orders; ++o) {
    if (static_cast<std::size_t>(buffer.data() + buffer.size() - out) < 7 * max_row_bytes) {
      auto const used = static_cast<std::size_t>(out - buffer.data());
      buffer.resize(buffer.size() + buffer.size() / 2);
      out = buffer.data() + used;
    }
    std::uint64_t const orderkey = (o / 8) * 32 + o % 8 + 1;  // sparse keys: the first 8 of every 32
    auto const order_date = static_cast<int>(random.below(last_order_date + 1));
    std::uint32_t const lines = random.between(1, 7);
    for (std::uint32_t line = 1; line <= lines; ++line) {
      std::uint64_t const partkey = random.below64(t.sizes.parts) + 1;
      std::uint64_t const suppkey = supplier_of(partkey, random.below(4), t.sizes.suppliers);
      std::uint32_t const quantity = random.between(1, 50);
      std::uint32_t const discount = random.between(0, 10);
      std::uint32_t const tax = random.between(0, 8);
      int const ship = order_date + static_cast<int>(random.between(1, 121));
      int const commit = order_date + static_cast<int>(random.between(30, 90));
      int const receipt = ship + static_cast<int>(random.between(1, 30));
      char const return_flag = receipt <= current_date ? (random.below(2) == 0 ? 'R' : 'A') : 'N';
      char const line_status = ship > current_date ? 'O' : 'F';
      std::string_view const instruct = pick(random, instructions);
      std::string_view const mode = pick(random, modes);
      std::uint32_t const comment_size = random.between(10, 43);
      std::size_t const comment_at = random.below(static_cast<std::uint32_t>(t.comments.size() - comment_size));

      out = put_uint(out, orderkey);
      *out++ = '|';
      out = put_uint(out, partkey);
      *out++ = '|';
      out = put_uint(out, suppkey);
      *out++ = '|';
      out = put_uint(out, line);
      *out++ = '|';
      out = put_uint(out, quantity);
      *out++ = '|';
      out = put_cents(out, quantity * retail_price_cents(partkey));
      *out++ = '|';
      out = put_cents(out, discount);
      *out++ = '|';
      out = put_cents(out, tax);
      *out++ = '|';
      *out++ = return_flag;
      *out++ = '|';
      *out++ = line_status;
      *out++ = '|';
      out = put_date(out, t.dates[static_cast<std::size_t>(ship)]);
      *out++ = '|';
      out = put_date(out, t.dates[static_cast<std::size_t>(commit)]);
      *out++ = '|';
      out = put_date(out, t.dates[static_cast<std::size_t>(receipt)]);
      *out++ = '|';
      out = put_text(out, instruct);
      *out++ = '|';
      out = put_text(out, mode);
      *out++ = '|';
      out = put_text(out, std::string_view(t.comments).substr(comment_at, comment_size));
      *out++ = '|';
      *out++ = '\n';
      ++rows;
    }
  }
  return {static_cast<std::size_t>(out - buffer.data()), rows};
}

}  // namespace

lineitem_sizes lineitem_table_sizes(double scale) {
  if (!(scale >= 0.0001 && scale <= 100000)) {
    throw std::invalid_argument("lineitem: the scale factor must be from 0.0001 to 100000, not " + std::to_string(scale));
  }
  auto count = [scale](double per_unit) {
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(scale * per_unit)));
  };
  return {count(1'500'000), count(200'000), count(10'000)};
}

std::uint64_t write_lineitem(int fd, lineitem_options const& options, io::write_progress const& progress) {
  tables const t{lineitem_table_sizes(options.scale), make_dates(), make_comment_text(options.seed, comment_text_bytes)};

  std::uint64_t const blocks = (t.sizes.orders + orders_per_block - 1) / orders_per_block;
  std::atomic<std::uint64_t> rows{0};  // a sum of per-block counts: the same for any thread count
  io::write_blocks(
      fd, blocks,
      [&](std::uint64_t block, std::vector<char>& buffer) {
        auto const [bytes, block_rows] = fill_block(block, options.seed, t, buffer);
        rows += block_rows;
        return bytes;
      },
      "write_lineitem", progress);
  return rows;
}

}  // namespace rowscan::generate
