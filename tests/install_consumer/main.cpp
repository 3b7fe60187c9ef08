// SPDX-License-Identifier: Apache-2.0
// The installed library's host API: read a measurements file, print the challenge's answer.
//   consumer FILE
#include <rowscan/io/input_file.hpp>
#include <rowscan/stations/format.hpp>
#include <rowscan/stations/summarize.hpp>

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer FILE\n";
    return 2;
  }
  try {
    rowscan::io::input_file input(argv[1]);
    auto const result = rowscan::stations::summarize(input.fd(), input.label(), {});
    rowscan::stations::write_onebrc(std::cout, result.stations);
    return std::cout.flush() ? 0 : 1;
  } catch (std::exception const& e) {
    std::cerr << "consumer: " << e.what() << '\n';
    return 1;
  }
}
