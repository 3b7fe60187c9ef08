// SPDX-License-Identifier: Apache-2.0
// `rowscan generate measurements ...`: realistic inputs of any size.
#include "commands.hpp"
#include "rowscan/error.hpp"
#include "rowscan/generate/lineitem.hpp"
#include "rowscan/generate/measurements.hpp"
#include "rowscan/generate/sales.hpp"
#include "rowscan/io/write_all.hpp"

#include "command_line.hpp"
#include "output.hpp"
#include "progress.hpp"

#include <cxxopts.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <limits>
#include <string>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>
#include <sys/stat.h>
#include <unistd.h>

namespace rowscan::app {
namespace {

/// Writes the output named by -o with write(out_fd), then commits it (output_file: a temporary file
/// renamed at the end). A failed write names the file or "standard output".
/// While a file is written: on a terminal (stderr), a progress bar of the bytes written so far (the
/// output's size, looked at ten times a second by a thread of its own, so the generators need not
/// know), erased at the end. Nothing for standard output or when stderr is not a terminal.
class output_progress {
 public:
  output_progress(int fd, bool enabled) : meter_(0, enabled) {
    if (!enabled) return;
    try {
      watcher_ = std::thread([this, fd] {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!done_) {
          struct stat st{};
          if (::fstat(fd, &st) == 0) meter_.update(static_cast<std::uint64_t>(st.st_size));
          wake_.wait_for(lock, std::chrono::milliseconds(100));
        }
      });
    } catch (std::system_error const&) {
      // No thread for the bar: the output is written without one.
    }
  }
  ~output_progress() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    if (watcher_.joinable()) watcher_.join();
    meter_.finish();
  }
  output_progress(output_progress const&) = delete;
  output_progress& operator=(output_progress const&) = delete;

 private:
  progress_meter meter_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread watcher_;
};

template <class Write>
void write_output(std::string const& path, Write const& write) {
  output_file out(path);
  try {
    output_progress const progress(out.fd(), path != "-" && ::isatty(STDERR_FILENO));
    write(out.fd());
  } catch (io::write_error const& e) {
    throw_write_error(out.label(), e.code().value());
  }
  out.commit();
}

constexpr char const* generate_notes =
    "The same options give the same bytes, whatever the number of threads (ROWSCAN_THREADS or OMP_NUM_THREADS).\n"
    "FILE is written as a temporary file beside it and renamed at the end: an interrupted run leaves FILE as it\n"
    "was. On a terminal, stderr shows the bytes written so far.\n";

std::uint64_t parse_seed(cxxopts::ParseResult const& args) {
  return parse_whole_number("seed", option_text(args, "seed").value_or("1"), 0, std::numeric_limits<std::uint64_t>::max());
}

int generate_measurements(int argc, char** argv) {
  cxxopts::Options options("rowscan generate measurements",
                           "Writes `name;temperature` lines: K synthesized UTF-8 station names, a mean per station "
                           "and gaussian readings in tenths.");
  options.custom_help("--rows N [--stations K] [--seed S] -o FILE");
  options.add_options()
      ("rows", "number of lines (required)", cxxopts::value<std::string>(), "N")
      ("stations", "number of distinct stations, 1 to 1000000 (default: 413)", cxxopts::value<std::string>(), "K")
      ("seed", "random seed, a whole number (default: 1)", cxxopts::value<std::string>(), "S")
      ("o,output", "output file, or - for standard output (required)", cxxopts::value<std::string>(), "FILE");
  auto const parsed = parse_command_line(options, argc, argv, {{"rows", "missing --rows"}, {"output", "missing -o FILE"}},
                                         generate_notes);
  if (!parsed) return success;
  auto const& args = *parsed;

  generate::measurements_options opts;
  opts.rows = parse_whole_number("rows", args["rows"].as<std::string>(), 0, std::numeric_limits<std::uint64_t>::max());
  opts.stations = static_cast<std::uint32_t>(parse_whole_number("stations", option_text(args, "stations").value_or("413"), 1, 1000000));
  opts.seed = parse_seed(args);
  write_output(args["output"].as<std::string>(), [&](int fd) { generate::write_measurements(fd, opts); });
  return success;
}

int generate_lineitem(int argc, char** argv) {
  cxxopts::Options options("rowscan generate lineitem",
                           "Writes a TPC-H lineitem.tbl in dbgen's format: about SF x 6,000,000 rows, with the "
                           "specification's domains for l_suppkey, l_quantity and l_extendedprice.");
  options.custom_help("--scale SF [--seed S] -o FILE");
  options.add_options()
      ("scale", "TPC-H scale factor, 0.0001 to 100000 (required; 0.01 makes about 60,000 rows)",
       cxxopts::value<std::string>(), "SF")
      ("seed", "random seed, a whole number (default: 1)", cxxopts::value<std::string>(), "S")
      ("o,output", "output file, or - for standard output (required)", cxxopts::value<std::string>(), "FILE");
  auto const parsed = parse_command_line(options, argc, argv, {{"scale", "missing --scale"}, {"output", "missing -o FILE"}},
                                         generate_notes);
  if (!parsed) return success;
  auto const& args = *parsed;

  generate::lineitem_options opts;
  opts.scale = parse_decimal("scale", args["scale"].as<std::string>(), 0.0001, 100000);  // the scale factor's range
  opts.seed = parse_seed(args);
  write_output(args["output"].as<std::string>(), [&](int fd) { generate::write_lineitem(fd, opts); });
  return success;
}

int generate_sales(int argc, char** argv) {
  cxxopts::Options options("rowscan generate sales",
                           "Writes a sales CSV (RFC 4180) for `rowscan group`: a header, then order_id, customer, product, "
                           "city, note, quantity and price, with quoted fields holding commas, doubled quotes and the odd "
                           "newline, customers of skewed frequency, and some empty values.");
  options.custom_help("--rows N [--keys K] [--seed S] -o FILE");
  options.add_options()
      ("rows", "number of records (required)", cxxopts::value<std::string>(), "N")
      ("keys", "number of distinct customers, 1 to 10000000 (default: 100000)", cxxopts::value<std::string>(), "K")
      ("seed", "random seed, a whole number (default: 1)", cxxopts::value<std::string>(), "S")
      ("o,output", "output file, or - for standard output (required)", cxxopts::value<std::string>(), "FILE");
  auto const parsed = parse_command_line(options, argc, argv, {{"rows", "missing --rows"}, {"output", "missing -o FILE"}},
                                         generate_notes);
  if (!parsed) return success;
  auto const& args = *parsed;
  generate::sales_options opts;
  opts.rows = parse_whole_number("rows", args["rows"].as<std::string>(), 0, std::numeric_limits<std::uint64_t>::max());
  opts.customers = static_cast<std::uint32_t>(parse_whole_number("keys", option_text(args, "keys").value_or("100000"), 1, 10000000));
  opts.seed = parse_seed(args);
  write_output(args["output"].as<std::string>(), [&](int fd) { generate::write_sales(fd, opts); });
  return success;
}

}  // namespace

int generate_command(int argc, char** argv) {
  std::string const what = argc > 1 ? argv[1] : "";
  if (what == "measurements") return generate_measurements(argc - 1, argv + 1);
  if (what == "lineitem") return generate_lineitem(argc - 1, argv + 1);
  if (what == "sales") return generate_sales(argc - 1, argv + 1);
  constexpr char const* text = "usage: rowscan generate measurements --rows N [--stations K] [--seed S] -o FILE\n"
                               "       rowscan generate lineitem --scale SF [--seed S] -o FILE\n"
                               "       rowscan generate sales --rows N [--keys K] [--seed S] -o FILE\n"
                               "`rowscan generate measurements --help`, `rowscan generate lineitem --help` and `rowscan "
                               "generate sales --help` describe the options.\n";
  if (what == "--help" || what == "-h") {  // asked for: stdout, like every other help
    write_standard_output(text);
    return success;
  }
  std::cerr << text;
  return usage;
}

}  // namespace rowscan::app
