// SPDX-License-Identifier: Apache-2.0
// The reference is the oracle of the other suites, so it is checked on answers worked out by hand.
#include "reference/stations_reference.hpp"

#include <gtest/gtest.h>

namespace {

TEST(Reference, HandWorkedAnswers) {
  EXPECT_EQ(reference::stations_answer(""), "{}\n");
  EXPECT_EQ(reference::stations_answer("b;1.0\na;-2.5\nb;2.0\nb;-0.0"), "{a=-2.5/-2.5/-2.5, b=0.0/1.0/2.0}\n");
  EXPECT_EQ(reference::stations_answer("k;-0.1\nk;-0.2\n"), "{k=-0.2/-0.1/-0.1}\n");
  EXPECT_EQ(reference::stations_answer("k;0.1\nk;0.2\n"), "{k=0.1/0.2/0.2}\n");
  EXPECT_EQ(reference::stations_answer("\xc3\xa9;1.0\nz;1.0\n"), "{z=1.0/1.0/1.0, \xc3\xa9=1.0/1.0/1.0}\n");
}

TEST(Reference, ReportsTheFirstBadLine) {
  try {
    reference::stations_answer("a;1.0\nb;1.23\nc\n");
    FAIL();
  } catch (reference::bad_input const& e) {
    EXPECT_EQ(e.line, 2u);
    EXPECT_EQ(e.byte_offset, 8u);
  }
  EXPECT_THROW(reference::stations_answer(std::string(101, 'x') + ";1.0"), reference::bad_input);
  EXPECT_NO_THROW(reference::stations_answer(std::string(100, 'x') + ";1.0"));
}

TEST(Reference, CarriageReturnAfterAGoodTemperatureIsReportedAtTheCarriageReturn) {
  auto offset_of_error = [](std::string const& text) {
    try {
      reference::stations_answer(text);
    } catch (reference::bad_input const& e) {
      return e.byte_offset;
    }
    return std::uint64_t{999};
  };
  EXPECT_EQ(offset_of_error("a;1.0\r\n"), 5u);     // the '\r'
  EXPECT_EQ(offset_of_error("a;-99.9\r"), 7u);      // without the '\n' too
  EXPECT_EQ(offset_of_error("a;1.23\r\n"), 2u);    // a bad temperature first: at the field
  EXPECT_EQ(offset_of_error("a;\r\n"), 2u);
  EXPECT_EQ(offset_of_error("a;1.0\r\r\n"), 2u);  // two '\r': not a CR LF line ending
}

}  // namespace
