// SPDX-License-Identifier: Apache-2.0
// `rowscan group` and `rowscan generate sales` as a user runs them, against the scalar reference
// (reference/group_reference.hpp): randomized texts (fixed seeds, printed on failure) read with several
// chunk sizes and worker counts, and named edge cases.
#include "reference/group_reference.hpp"
#include "support/cli_fixture.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using support::read_file;
using support::write_file;
using CliGroup = support::cli_fixture;

/// A random field: empty, plain, or quoted with commas, doubled quotes, CR or LF inside; now and then
/// up to 1,000 bytes long.
std::string random_key(std::mt19937_64& random) {
  std::size_t const size = random() % 50 == 0 ? random() % 1001 : random() % 6;
  static char const plain[] = "abcAB\xc3\xa9 ;";
  static char const quotable[] = "ab,\"\n\r x";
  bool const quoted = random() % 3 == 0;
  std::string text;
  for (std::size_t i = 0; i < size; ++i) text += quoted ? quotable[random() % 8] : plain[random() % 9];
  if (!quoted) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

/// A random value: empty (missing), or a decimal with 0 to 3 digits after the point, maybe quoted.
std::string random_value(std::mt19937_64& random) {
  if (random() % 8 == 0) return random() % 2 ? "" : "\"\"";
  std::string v = random() % 3 == 0 ? "-" : random() % 10 == 0 ? "+" : "";
  v += std::to_string(random() % 100000);
  if (unsigned const digits = random() % 4) {
    v += '.';
    for (unsigned d = 0; d < digits; ++d) v += static_cast<char>('0' + random() % 10);
  }
  return random() % 6 == 0 ? "\"" + v + "\"" : v;
}

/// A bad field: one of the faults the reader reports.
std::string random_fault(std::mt19937_64& random) {
  // Each with an even number of quotes: an odd one would make the rest of the file one quoted record
  // (NamedEdgeCases has that case).
  static char const* const faults[] = {"1.2.3", "x", "1e5", "ab\"\"c", "\"a\"b", "12.", "-", "1234567890123456789"};
  return faults[random() % 8];
}

struct random_file {
  std::string text;
  reference::group_format format;
};

/// A file of 1 to 4 columns and up to 200 records (LF or CR LF, the odd blank line), with one bad
/// field when `fault`.
random_file make_file(std::uint64_t seed, bool fault) {
  std::mt19937_64 random(seed);
  random_file out;
  std::uint32_t const columns = 1 + random() % 4;
  out.format.keys = {static_cast<std::uint32_t>(random() % columns)};
  out.format.values = {static_cast<std::uint32_t>(random() % columns)};
  if (columns > 2 && random() % 3 == 0) out.format.values.push_back((out.format.values[0] + 1) % columns);
  bool const same_column = out.format.keys[0] == out.format.values[0];
  std::size_t const records = random() % 200;
  std::size_t const bad = fault && records > 0 ? random() % records : records;
  std::vector<std::string> keys(12);  // few distinct keys, so that groups have several records
  for (std::string& key : keys) key = random_key(random);
  for (std::size_t r = 0; r < records; ++r) {
    if (random() % 40 == 0) {
      out.text += "\n";  // a blank line: no record
      continue;
    }
    for (std::uint32_t c = 0; c < columns; ++c) {
      if (c > 0) out.text += ',';
      bool const is_value = std::find(out.format.values.begin(), out.format.values.end(), c) != out.format.values.end();
      if (r == bad && c == out.format.values[0])
        out.text += random_fault(random);
      else if (is_value || same_column)
        out.text += random_value(random);
      else if (c == out.format.keys[0])
        out.text += keys[random() % keys.size()];
      else
        out.text += random_key(random);
    }
    bool const last = r + 1 == records;
    if (!last || random() % 2) out.text += random() % 4 == 0 ? "\r\n" : "\n";
  }
  return out;
}

/// The CLI's --key and --value for a format (positions from 1).
std::string columns_option(std::vector<std::uint32_t> const& columns) {
  std::string out;
  for (std::uint32_t c : columns) out += (out.empty() ? "" : ",") + std::to_string(c + 1);
  return out;
}

TEST_F(CliGroup, RandomTextsMatchTheReferenceAtEveryChunkSizeAndWorkerCount) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    random_file const f = make_file(seed, false);
    write_file(path("in.csv"), f.text);
    std::string const expected = reference::group_answer({f.text}, f.format);
    std::string const columns =
        " --key " + columns_option(f.format.keys) + " --value " + columns_option(f.format.values);
    // --key-bits 2: four hash values for every key, so the exact byte-comparing fallback sorts them.
    for (char const* how :
         {"--chunk-size 2K --threads 1", "--chunk-size 2500 --threads 3", "--chunk-size 8K --threads 2", "",
          "--key-bits 2 --chunk-size 4K --threads 2", "--key-bits 0"}) {
      auto const r = run("group '" + path("in.csv") + "'" + columns + " " + how);
      ASSERT_EQ(r.exit_code, 0) << how << "\n" << r.err;
      ASSERT_EQ(r.out, expected) << how;
    }
  }
}

TEST_F(CliGroup, BadRecordsStopAtTheReferencesLineAndColumnOrAreSkipped) {
  for (std::uint64_t seed = 100; seed <= 130; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    random_file const f = make_file(seed, true);
    write_file(path("in.csv"), f.text);
    std::string const columns =
        " --key " + columns_option(f.format.keys) + " --value " + columns_option(f.format.values);
    std::string where;
    try {
      reference::group_answer({f.text}, f.format);
    } catch (reference::bad_record const& e) {
      where = path("in.csv") + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": ";
    }
    for (char const* how : {"--chunk-size 2K", "--chunk-size 3000 --threads 3"}) {
      auto r = run("group '" + path("in.csv") + "'" + columns + " " + how);
      if (where.empty()) {
        EXPECT_EQ(r.exit_code, 0) << r.err;
        continue;
      }
      EXPECT_EQ(r.exit_code, 1);
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(r.err.rfind("rowscan: error: " + where, 0), 0u) << r.err;
      std::uint64_t skipped = 0;
      std::string const expected = reference::group_answer({f.text}, f.format, &skipped);
      r = run("group '" + path("in.csv") + "'" + columns + " --skip-invalid " + how);
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out, expected);
      EXPECT_NE(r.err.find("skipped " + std::to_string(skipped) + " invalid line"), std::string::npos) << r.err;
    }
  }
}

TEST_F(CliGroup, AQuotedNewlineAcrossEveryBlockBoundary) {
  // One long quoted field full of newlines and doubled quotes: at chunk sizes from 128 up, the reader's
  // blocks end inside it in every place, and it must still be one record.
  std::string text = "k,v\n";
  for (int r = 0; r < 40; ++r) {
    text += "\"key " + std::to_string(r % 3) + "\n\"\"x\"\",\n\"," + std::to_string(r) + ".5\n";
  }
  write_file(path("in.csv"), text);
  reference::group_format format;
  format.header = true;
  format.keys = {0};
  format.values = {1};
  std::string const expected = reference::group_answer({text}, format);
  for (int chunk = 128; chunk <= 400; chunk += 7) {
    auto const r =
        run("group '" + path("in.csv") + "' --header --key k --value v --chunk-size " + std::to_string(chunk));
    ASSERT_EQ(r.exit_code, 0) << chunk << "\n" << r.err;
    ASSERT_EQ(r.out, expected) << chunk;
  }
}

TEST_F(CliGroup, NamedEdgeCases) {
  // A key whose values are all missing: count 0, empty figures; the mean rounds half up.
  auto r = run("group - --key 1 --value 2", "a,\nb,1.5\nb,-2\nb,1\na,\"\"\nc,-0.25\nc,-0.5\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "key,count,missing,min,mean,max,sum,key_hex\n"
            "a,0,2,,,,,\n"
            "b,3,0,-2.00,0.17,1.50,0.50,\n"  // the column's scale: the most digits after the point in it
            "c,2,0,-0.50,-0.37,-0.25,-0.75,\n");
  // One column, key and value alike; CR LF; no '\n' at the end.
  r = run("group - --key 1 --value 1", "1\r\n2\r\n1");
  EXPECT_EQ(r.out, "key,count,missing,min,mean,max,sum,key_hex\n1,2,0,1,1,1,2,\n2,1,0,2,2,2,2,\n");
  // Header names, a tab delimiter, --scale, json.
  r = run("group - --header --key city --value t --delimiter '\\t' --scale 2 --format json",
          "city\tt\n\"Paris, FR\"\t1.5\n");
  EXPECT_EQ(r.exit_code, 2) << r.err;  // names need the header of a FILE
  write_file(path("t.tsv"), "city\tt\n\"Paris, FR\"\t1.5\n");
  r = run("group '" + path("t.tsv") + "' --header --key city --value t --delimiter '\\t' --scale 2 --format json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "[\n  {\"key\": \"Paris, FR\", \"count\": 1, \"missing\": 0, \"min\": 1.50, \"mean\": 1.50, "
            "\"max\": 1.50, \"sum\": 1.50, \"key_hex\": null}\n]\n");
  r = run("group '" + path("t.tsv") + "' --header --key cty --value t --delimiter '\\t'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean"), std::string::npos) << r.err;
  // --scale smaller than a value's digits is an error at that digit.
  r = run("group '" + path("t.tsv") + "' --header --key 1 --value 2 --delimiter '\\t' --scale 0");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("rowscan: error: " + path("t.tsv") + ":2:15: ", 0), 0u) << r.err;
  // An error's line counts the quoted newlines before it; its column counts from the record's start.
  r = run("group - --key 1 --value 2", "\"a\nb\",1\nc,x\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("rowscan: error: <stdin>:3:3: a value that is not a decimal number", 0), 0u) << r.err;
  // A quoted field that never ends.
  r = run("group - --key 1 --value 2", "a,1\n\"b,2\nc,3\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(":2:1: a quoted field that does not end"), std::string::npos) << r.err;
  // A stray quote makes the rest of the file one quoted record: longer than the reader carries, an error.
  r = run("group - --key 1 --value 2 --chunk-size 128", "a,1\nb\",2\n" + std::string(300, 'x') + "\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("<stdin>:2:1: record longer than 128 bytes"), std::string::npos) << r.err;
  // --no-quote: quotes are data.
  r = run("group - --key 1 --value 2 --no-quote", "\"a,1\n\"a,2\n");
  EXPECT_EQ(r.out, "key,count,missing,min,mean,max,sum,key_hex\n\"\"\"a\",2,0,1,2,2,3,\n");
  // A composite key and two value columns.
  r = run("group - --key 1,2 --value 3,4", "a,x,1,2\na,y,3,\na,x,5,6\n");
  EXPECT_EQ(r.out,
            "key1,key2,value,count,missing,min,mean,max,sum,key_hex\n"
            "a,x,3,2,0,1,3,5,6,\na,x,4,2,0,2,4,6,8,\na,y,3,1,0,3,3,3,3,\na,y,4,0,1,,,,,\n");
  // Keys that are not UTF-8: U+FFFD for each such byte, the bytes in key_hex (each field's, '.' between).
  r = run("group - --key 1,2 --value 3", "M\xfc,x,1\nok,y,2\n");
  EXPECT_EQ(r.out,
            "key1,key2,count,missing,min,mean,max,sum,key_hex\n"
            "M\xef\xbf\xbd,x,1,0,1,1,1,1,4dfc.78\nok,y,1,0,2,2,2,2,\n");
  r = run("group - --key 1 --value 2 --format json", "M\xfc,1\n");
  EXPECT_EQ(r.out, "[\n  {\"key\": \"M\xef\xbf\xbd\", \"count\": 1, \"missing\": 0, \"min\": 1, \"mean\": 1, \"max\": 1, "
                   "\"sum\": 1, \"key_hex\": \"4dfc\"}\n]\n");
  // Usage errors.
  EXPECT_EQ(run("group - --key 1").exit_code, 2);
  EXPECT_EQ(run("group - --key 1 --value 2 --delimiter ab").exit_code, 2);
  EXPECT_EQ(run("group - --key 1 --value 2 --quote , ").exit_code, 2);
  EXPECT_EQ(run("group - --key 1 --value 2 --quote x --no-quote").exit_code, 2);
}

TEST_F(CliGroup, TheChallengesFileGivesStationsAnswer) {
  // `group --delimiter ';' --key 1 --value 2 --no-quote --format 1brc` is `rowscan stations`.
  auto r = run("generate measurements --rows 20000 --stations 300 --seed 5 -o '" + path("m.txt") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto const stations = run("stations '" + path("m.txt") + "'");
  ASSERT_EQ(stations.exit_code, 0) << stations.err;
  for (char const* how : {"", "--chunk-size 1K --threads 3"}) {
    r = run("group '" + path("m.txt") + "' --delimiter ';' --key 1 --value 2 --no-quote --format 1brc " + how);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, stations.out) << how;
  }
}

TEST_F(CliGroup, GeneratedSalesMatchTheReferenceFromFilesStdinAndGzip) {
  auto r = run("generate sales --rows 3000 --keys 200 --seed 7 -o '" + path("s.csv") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string const text = read_file(path("s.csv"));
  EXPECT_EQ(text.rfind("order_id,customer,product,city,note,quantity,price\n", 0), 0u);
  EXPECT_NE(text.find("\"\""), std::string::npos);  // doubled quotes
  reference::group_format format;
  format.header = true;
  format.keys = {1};
  format.values = {6, 5};
  format.value_names = {"price", "quantity"};  // with --header, a value column is named by its header
  std::string const expected = reference::group_answer({text}, format);
  r = run("group '" + path("s.csv") + "' --header --key 2 --value 7,6 --chunk-size 4K --threads 3");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
  r = run("group - --header --key 2 --value 7,6", text);  // standard input's header is read by the run alone:
  reference::group_format by_position = format;           // its columns are named by their positions
  by_position.value_names.clear();
  EXPECT_EQ(r.out, reference::group_answer({text}, by_position));
  // Two files, each with its header, answered as one input.
  r = run("group '" + path("s.csv") + "' '" + path("s.csv") +
          "' --header --key customer --value price --chunk-size 4K");
  format.values = {6};
  format.value_names = {"price"};
  EXPECT_EQ(r.out, reference::group_answer({text, text}, format));
  if (std::system(("gzip -c '" + path("s.csv") + "' > '" + path("s.csv.gz") + "'").c_str()) == 0) {
    r = run("group '" + path("s.csv.gz") + "' --header --key customer --value price");
    EXPECT_EQ(r.out, reference::group_answer({text}, format));
  }
  // The same bytes for the same options.
  r = run("generate sales --rows 3000 --keys 200 --seed 7 -o -");
  EXPECT_EQ(r.out, text);
}

TEST_F(CliGroup, ExplainShowsTheScanTheFieldsAndTheAnswer) {
  write_file(path("ex.csv"), "who,amount\n\"Lee, Ann\",2.5\n\"say \"\"hi\"\"\nto\",-1\nLee,\n");
  auto r = run("group '" + path("ex.csv") + "' --header --key who --value amount --explain");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The quoted '\n' at 26 has odd parity: data. The record after it starts at 34, on line 3.
  EXPECT_NE(r.out.find("        26    \\n             1       2            15                1  \n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("        34     L             0       3            34                3  \n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("       1  [15, 34)  1  ok  [16, +13)  (-1, 0)\n"), std::string::npos) << r.out;
  // The second 32-byte word: no quotes, '\n's at 33 and 38, entered with even parity in the record that
  // starts at 15 (the scan's value there).
  EXPECT_NE(r.out.find("     1     32  ................................ / .1....1.........................           0"
                       "                   2 / 0                0        2     15\n"),
            std::string::npos)
      << r.out;
  std::string const answer =
      "key,count,missing,min,mean,max,sum,key_hex\nLee,0,1,,,,,\n\"Lee, Ann\",1,0,2.5,2.5,2.5,2.5,\n"
      "\"say \"\"hi\"\"\nto\",1,0,-1.0,-1.0,-1.0,-1.0,\n";
  EXPECT_EQ(r.out.substr(r.out.size() - answer.size()), answer);
  EXPECT_EQ(run("group '" + path("ex.csv") + "' --header --key who --value amount").out, answer);
  r = run("group '" + path("ex.csv") + "' --header --key who --value amount --explain --chunk-size 1K");
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
