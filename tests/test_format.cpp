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
            "[{\"name\": \"A, \\\"b\\\"\", \"min\": -1.5, \"mean\": 0.3, \"max\": 2.0, \"count\": 2},\n"
            " {\"name\": \"tab\\u0009here\\\\\\u0001\", \"min\": 0.3, \"mean\": 0.3, \"max\": 0.3, \"count\": 1}]\n");
}

TEST(Format, JsonEscapesEachByteThatIsNotUtf8AsALoneSurrogate) {
  using rowscan::stations::json_string;
  EXPECT_EQ(json_string("Z\xc3\xbcrich \xe6\x9d\xb1 \xf0\x9f\x98\x80\x7f"), "\"Z\xc3\xbcrich \xe6\x9d\xb1 \xf0\x9f\x98\x80\x7f\"");
  EXPECT_EQ(json_string("\xff"), "\"\\udcff\"");
  EXPECT_EQ(json_string("\x80"), "\"\\udc80\"");                         // a lone continuation byte
  EXPECT_EQ(json_string("\xc0\xaf"), "\"\\udcc0\\udcaf\"");               // an overlong '/'
  EXPECT_EQ(json_string("\xc3("), "\"\\udcc3(\"");                        // a truncated sequence
  EXPECT_EQ(json_string("\xed\xa0\x80"), "\"\\udced\\udca0\\udc80\"");    // an encoded surrogate
  EXPECT_EQ(json_string("\xf4\x90\x80\x80"), "\"\\udcf4\\udc90\\udc80\\udc80\"");  // above U+10FFFF
  EXPECT_EQ(json_string("a\xe2\x82"), "\"a\\udce2\\udc82\"");            // cut by the end
  EXPECT_EQ(json_string("\xe2\x82\xac\xe2\x82"), "\"\xe2\x82\xac\\udce2\\udc82\"");
}

TEST(Format, CsvQuotesWhenNeeded) {
  std::ostringstream out;
  rowscan::stations::write_csv(out, two_stations());
  EXPECT_EQ(out.str(), "name,min,mean,max,count\n\"A, \"\"b\"\"\",-1.5,0.3,2.0,2\nZürich,0.3,0.3,0.3,1\n");
}

TEST(Format, Names) {
  EXPECT_EQ(rowscan::stations::parse_output_format("csv"), rowscan::stations::output_format::csv);
  EXPECT_THROW(rowscan::stations::parse_output_format("xml"), rowscan::error);
}

}  // namespace
