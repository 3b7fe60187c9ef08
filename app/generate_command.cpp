// SPDX-License-Identifier: Apache-2.0
// `rowscan generate measurements ...`: realistic inputs of any size.
#include "commands.hpp"
#include "rowscan/error.hpp"
#include "rowscan/generate/lineitem.hpp"
#include "rowscan/generate/measurements.hpp"
#include "rowscan/generate/sales.hpp"
#include "rowscan/io/write_all.hpp"

#include "command_line.hpp"
#include "rowscan/io/output.hpp"
#include "progress.hpp"

#include <cxxopts.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <system_error>
#include <unistd.h>

namespace rowscan::app {
namespace {

/// The output named by -o, or standard output without it; a terminal is refused unless `-o -` asks
/// for it, since a generated file is rarely meant for the screen.
std::string output_path(cxxopts::ParseResult const& args) {
  if (auto const path = option_text(args, "output")) return *path;
  if (::isatty(STDOUT_FILENO)) {
    throw usage_error("standard output is a terminal: give -o FILE, redirect it, or give -o - to write there anyway");
  }
  return "-";
}

/// Writes the output with write(out_fd), then commits it (output_file: a temporary file renamed at the
/// end). A failed write names the file or "standard output". On a terminal (stderr), a progress bar of
/// the bytes written so far, the share of the blocks written and the time left, erased at the end.
template <class Write>
void write_output(std::string const& path, Write const& write) {
  io::output_file out(path);
  progress_meter meter(0, ::isatty(STDERR_FILENO));
  // The generators write fixed blocks of rows in order, so the blocks written give the share done; the
  // total bytes are estimated from the bytes so far (rows differ in length, blocks on average do not).
  io::write_progress const progress = [&meter](std::uint64_t blocks_written, std::uint64_t blocks,
                                               std::uint64_t bytes_written) {
    if (blocks_written == 0) return;
    meter.set_total(static_cast<std::uint64_t>(static_cast<double>(bytes_written) * static_cast<double>(blocks) /
                                               static_cast<double>(blocks_written)));
    meter.update(bytes_written);
  };
  try {
    write(out.fd(), progress);
  } catch (io::write_error const& e) {
    meter.finish();
    io::throw_write_error(out.label(), e.code().value());
  }
  meter.finish();
  out.commit();
}

constexpr char const* generate_notes =
    "The same options give the same bytes, whatever the number of threads (ROWSCAN_THREADS or OMP_NUM_THREADS).\n"
    "FILE is written as a temporary file beside it and renamed at the end: an interrupted run leaves FILE as it\n"
    "was. Without -o the output goes to standard output (not to a terminal: give -o - for that). On a terminal,\n"
    "stderr shows the bytes written, the share done and the time left.\n";

/// Adds the options every generator shares (--seed, -o) after its own, parses (nothing when --help was
/// asked for), and checks the thread settings before anything is written.
std::optional<cxxopts::ParseResult> parse_generator(cxxopts::Options& options, int argc, char** argv,
                                                    required_option const& required) {
  options.add_options()
      ("seed", "random seed, a whole number (default: 1)", cxxopts::value<std::string>(), "S")
      ("o,output", "output file, or - for standard output (the default, when it is not a terminal)",
       cxxopts::value<std::string>(), "FILE");
  auto parsed = parse_command_line(options, argc, argv, {required}, generate_notes);
  if (parsed) reject_withheld_omp_num_threads();
  return parsed;
}

std::uint64_t parse_seed(cxxopts::ParseResult const& args) {
  return parse_whole_number("seed", option_text(args, "seed").value_or("1"), 0, std::numeric_limits<std::uint64_t>::max());
}

int generate_measurements(int argc, char** argv) {
  cxxopts::Options options("rowscan generate measurements",
                           "Writes `name;temperature` lines: K synthesized UTF-8 station names, a mean per station "
                           "and gaussian readings in tenths.");
  options.custom_help("--rows N [--stations K] [--seed S] [-o FILE]");
  options.add_options()
      ("rows", "number of lines (required): digits, or such as 1e9 or 2.5e6", cxxopts::value<std::string>(), "N")
      ("stations", "number of distinct stations, 1 to 1000000 (default: 413)", cxxopts::value<std::string>(), "K");
  auto const parsed = parse_generator(options, argc, argv, {"rows", "missing --rows"});
  if (!parsed) return success;
  auto const& args = *parsed;

  generate::measurements_options opts;
  opts.rows = parse_count("rows", args["rows"].as<std::string>(), 0, std::numeric_limits<std::uint64_t>::max());
  opts.stations = static_cast<std::uint32_t>(parse_whole_number("stations", option_text(args, "stations").value_or("413"), 1, 1000000));
  opts.seed = parse_seed(args);
  write_output(output_path(args), [&](int fd, io::write_progress const& progress) {
    generate::write_measurements(fd, opts, progress);
  });
  return success;
}

int generate_lineitem(int argc, char** argv) {
  cxxopts::Options options("rowscan generate lineitem",
                           "Writes a TPC-H lineitem.tbl in dbgen's format: about SF x 6,000,000 rows, with the "
                           "specification's domains for l_suppkey, l_quantity and l_extendedprice.");
  options.custom_help("--scale SF [--seed S] [-o FILE]");
  options.add_options()
      ("scale", "TPC-H scale factor, 0.0001 to 100000 (required; 0.01 makes about 60,000 rows)",
       cxxopts::value<std::string>(), "SF");
  auto const parsed = parse_generator(options, argc, argv, {"scale", "missing --scale"});
  if (!parsed) return success;
  auto const& args = *parsed;

  generate::lineitem_options opts;
  opts.scale = parse_decimal("scale", args["scale"].as<std::string>(), 0.0001, 100000);  // the scale factor's range
  opts.seed = parse_seed(args);
  write_output(output_path(args), [&](int fd, io::write_progress const& progress) {
    generate::write_lineitem(fd, opts, progress);
  });
  return success;
}

int generate_sales(int argc, char** argv) {
  cxxopts::Options options("rowscan generate sales",
                           "Writes a sales CSV (RFC 4180) for `rowscan group`: a header, then order_id, customer, product, "
                           "city, note, quantity and price, with quoted fields holding commas, doubled quotes and the odd "
                           "newline, customers of skewed frequency, and some empty values.");
  options.custom_help("--rows N [--keys K] [--seed S] [-o FILE]");
  options.add_options()
      ("rows", "number of records (required): digits, or such as 1e9 or 2.5e6", cxxopts::value<std::string>(), "N")
      ("keys", "number of distinct customers, 1 to 10000000 (default: 100000)", cxxopts::value<std::string>(), "K");
  auto const parsed = parse_generator(options, argc, argv, {"rows", "missing --rows"});
  if (!parsed) return success;
  auto const& args = *parsed;
  generate::sales_options opts;
  opts.rows = parse_count("rows", args["rows"].as<std::string>(), 0, std::numeric_limits<std::uint64_t>::max());
  opts.customers = static_cast<std::uint32_t>(parse_whole_number("keys", option_text(args, "keys").value_or("100000"), 1, 10000000));
  opts.seed = parse_seed(args);
  write_output(output_path(args), [&](int fd, io::write_progress const& progress) {
    generate::write_sales(fd, opts, progress);
  });
  return success;
}

}  // namespace

int generate_command(int argc, char** argv) {
  std::string const what = argc > 1 ? argv[1] : "";
  if (what == "measurements") return generate_measurements(argc - 1, argv + 1);
  if (what == "lineitem") return generate_lineitem(argc - 1, argv + 1);
  if (what == "sales") return generate_sales(argc - 1, argv + 1);
  constexpr char const* text = "usage: rowscan generate measurements --rows N [--stations K] [--seed S] [-o FILE]\n"
                               "       rowscan generate lineitem --scale SF [--seed S] [-o FILE]\n"
                               "       rowscan generate sales --rows N [--keys K] [--seed S] [-o FILE]\n"
                               "`rowscan generate measurements --help`, `rowscan generate lineitem --help` and `rowscan "
                               "generate sales --help` describe the options.\n";
  if (what == "--help" || what == "-h") {  // asked for: stdout, like every other help
    io::write_standard_output(text);
    return success;
  }
  if (what.empty()) throw usage_error("generate needs a kind: measurements, lineitem or sales");
  throw usage_error("generate: unknown kind '" + what + "'" + did_you_mean(what, {"measurements", "lineitem", "sales"}) +
                    " (the kinds are measurements, lineitem and sales)");
}

}  // namespace rowscan::app
