// SPDX-License-Identifier: Apache-2.0
// samples/partitioning/partitioning.cu: cutting a file of lines into P parts, the seed blog's way and
// two parallel ways, timed for each P.
//
//   seek_and_read        the blog's loop: for each part, seek to where it should end (less the longest
//                        line), read that many bytes, and cut after the last '\n' in them. One part after
//                        another, since each starts where the last one ended: P seeks and P reads.
//   cut_at_last_newline  every part at once: part p ends after the last '\n' before byte p * size / P,
//                        found by a short search back from there (a transform over the P cuts).
//   one_scan             one scan finds every '\n' (a count per 64 KiB stretch, an exclusive scan of the
//                        counts, each stretch's line ends written); part p ends at line end p * lines / P
//                        (a gather). The scan costs the same for any P.
//
// The text is read once into memory for the two parallel ways (not timed: rowscan reads it anyway, in
// blocks). Every way's parts are checked: each ends after a '\n' (or at the file's end), in order, and
// together they cover the file.
//
// usage: partitioning FILE [--parts P1,P2,...] [--repeat R] [--csv]   (default parts 1000,10000,100000)
#include "../common/sample.hpp"

#include "rowscan/hd.hpp"

#include <thrust/for_each.h>
#include <thrust/device_vector.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/scan.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

char const* const usage = "partitioning FILE [--parts P1,P2,...] [--repeat R] [--csv]";

/// The blog's MAX_CITY_BYTE: the most bytes a line may have, and so how far back a cut may have to look.
constexpr std::int64_t longest_line = 128;
/// one_scan's stretch: the bytes one thread of the scan reads.
constexpr std::int64_t stretch_bytes = std::int64_t{64} << 10;

std::vector<std::int64_t> parse_parts(std::string const& text) {
  std::vector<std::int64_t> parts;
  std::istringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 12) {
      throw rowscan::error("--parts takes counts such as 1000,10000, not '" + text + "'");
    }
    parts.push_back(std::stoll(item));
    if (parts.back() < 1) throw rowscan::error("--parts: a count is at least 1");
  }
  if (parts.empty()) throw rowscan::error("--parts takes counts such as 1000,10000");
  return parts;
}

// [docs:seek-and-read]
/// The seed blog's loop, as it is written there: the end of each part is found by seeking near where it
/// should be and reading back to the last '\n'. Returns each part's end (one past its last byte).
std::vector<std::int64_t> seek_and_read(std::string const& path, std::int64_t size, std::int64_t parts) {
  std::ifstream file(path, std::ios::binary);
  std::int64_t const split = size / parts;
  std::vector<std::int64_t> ends;
  std::int64_t offset = 0;
  char buf[longest_line];
  while (offset < size) {
    std::int64_t const seek_offset = std::max<std::int64_t>(offset + split - longest_line, 0);
    if (seek_offset > size) {  // the rest is the last part
      ends.back() = size;
      break;
    }
    file.clear();
    file.seekg(seek_offset, std::ios::beg);  // one seek...
    file.read(buf, longest_line);            // ...and one read a part, one part after the other
    std::int64_t const n = file.gcount();
    std::int64_t newline = n - 1;
    while (newline >= 0 && buf[newline] != '\n') --newline;
    std::int64_t const next = newline < 0 || seek_offset + n == size ? size : seek_offset + newline + 1;
    if (next <= offset) throw rowscan::error("a part shorter than a line: use fewer parts");
    ends.push_back(next);
    offset = next;
  }
  return ends;
}
// [docs:end]

// [docs:cut-at-last-newline]
/// Part p ends after the last '\n' before byte (p + 1) * size / parts: each cut is found on its own, so
/// all of them are found at once.
struct last_newline_before {
  char const* text;
  std::int64_t size, parts;
  ROWSCAN_HD std::int64_t operator()(std::int64_t p) const {
    if (p + 1 == parts) return size;
    std::int64_t const cut = (p + 1) * (size / parts);
    for (std::int64_t i = cut - 1; i >= 0 && i >= cut - longest_line; --i) {
      if (text[i] == '\n') return i + 1;
    }
    return 0;  // no '\n' within a line's length: a line longer than longest_line (check_parts says so)
  }
};
// [docs:end]

// [docs:one-scan]
/// One scan finds every line: each stretch of the text counts its '\n's, an exclusive scan of the counts
/// gives each stretch where its line ends go, and each stretch writes them there. (The library's copy_if
/// does the same a byte at a time; on a CPU a stretch at a time is far cheaper.) The cuts are then
/// every (lines / P)-th line end.
struct newlines_in_stretch {
  char const* text;
  std::int64_t size;
  ROWSCAN_HD std::int64_t operator()(std::int64_t s) const {
    std::int64_t const end = s * stretch_bytes + stretch_bytes < size ? s * stretch_bytes + stretch_bytes : size;
    std::int64_t count = 0;
    for (std::int64_t i = s * stretch_bytes; i < end; ++i) count += text[i] == '\n';
    return count;
  }
};
struct write_line_ends {
  char const* text;
  std::int64_t size;
  std::int64_t const* first;  // where stretch s's line ends go (the exclusive scan of the counts)
  std::int64_t* line_ends;
  ROWSCAN_HD void operator()(std::int64_t s) const {
    std::int64_t const end = s * stretch_bytes + stretch_bytes < size ? s * stretch_bytes + stretch_bytes : size;
    std::int64_t at = first[s];
    for (std::int64_t i = s * stretch_bytes; i < end; ++i) {
      if (text[i] == '\n') line_ends[at++] = i + 1;
    }
  }
};
struct every_kth_line {
  std::int64_t lines, parts;
  ROWSCAN_HD std::int64_t operator()(std::int64_t p) const { return (p + 1) * lines / parts - 1; }
};
// [docs:end]

/// Checks that `ends` cuts the text into parts in order, each ending after a '\n' or at the end.
void check_parts(std::string const& text, std::vector<std::int64_t> const& ends, char const* way) {
  auto const size = static_cast<std::int64_t>(text.size());
  std::int64_t previous = 0;
  for (std::int64_t end : ends) {
    if (end < previous || end > size || (end > 0 && end < size && text[end - 1] != '\n')) {
      throw rowscan::error(std::string("MISMATCH: ") + way + " cut at byte " + std::to_string(end) +
                           ", not after a line's end");
    }
    previous = end;
  }
  if (ends.empty() || ends.back() != size) throw rowscan::error(std::string("MISMATCH: ") + way + " left bytes out");
}

int run(int argc, char** argv) {
  std::string const parts_text = samples::take_value(argc, argv, "--parts", "1000,10000,100000", usage);
  auto const opt = samples::parse_options(argc, argv, 0, usage);
  if (opt.inputs.size() != 1) throw rowscan::error(std::string("usage: ") + usage);
  std::vector<std::int64_t> const part_counts = parse_parts(parts_text);
  std::string const text = samples::read_file(opt.inputs.front());
  auto const size = static_cast<std::int64_t>(text.size());
  if (size == 0 || text.back() != '\n') throw rowscan::error("the file must hold lines, each ending in '\\n'");

  thrust::device_vector<char> const d_text(text.begin(), text.end());
  char const* const d = thrust::raw_pointer_cast(d_text.data());
  // The line count sizes the output (a property of the file, counted once here, not timed).
  auto const line_count = static_cast<std::int64_t>(std::count(text.begin(), text.end(), '\n'));
  thrust::device_vector<std::int64_t> line_ends(static_cast<std::size_t>(line_count));
  thrust::device_vector<std::int64_t> stretch_counts(
      static_cast<std::size_t>((size + stretch_bytes - 1) / stretch_bytes));
  std::string const device = samples::device_name();
  std::ostream& table = opt.csv ? std::cerr : std::cout;
  if (opt.csv) samples::print_csv_header();
  table << "parts        seek_and_read ms   cut_at_last_newline ms   one_scan ms   (" << size << " bytes)\n";
  for (std::int64_t const parts : part_counts) {
    if (size / parts <= longest_line) {
      table << parts << ": skipped, a part would be shorter than the longest line (" << longest_line << " bytes)\n";
      continue;
    }
    std::vector<std::int64_t> by_seek;
    double const seek_ms = samples::median_ms(opt.repeat, [&] {
      return samples::host_ms([&] { by_seek = seek_and_read(opt.inputs.front(), size, parts); });
    });
    check_parts(text, by_seek, "seek_and_read");

    thrust::device_vector<std::int64_t> cuts(static_cast<std::size_t>(parts));
    auto const p0 = thrust::counting_iterator<std::int64_t>(0);
    double const cut_ms = samples::median_ms(opt.repeat, [&] {
      return samples::device_ms([&] {
        thrust::transform(p0, p0 + parts, cuts.begin(), last_newline_before{d, size, parts});
      });
    });
    thrust::host_vector<std::int64_t> const h_cuts(cuts);
    check_parts(text, std::vector<std::int64_t>(h_cuts.begin(), h_cuts.end()), "cut_at_last_newline");

    std::int64_t lines = 0;
    double const scan_ms = samples::median_ms(opt.repeat, [&] {
      return samples::device_ms([&] {
        std::int64_t const stretches = (size + stretch_bytes - 1) / stretch_bytes;
        thrust::transform(p0, p0 + stretches, stretch_counts.begin(), newlines_in_stretch{d, size});
        thrust::exclusive_scan(stretch_counts.begin(), stretch_counts.begin() + stretches, stretch_counts.begin());
        thrust::for_each(p0, p0 + stretches,
                         write_line_ends{d, size, thrust::raw_pointer_cast(stretch_counts.data()),
                                         thrust::raw_pointer_cast(line_ends.data())});
        lines = line_count;
        auto const which = thrust::make_transform_iterator(p0, every_kth_line{lines, std::min(parts, lines)});
        thrust::gather(which, which + std::min(parts, lines), line_ends.begin(), cuts.begin());
      });
    });
    thrust::host_vector<std::int64_t> const h_scan(cuts.begin(), cuts.begin() + std::min(parts, lines));
    check_parts(text, std::vector<std::int64_t>(h_scan.begin(), h_scan.end()), "one_scan");

    table << parts << "  " << seek_ms << "  " << cut_ms << "  " << scan_ms << '\n';
    if (opt.csv) {
      auto const bytes = static_cast<std::size_t>(size);
      auto const items = static_cast<std::size_t>(parts);
      samples::print_csv_row("partitioning", "host CPU 1 thread", {"seek_and_read", items, bytes, seek_ms});
      samples::print_csv_row("partitioning", device, {"cut_at_last_newline", items, bytes, cut_ms});
      samples::print_csv_row("partitioning", device, {"one_scan", items, bytes, scan_ms});
    }
  }
  table << "every way's parts end after a '\\n' and cover the file\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return samples::run_sample("partitioning", [&] { return run(argc, argv); });
}
