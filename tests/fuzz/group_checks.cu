// SPDX-License-Identifier: Apache-2.0
// The fuzzers' check of `rowscan group` (input_checks.hpp): any bytes as a quoted CSV.
//   1. records: find_records (the quote-parity scan over words) and, on the host, find_records_walking
//      (the same words walked with the parity in hand) against the reference's parity walk
//      (reference::split_records);
//   2. the pipeline (group::summarize_each, key column 1, value column 2) at chunk sizes 4096 and a
//      size-derived one, against reference::group_answer: the same CSV answer, or the same first bad
//      record (line and column). A chunk size that some record does not fit is skipped: such a record
//      is an error of its own (longer than the reader carries), which the reference does not model.
#include "input_checks.hpp"

#include "reference/group_reference.hpp"
#include "rowscan/context.hpp"
#include "rowscan/error.hpp"
#include "rowscan/group/format.hpp"
#include "rowscan/group/records.hpp"
#include "rowscan/group/summarize.hpp"

#include <thrust/device_vector.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <sys/mman.h>
#include <unistd.h>

namespace fuzz {
namespace {

/// The input as a file descriptor (an anonymous in-memory file, at its start).
class group_file {
 public:
  explicit group_file(std::string_view text) : fd_(::memfd_create("rowscan-fuzz-group", MFD_CLOEXEC)) {
    if (fd_ < 0) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
    for (std::size_t done = 0; done < text.size();) {
      ssize_t const n = ::write(fd_, text.data() + done, text.size() - done);
      if (n <= 0) throw std::runtime_error("write failed");
      done += static_cast<std::size_t>(n);
    }
    ::lseek(fd_, 0, SEEK_SET);
  }
  ~group_file() { ::close(fd_); }
  group_file(group_file const&) = delete;
  group_file& operator=(group_file const&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

std::string check_records(std::string_view text) {
  auto const expected = reference::split_records(text, '"');
  rowscan::context ctx;
  thrust::device_vector<char> device(text.begin(), text.end());
  thrust::device_vector<rowscan::group::record_span> records;
  auto compare = [&](char const* how) -> std::string {
    std::vector<rowscan::group::record_span> got(records.size());
    if (!records.empty()) thrust::copy(records.begin(), records.end(), got.begin());  // no null begin() to copy into
    if (got.size() != expected.size()) {
      return std::string(how) + ": " + std::to_string(got.size()) + " records, the reference " +
             std::to_string(expected.size());
    }
    for (std::size_t r = 0; r < got.size(); ++r) {
      if (got[r].begin != expected[r].begin || got[r].end != expected[r].end || got[r].line != expected[r].line) {
        return std::string(how) + ": record " + std::to_string(r) + " differs from the reference's";
      }
    }
    return "";
  };
  rowscan::group::find_records(thrust::raw_pointer_cast(device.data()), text.size(), '"', records, ctx);
  std::string problem = compare("find_records");
#if !ROWSCAN_HAS_CUB
  if (problem.empty()) {
    rowscan::group::find_records_walking(thrust::raw_pointer_cast(device.data()), text.size(), '"', records, ctx);
    problem = compare("find_records_walking");
  }
#endif
  return problem;
}

std::string check_pipeline(std::string_view text, std::size_t chunk_size) {
  reference::group_format format;
  format.keys = {0};
  format.values = {1};
  std::string expected;
  try {
    expected = reference::group_answer({std::string(text)}, format);
  } catch (reference::bad_record const& e) {
    expected = "error at " + std::to_string(e.line) + ":" + std::to_string(e.column);
  }
  rowscan::group::summarize_options options;
  options.format.keys = {0};
  options.format.values = {1};
  options.chunk_size = chunk_size;
  options.workers = 2;
  std::string got;
  try {
    group_file file(text);
    rowscan::job::single_input input(file.fd(), "fuzz", UINT64_MAX);
    auto const answer = rowscan::group::summarize_each(input, options);
    std::ostringstream out;
    rowscan::group::write(out, answer, 1, {"2"}, rowscan::group::output_format::csv);
    got = out.str();
  } catch (rowscan::input_error const& e) {
    got = "error at " + std::to_string(e.line()) + ":" + std::to_string(e.column());
  }
  if (got != expected) {
    return "summarize at chunk size " + std::to_string(chunk_size) + " gave\n" + got + "\nthe reference\n" + expected;
  }
  return "";
}

}  // namespace

std::string check_group_input(std::string_view text) {
  if (std::string problem = check_records(text); !problem.empty()) return problem;
  std::size_t longest = 0;
  for (auto const& r : reference::split_records(text, '"')) longest = std::max(longest, r.end - r.begin);
  for (std::size_t chunk : {std::size_t{4096}, 128 + text.size() % 200}) {
    if (longest > chunk) continue;  // a record longer than the carry: an error of its own
    if (std::string problem = check_pipeline(text, chunk); !problem.empty()) return problem;
  }
  return "";
}

}  // namespace fuzz
