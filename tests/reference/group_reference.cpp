// SPDX-License-Identifier: Apache-2.0
// The scalar reference for `rowscan group` (group_reference.hpp).
#include "reference/group_reference.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

namespace reference {
namespace {

using int128 = __int128;

std::string digits_of(int128 v, unsigned scale) {
  bool const negative = v < 0;
  std::string s;
  unsigned __int128 m = negative ? static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(v)
                                 : static_cast<unsigned __int128>(v);
  while (m > 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  }
  if (s.size() < scale + 1) s.insert(0, scale + 1 - s.size(), '0');
  if (scale > 0) s.insert(s.size() - scale, ".");
  return (negative ? "-" : "") + s;
}

/// Half up, toward +infinity.
int128 mean_of(int128 sum, std::uint64_t count) {
  auto const n = static_cast<int128>(count);
  int128 const q = sum / n;
  int128 const r = sum % n;
  if (r >= 0) return 2 * r >= n ? q + 1 : q;
  return -2 * r > n ? q - 1 : q;
}

/// The length of the well-formed UTF-8 sequence at s[i] (Unicode's table 3-7), 0 if none starts there.
std::size_t utf8_at(std::string const& s, std::size_t i) {
  auto b = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  unsigned const c = b(0);
  if (c < 0x80) return 1;
  struct form {
    unsigned first_lo, first_hi, second_lo, second_hi;
    std::size_t length;
  };
  static form const forms[] = {{0xC2, 0xDF, 0x80, 0xBF, 2}, {0xE0, 0xE0, 0xA0, 0xBF, 3}, {0xE1, 0xEC, 0x80, 0xBF, 3},
                               {0xED, 0xED, 0x80, 0x9F, 3}, {0xEE, 0xEF, 0x80, 0xBF, 3}, {0xF0, 0xF0, 0x90, 0xBF, 4},
                               {0xF1, 0xF3, 0x80, 0xBF, 4}, {0xF4, 0xF4, 0x80, 0x8F, 4}};
  for (form const& f : forms) {
    if (c < f.first_lo || c > f.first_hi) continue;
    if (b(1) < f.second_lo || b(1) > f.second_hi) return 0;
    for (std::size_t k = 2; k < f.length; ++k) {
      if (b(k) < 0x80 || b(k) > 0xBF) return 0;
    }
    return f.length;
  }
  return 0;
}

/// A key field as text: each byte outside a well-formed sequence becomes U+FFFD.
std::string text_of(std::string const& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t const n = utf8_at(s, i);
    out += n == 0 ? std::string("\xEF\xBF\xBD") : s.substr(i, n);
    i += n == 0 ? 1 : n;
  }
  return out;
}

/// The fields' hex, '.' between them, where one is not UTF-8; "" where all are.
std::string key_hex_of(std::vector<std::string> const& fields) {
  bool all_text = true;
  for (std::string const& f : fields) all_text = all_text && text_of(f) == f;  // a replacement lengthens it
  if (all_text) return "";
  std::string out;
  char pair[3];
  for (std::size_t k = 0; k < fields.size(); ++k) {
    if (k > 0) out += '.';
    for (char c : fields[k]) {
      std::snprintf(pair, sizeof pair, "%02x", static_cast<unsigned char>(c));
      out += pair;
    }
  }
  return out;
}

std::string csv_of(std::string const& s) {
  bool need = false;
  for (char c : s) need = need || c == ',' || c == '"' || c == '\r' || c == '\n';
  if (!s.empty() && (s[0] == ' ' || s[s.size() - 1] == ' ')) need = true;
  if (!need) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

struct number {
  bool missing = false;
  std::int64_t mantissa = 0;
  unsigned digits = 0;
};

/// The value grammar [+-]?[0-9]+(.[0-9]+)?, at most 18 significant digits and 18 after the point, and
/// no more after it than scale (>= 0); the offset of the first byte that breaks a rule, or nothing.
std::optional<std::size_t> parse_number(std::string const& s, int scale, number& out) {
  out = number{};
  if (s.empty()) {
    out.missing = true;
    return std::nullopt;
  }
  std::size_t i = 0;
  bool negative = false;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    i = 1;
  }
  auto digit = [&](std::size_t k) { return k < s.size() && s[k] >= '0' && s[k] <= '9'; };
  std::size_t const whole_begin = i;
  unsigned significant = 0;
  std::int64_t m = 0;
  while (digit(i)) {
    if (significant > 0 || s[i] != '0') {
      if (++significant > 18) return i;
      m = m * 10 + (s[i] - '0');
    }
    ++i;
  }
  if (i == whole_begin) return i;
  unsigned fraction = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (digit(i)) {
      ++fraction;
      if (scale >= 0 && static_cast<int>(fraction) > scale) return i;
      if (significant > 0 || s[i] != '0') {
        if (++significant > 18) return i;
      }
      if (fraction > 18) return i;
      m = m * 10 + (s[i] - '0');
      ++i;
    }
    if (fraction == 0) return i;
  }
  if (i != s.size()) return i;
  out.mantissa = negative ? -m : m;
  out.digits = fraction;
  return std::nullopt;
}

struct stats {
  std::uint64_t count = 0;
  std::uint64_t missing = 0;
  std::vector<number> present;
};

}  // namespace

std::vector<reference_record> split_records(std::string_view text, char quote) {
  std::vector<reference_record> out;
  bool quoted = false;
  std::size_t begin = 0, line = 0, begin_line = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (quote != 0 && text[i] == quote) quoted = !quoted;
    if (text[i] == '\n') {
      ++line;
      if (!quoted) {
        out.push_back({begin, i + 1, begin_line});
        begin = i + 1;
        begin_line = line;
      }
    }
  }
  if (begin < text.size()) out.push_back({begin, text.size(), begin_line});
  return out;
}

std::string group_answer(std::vector<std::string> const& files, group_format const& format, std::uint64_t* skipped) {
  std::uint32_t columns = 0;
  for (auto c : format.keys) columns = std::max(columns, c + 1);
  for (auto c : format.values) columns = std::max(columns, c + 1);
  std::map<std::string, std::vector<stats>> groups;
  for (std::string const& text : files) {
    std::vector<reference_record> const records = split_records(text, format.quote);
    for (std::size_t r = format.header ? 1 : 0; r < records.size(); ++r) {
      std::string_view rec = std::string_view(text).substr(records[r].begin, records[r].end - records[r].begin);
      if (!rec.empty() && rec.back() == '\n') {
        rec.remove_suffix(1);
        if (!rec.empty() && rec.back() == '\r') rec.remove_suffix(1);
      }
      if (rec.empty()) continue;  // a blank line
      // The state machine, field by field; the first fault stops it (column: offset + 1).
      enum { start, plain, inside, closing } state = start;
      std::vector<std::string> fields;
      std::string raw;       // the field's bytes as written between its quotes
      std::string unquoted;  // each doubled quote once
      std::size_t raw_begin = 0, field_begin = 0;
      std::optional<std::size_t> fault;
      std::vector<number> values(format.values.size());
      auto finish_field = [&]() -> bool {
        std::uint32_t const index = static_cast<std::uint32_t>(fields.size());
        fields.push_back(unquoted);
        for (std::size_t j = 0; j < format.values.size(); ++j) {
          if (format.values[j] != index) continue;
          if (auto at = parse_number(raw, format.scale, values[j])) {
            fault = raw_begin + *at;
            return false;
          }
        }
        raw.clear();
        unquoted.clear();
        return true;
      };
      std::size_t i = 0;
      for (; i < rec.size() && !fault; ++i) {
        char const c = rec[i];
        bool const is_quote = format.quote != 0 && c == format.quote;
        switch (state) {
          case start:
            field_begin = i;
            if (is_quote) {
              state = inside;
              raw_begin = i + 1;
            } else if (c == format.delimiter) {
              raw_begin = i;
              if (!finish_field()) break;
            } else {
              state = plain;
              raw_begin = i;
              raw += c;
              unquoted += c;
            }
            break;
          case plain:
            if (c == format.delimiter) {
              if (finish_field()) state = start;
            } else if (is_quote) {
              fault = i;
            } else {
              raw += c;
              unquoted += c;
            }
            break;
          case inside:
            if (is_quote)
              state = closing;
            else {
              raw += c;
              unquoted += c;
            }
            break;
          case closing:
            if (is_quote) {
              raw += c;
              raw += c;
              unquoted += c;
              state = inside;
            } else if (c == format.delimiter) {
              if (finish_field()) state = start;
            } else {
              fault = i;
            }
            break;
        }
      }
      if (!fault) {
        if (state == inside)
          fault = field_begin;
        else {
          if (state == start) raw_begin = rec.size();
          if (finish_field() && fields.size() < columns) fault = rec.size();
        }
      }
      if (fault) {
        if (skipped == nullptr) throw bad_record(records[r].line + 1, *fault + 1);
        ++*skipped;
        continue;
      }
      std::string key;
      for (std::size_t k = 0; k < format.keys.size(); ++k) {
        if (k > 0) key += '\0';
        key += fields[format.keys[k]];
      }
      auto& g = groups[key];
      g.resize(format.values.size());
      for (std::size_t j = 0; j < format.values.size(); ++j) {
        if (values[j].missing)
          ++g[j].missing;
        else {
          ++g[j].count;
          g[j].present.push_back(values[j]);
        }
      }
    }
  }
  std::vector<unsigned> scales(format.values.size(), format.scale >= 0 ? static_cast<unsigned>(format.scale) : 0u);
  if (format.scale < 0) {
    for (auto const& [key, g] : groups) {
      for (std::size_t j = 0; j < g.size(); ++j) {
        for (number const& n : g[j].present) scales[j] = std::max(scales[j], n.digits);
      }
    }
  }
  std::string out;
  if (format.keys.size() == 1)
    out += "key";
  else {
    for (std::size_t k = 0; k < format.keys.size(); ++k) out += (k > 0 ? ",key" : "key") + std::to_string(k + 1);
  }
  out += format.values.size() > 1 ? ",value,count,missing,min,mean,max,sum,key_hex\n"
                                  : ",count,missing,min,mean,max,sum,key_hex\n";
  for (auto const& [key, g] : groups) {  // std::map<std::string> orders keys by their bytes, unsigned
    std::string shown;
    std::vector<std::string> fields;
    std::size_t at = 0;
    for (std::size_t k = 0; k < format.keys.size(); ++k) {
      std::size_t const end = k + 1 < format.keys.size() ? key.find('\0', at) : key.size();
      fields.push_back(key.substr(at, end - at));
      shown += (k > 0 ? "," : "") + csv_of(text_of(fields.back()));
      at = end + 1;
    }
    std::string const hex = key_hex_of(fields);
    for (std::size_t j = 0; j < g.size(); ++j) {
      out += shown;
      if (format.values.size() > 1) {
        out += "," +
               (j < format.value_names.size() ? csv_of(text_of(format.value_names[j])) : std::to_string(format.values[j] + 1));
      }
      out += "," + std::to_string(g[j].count) + "," + std::to_string(g[j].missing) + ",";
      if (g[j].count == 0) {
        out += ",,,," + hex + "\n";
        continue;
      }
      int128 sum = 0, lo = 0, hi = 0;
      bool first = true;
      for (number const& n : g[j].present) {
        int128 v = n.mantissa;
        for (unsigned d = n.digits; d < scales[j]; ++d) v *= 10;
        sum += v;
        lo = first || v < lo ? v : lo;
        hi = first || v > hi ? v : hi;
        first = false;
      }
      out += digits_of(lo, scales[j]) + "," + digits_of(mean_of(sum, g[j].count), scales[j]) + "," +
             digits_of(hi, scales[j]) + "," + digits_of(sum, scales[j]) + "," + hex + "\n";
    }
  }
  return out;
}

}  // namespace reference
