#include "rowscan/stations/summarize.hpp"

#include "rowscan/context.hpp"
#include "rowscan/stage_clock.hpp"
#include "rowscan/error.hpp"
#include "rowscan/io/chunked_reader.hpp"
#include "rowscan/records.hpp"
#include "rowscan/stations/group.hpp"
#include "rowscan/stations/parse.hpp"
#include "rowscan/stations/table.hpp"

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/find.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/transform.h>

#include <algorithm>

namespace rowscan::stations {
namespace {

/// Device arrays of one chunk, kept across chunks so that steady state does not reallocate.
struct chunk_columns {
  thrust::device_vector<char> text;
  thrust::device_vector<record_range> records;
  thrust::device_vector<std::uint64_t> keys;
  thrust::device_vector<std::int16_t> tenths;
  thrust::device_vector<std::uint8_t> name_sizes;
  thrust::device_vector<std::uint8_t> statuses;

  void resize_rows(std::size_t n) {
    keys.resize(n);
    tenths.resize(n);
    name_sizes.resize(n);
    statuses.resize(n);
  }
};

/// Throws the input_error for record `row` of the chunk, parsing it again on the host to say what and where.
[[noreturn]] void throw_bad_line(std::string const& label, io::text_chunk const& chunk, record_range r,
                                 std::uint64_t line, line_status status_on_device) {
  std::uint32_t size = r.size();
  if (size > 0 && chunk.data[r.end - 1] == '\n') --size;
  parsed_line const p = parse_line(chunk.data + r.begin, size);
  auto const status = p.status == line_status::ok ? status_on_device : p.status;
  throw input_error(label, line, chunk.input_offset + r.begin + p.error_at, describe(status));
}

std::uint64_t key_mask(unsigned key_bits) {
  return key_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
}

}  // namespace

std::size_t default_chunk_size() {
  // A chunk's device arrays take about 4 bytes per byte of text at the default 14-byte lines; keep
  // them within an eighth of free memory.
  std::size_t const share = device_memory_info().free_bytes / 8;
  std::size_t const preferred = std::size_t{512} << 20;
  return std::clamp(std::min(share, preferred), std::size_t{1} << 20, max_chunk_size);
}

std::int64_t mean_tenths(station_summary const& s) { return mean_tenths(station_stats{s.min, s.max, s.sum, s.count}); }

summary summarize(int fd, std::string const& label, summarize_options const& options) {
  summary out;
  out.chunk_size = options.chunk_size == 0 ? default_chunk_size() : options.chunk_size;
  if (out.chunk_size < min_chunk_size || out.chunk_size > max_chunk_size) {
    throw error("chunk size must be between " + std::to_string(min_chunk_size) + " and " +
                std::to_string(max_chunk_size) + " bytes, not " + std::to_string(out.chunk_size));
  }
  context ctx;
  auto policy = ctx.policy();
  stage_clock clock(ctx, options.time_stages);
  io::chunked_reader reader(fd, label, out.chunk_size);
  chunk_columns cols;
  station_table running;
  std::uint64_t const mask = key_mask(options.key_bits);

  io::text_chunk chunk{};
  while (reader.next(chunk)) {
    clock.lap(out.times.read);

    cols.text.resize(chunk.size);
    thrust::copy(chunk.data, chunk.data + chunk.size, cols.text.begin());
    clock.lap(out.times.copy);

    char const* text = thrust::raw_pointer_cast(cols.text.data());
    find_lines(text, chunk.size, cols.records, ctx);
    clock.lap(out.times.find_records);

    std::size_t const rows = cols.records.size();
    cols.resize_rows(rows);
    thrust::transform(policy, cols.records.begin(), cols.records.end(),
                      thrust::make_zip_iterator(thrust::make_tuple(cols.keys.begin(), cols.tenths.begin(),
                                                                   cols.name_sizes.begin(), cols.statuses.begin())),
                      parse_record{text, mask});
    auto const bad = thrust::find_if(policy, cols.statuses.begin(), cols.statuses.end(), is_bad_line{});
    if (bad != cols.statuses.end()) {
      auto const row = static_cast<std::size_t>(bad - cols.statuses.begin());
      throw_bad_line(label, chunk, cols.records[row], out.lines + row + 1, static_cast<line_status>(static_cast<std::uint8_t>(*bad)));
    }
    if (chunk.line_exceeds_chunk) {
      throw input_error(label, out.lines + 1, chunk.input_offset,
                        "line longer than the chunk size (" + std::to_string(out.chunk_size) + " bytes)");
    }
    clock.lap(out.times.parse);

    record_names names{text, thrust::raw_pointer_cast(cols.records.data()),
                       thrust::raw_pointer_cast(cols.name_sizes.data())};
    auto readings = thrust::make_transform_iterator(cols.tenths.begin(), reading_stats{});
    station_table table = table_from_groups(group_by_name(cols.keys, names, readings, ctx), names, ctx);
    out.names_compared |= table.names_compared;
    clock.lap(out.times.group);

    if (running.size() == 0) {
      running = std::move(table);
    } else {
      running = merge_tables(running, table, ctx);
      out.names_compared |= running.names_compared;
    }
    clock.lap(out.times.merge);

    out.bytes += chunk.size;
    out.lines += rows;
    ++out.chunks;
  }

  station_table const sorted = sorted_by_name(running, ctx);
  thrust::host_vector<station_stats> const stats = sorted.stats;
  std::vector<std::string> names = to_host_strings(sorted.names);
  out.stations.reserve(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    out.stations.push_back({std::move(names[i]), stats[i].min, stats[i].max, stats[i].sum, stats[i].count});
  }
  clock.lap(out.times.output);
  return out;
}

}  // namespace rowscan::stations
