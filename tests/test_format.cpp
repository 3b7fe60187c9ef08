// SPDX-License-Identifier: Apache-2.0
// The output formats.
#include "rowscan/error.hpp"
#include "rowscan/stations/format.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace {

using rowscan::stations::format_tenths;
using rowscan::stations::station_summary;

TEST(Format, Tenths) {
  EXPECT_EQ(format_tenths(0), "0.0");
  EXPECT_EQ(format_tenths(5), "0.5");
  EXPECT_EQ(format_tenths(-5), "-0.5");
  EXPECT_EQ(format_tenths(-999), "-99.9");
  EXPECT_EQ(format_tenths(999), "99.9");
  EXPECT_EQ(format_tenths(120), "12.0");
  EXPECT_EQ(format_tenths(-1234567890123), "-123456789012.3");
}

std::vector<station_summary> two_stations() {
  return {{"A, \"b\"", -15, 20, 5, 2}, {"Zürich", 3, 3, 3, 1}};
}

TEST(Format, OneBillionRowChallenge) {
  std::ostringstream out;
  rowscan::stations::write_onebrc(out, two_stations());
  EXPECT_EQ(out.str(), "{A, \"b\"=-1.5/0.3/2.0, Zürich=0.3/0.3/0.3}\n");
  std::ostringstream empty;
  rowscan::stations::write_onebrc(empty, {});
  EXPECT_EQ(empty.str(), "{}\n");
}

TEST(Format, JsonEscapesQuotesAndControls) {
  std::ostringstream out;
  auto stations = two_stations();
  stations[1].name = std::string("tab\there\\") + '\x01';
  rowscan::stations::write_json(out, stations);
  EXPECT_EQ(out.str(),
            "[{\"name\": \"A, \\\"b\\\"\", \"min\": -1.5, \"mean\": 0.3, \"max\": 2.0, \"count\": 2, \"sum\": 0.5, "
            "\"name_hex\": null},\n"
            " {\"name\": \"tab\\u0009here\\\\\\u0001\", \"min\": 0.3, \"mean\": 0.3, \"max\": 0.3, \"count\": 1, "
            "\"sum\": 0.3, \"name_hex\": null}]\n");
}

// Names are bytes; outputs that must be UTF-8 write each byte that is not part of well-formed UTF-8 as
// U+FFFD, and keep the bytes in name_hex.
TEST(Format, NamesThatAreNotUtf8KeepTheirBytesInHex) {
  using rowscan::stations::name_hex;
  using rowscan::stations::text_of_name;
  std::string const fffd = "\xef\xbf\xbd";
  std::string const utf8 = "Z\xc3\xbcrich \xe6\x9d\xb1 \xf0\x9f\x98\x80\x7f";
  EXPECT_EQ(text_of_name(utf8), utf8);
  EXPECT_EQ(name_hex(utf8), "");
  struct named_case {
    std::string bytes, text, hex;
  };
  for (auto const& c : {named_case{"\xff", fffd, "ff"},
                        named_case{"\x80", fffd, "80"},                            // a lone continuation byte
                        named_case{"\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd", "c0af"},  // an overlong '/'
                        named_case{"\xc3(", "\xef\xbf\xbd(", "c328"},  // a truncated sequence
                        named_case{"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "eda080"},  // an encoded surrogate
                        named_case{"\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "f4908080"},  // above U+10FFFF
                        named_case{"a\xe2\x82", "a\xef\xbf\xbd\xef\xbf\xbd", "61e282"},  // cut by the end
                        named_case{"M\xfcnchen", "M\xef\xbf\xbdnchen", "4dfc6e6368656e"}}) {
    EXPECT_EQ(text_of_name(c.bytes), c.text) << c.hex;
    EXPECT_EQ(name_hex(c.bytes), c.hex);
  }
  std::ostringstream json, csv;
  std::vector<station_summary> const one{{"M\xfcnchen", 10, 10, 10, 1}};
  rowscan::stations::write_json(json, one);
  EXPECT_EQ(json.str(), "[{\"name\": \"M" + fffd +
                            "nchen\", \"min\": 1.0, \"mean\": 1.0, \"max\": 1.0, \"count\": 1, \"sum\": 1.0, "
                            "\"name_hex\": \"4dfc6e6368656e\"}]\n");
  rowscan::stations::write_csv(csv, one);
  EXPECT_EQ(csv.str(), "name,min,mean,max,count,sum,name_hex\nM" + fffd + "nchen,1.0,1.0,1.0,1,1.0,4dfc6e6368656e\n");
}

TEST(Format, CsvQuotesWhenNeeded) {
  std::ostringstream out;
  rowscan::stations::write_csv(out, two_stations());
  EXPECT_EQ(out.str(),
            "name,min,mean,max,count,sum,name_hex\n\"A, \"\"b\"\"\",-1.5,0.3,2.0,2,0.5,\nZürich,0.3,0.3,0.3,1,0.3,\n");
}

TEST(Format, Names) {
  EXPECT_EQ(rowscan::stations::parse_output_format("csv"), rowscan::stations::output_format::csv);
  EXPECT_THROW(rowscan::stations::parse_output_format("xml"), rowscan::error);
}

}  // namespace
