// SPDX-License-Identifier: Apache-2.0
// app/option_values.hpp: the values of command-line options, checked. Every bad value is a usage error
// (exit 2) that names its option: `--chunk-size: '1e6' is not a size (bytes, or with K, M or G: 64M)`.
#pragma once

#include "rowscan/error.hpp"

#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>
#include <cstddef>

namespace rowscan::app {

/// A usage error: a missing, unknown or malformed option. main prints it and exits with 2.
using rowscan::usage_error;

/// A size in bytes: digits, optionally followed by K, M or G (also KiB, MiB, GiB, KB, MB, GB; any
/// case), every suffix binary: 1K = 1KB = 1KiB = 1024, 64M = 64MB = 67,108,864. Throws usage_error naming option unless it is one from min to max.
std::uint64_t parse_size(char const* option, std::string const& text, std::uint64_t min, std::uint64_t max);

/// A whole number in decimal digits. Throws usage_error naming option unless it is one from min to max.
std::uint64_t parse_whole_number(char const* option, std::string const& text, std::uint64_t min, std::uint64_t max);

/// A count: a whole number in decimal digits, or in e-notation whose value is whole (1e9, 2.5e6).
/// Throws usage_error naming option unless it is one from min to max.
std::uint64_t parse_count(char const* option, std::string const& text, std::uint64_t min, std::uint64_t max);

/// A decimal number such as 0.01, 1 or 1e3. Throws usage_error naming option unless it is a finite
/// number from min to max.
double parse_decimal(char const* option, std::string const& text, double min, double max);

/// text itself if it is one of choices; throws usage_error naming option and listing them otherwise.
std::string parse_choice(char const* option, std::string const& text, std::initializer_list<char const*> choices);

/// The Levenshtein distance between two words (insertions, deletions and substitutions of bytes).
std::size_t edit_distance(std::string const& a, std::string const& b);

/// "; did you mean 'X'?" for the candidate closest to word, if one is close (at most a third of the
/// word's length, and at least 1, edits away); "" otherwise. quote_prefix goes before X (e.g. "--").
std::string did_you_mean(std::string const& word, std::initializer_list<char const*> candidates,
                         std::string const& quote_prefix = "");
std::string did_you_mean(std::string const& word, std::vector<std::string> const& candidates,
                         std::string const& quote_prefix = "");

/// A size as the help prints it: 2147483648 -> "2G", 128 -> "128", 1536 -> "1536".
std::string format_size(std::uint64_t bytes);

}  // namespace rowscan::app
