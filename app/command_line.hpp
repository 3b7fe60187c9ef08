// app/command_line.hpp: the option handling every subcommand shares.
#pragma once

#include <cxxopts.hpp>

#include <initializer_list>
#include <iostream>
#include <optional>
#include <utility>

namespace rowscan::app {

/// A required option and the usage error given when it is missing.
using required_option = std::pair<char const*, char const*>;

/// Adds -h/--help, parses, and prints the help (returning nothing) when asked. Throws a cxxopts usage
/// error for a missing required option or a stray argument.
inline std::optional<cxxopts::ParseResult> parse_command_line(cxxopts::Options& options, int argc, char** argv,
                                                              std::initializer_list<required_option> required) {
  options.add_options()("h,help", "this text");
  auto args = options.parse(argc, argv);
  if (args.count("help")) {
    std::cout << options.help();
    return std::nullopt;
  }
  for (auto const& [name, message] : required) {
    if (!args.count(name)) throw cxxopts::exceptions::specification(message);
  }
  if (!args.unmatched().empty()) {
    throw cxxopts::exceptions::specification("unexpected argument '" + args.unmatched()[0] + "'");
  }
  return args;
}

}  // namespace rowscan::app
