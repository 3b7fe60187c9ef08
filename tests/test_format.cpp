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

TEST(Format, CsvQuotesWhenNeeded) {
  std::ostringstream out;
  rowscan::stations::write_csv(out, two_stations());
  EXPECT_EQ(out.str(), "station,min,mean,max,count\n\"A, \"\"b\"\"\",-1.5,0.3,2.0,2\nZürich,0.3,0.3,0.3,1\n");
}

TEST(Format, Names) {
  EXPECT_EQ(rowscan::stations::parse_output_format("csv"), rowscan::stations::output_format::csv);
  EXPECT_THROW(rowscan::stations::parse_output_format("xml"), rowscan::error);
}

}  // namespace
