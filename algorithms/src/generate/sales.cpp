// SPDX-License-Identifier: Apache-2.0
// The sales CSV generator (rowscan/generate/sales.hpp).
#include "rowscan/generate/sales.hpp"

#include "rowscan/generate/random.hpp"
#include "rowscan/io/write_all.hpp"

#include <atomic>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace rowscan::generate {
namespace {

constexpr std::uint64_t rows_per_block = 1 << 15;
constexpr std::uint64_t sales_stream_tag = 0x5a1e5;

constexpr std::string_view surnames[] = {"Smith",    "Garcia", "M\xc3\xbcller", "Nguyen",   "O'Brien", "Rossi",
                                         "Kowalski", "Tanaka", "Dubois",        "Silva",    "Ivanova", "Haddad",
                                         "Okafor",   "Jensen", "Popescu",       "Lindqvist"};
constexpr std::string_view given[] = {"Ana", "Bo", "Chloe", "Dmitri", "Eve", "Farid", "Grace", "Hiro", "Ines", "Jon"};
// Already CSV fields: quoted where they hold a comma or a quote (doubled).
constexpr std::string_view products[] = {"USB cable",
                                         "\"Monitor, 27\"\"\"",
                                         "Desk lamp",
                                         "\"Chair \"\"Ergo\"\", black\"",
                                         "Notebook",
                                         "\"Pens, blue, 10 pack\"",
                                         "Headphones",
                                         "Keyboard",
                                         "\"Mouse, wireless\"",
                                         "Stapler"};
constexpr std::string_view cities[] = {"Paris",
                                       "\"Portland, OR\"",
                                       "Lagos",
                                       "\"Washington, D.C.\"",
                                       "Osaka",
                                       "Lima",
                                       "S\xc3\xa3o Paulo",
                                       "\"Cambridge, MA\""};
constexpr std::string_view notes[] = {"\"gift, wrap it\"", "\"call before \"\"delivery\"\"\"", "urgent",
                                      "\"leave at door, side gate\"", "\"deliver\nafter 5pm\""};

void put(std::string& out, std::string_view s) { out.append(s.data(), s.size()); }

/// The customer field of customer c: "Customer c", or quoted "Surname, Given c" for every seventh.
void put_customer(std::string& out, std::uint64_t c) {
  if (c % 7 == 0) {
    out += '"';
    put(out, surnames[c % 16]);
    out += ", ";
    put(out, given[(c / 16) % 10]);
    out += ' ';
    out += std::to_string(c);
    out += '"';
  } else {
    out += "Customer ";
    out += std::to_string(c);
  }
}

std::size_t fill_block(std::uint64_t block, sales_options const& options, std::vector<char>& buffer) {
  random_stream random(options.seed, sales_stream_tag, block);
  std::uint64_t const first = block * rows_per_block;
  std::uint64_t const last = std::min(options.rows, first + rows_per_block);
  std::string out;
  out.reserve((last - first) * 72 + 64);
  if (block == 0) out += "order_id,customer,product,city,note,quantity,price\n";
  double const spread = std::log(static_cast<double>(options.customers) + 1);
  for (std::uint64_t row = first; row < last; ++row) {
    // Log-uniform rank: rank r is met about 1/r as often as rank 1 (a skewed, Zipf-like frequency).
    auto customer = static_cast<std::uint64_t>(std::exp(random.unit() * spread)) - 1;
    if (customer >= options.customers) customer = options.customers - 1;
    out += std::to_string(row + 1);
    out += ',';
    put_customer(out, customer + 1);
    out += ',';
    put(out, products[random.below(10)]);
    out += ',';
    put(out, cities[random.below(8)]);
    out += ',';
    std::uint32_t const note = random.below(2000);
    if (note == 0)
      put(out, notes[4]);  // the odd newline inside a quoted field
    else if (note < 200)
      put(out, notes[note % 4]);
    out += ',';
    if (random.below(50) != 0) out += std::to_string(random.between(1, 20));
    out += ',';
    if (random.below(100) != 0) {
      std::uint32_t const cents = random.between(50, 99999);
      out += std::to_string(cents / 100);
      out += '.';
      out += static_cast<char>('0' + cents / 10 % 10);
      out += static_cast<char>('0' + cents % 10);
    }
    out += '\n';
  }
  buffer.assign(out.begin(), out.end());
  return buffer.size();
}

}  // namespace

std::uint64_t write_sales(int fd, sales_options const& options, io::write_progress const& progress) {
  std::uint64_t const blocks = options.rows == 0 ? 1 : (options.rows + rows_per_block - 1) / rows_per_block;
  std::atomic<std::uint64_t> bytes{0};
  io::write_blocks(
      fd, blocks,
      [&](std::uint64_t block, std::vector<char>& buffer) {
        std::size_t const n = fill_block(block, options, buffer);
        bytes += n;
        return n;
      },
      "write_sales", progress);
  return bytes;
}

}  // namespace rowscan::generate
