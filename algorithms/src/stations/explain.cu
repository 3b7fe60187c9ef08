// SPDX-License-Identifier: Apache-2.0
// `rowscan stations --explain` (rowscan/stations/explain.hpp): stations workers whose observer copies
// each device array to the host right after the call that writes it.
#include "rowscan/stations/explain.hpp"

#include "rowscan/context.hpp"
#include "rowscan/explain/lines.hpp"
#include "rowscan/read_back.hpp"
#include "rowscan/stations/table.hpp"
#include "rowscan/stations/worker.hpp"

#include <thrust/device_vector.h>

#include <utility>

namespace rowscan::stations {
ROWSCAN_SYSTEM_BEGIN
namespace {

using explain::to_host;

template <class T>
std::vector<T> host_copy(T const* device, std::size_t n, context const& ctx) {
  std::vector<T> out(n);
  copy_to_host(device, n, out.data(), ctx);
  return out;
}

/// Records what the block composition computes into an explained_stations.
class recorder final : public block_observer {
 public:
  explicit recorder(explained_stations& out) : out_(out) {}

  void parsed(char const* text, std::size_t size, parsed_records const& p, context const& ctx) override {
    out_.lines = explain::explain_lines(text, size, p.records, ctx);
    out_.keys = to_host(p.keys);
    out_.tenths = to_host(p.tenths);
    out_.name_sizes = to_host(p.name_sizes);
  }
  void grouped(thrust::device_vector<std::uint64_t> const& sorted_keys, groups const& g, context const& ctx) override {
    out_.sorted_keys = to_host(sorted_keys);
    out_.names_compared = g.names_compared;
    out_.group_keys = host_copy(thrust::raw_pointer_cast(g.keys.data()), g.keys.size(), ctx);
    out_.group_rows = host_copy(thrust::raw_pointer_cast(g.representative.data()), g.representative.size(), ctx);
    out_.group_stats = host_copy(thrust::raw_pointer_cast(g.stats.data()), g.stats.size(), ctx);
  }
  void merged(station_table const& running, context const& ctx) override {
    out_.running_keys = host_copy(thrust::raw_pointer_cast(running.keys.data()), running.keys.size(), ctx);
    out_.running = to_host_summaries(running);
  }
  void ids_parsed(station_id const* ids, std::int16_t const* tenths, std::size_t lines, context const& ctx) override {
    out_.ids = host_copy(ids, lines, ctx);
    out_.id_tenths = host_copy(tenths, lines, ctx);
  }
  void ids_sorted(station_id const* ids, std::int16_t const* tenths, std::size_t lines, context const& ctx) override {
    out_.sorted_ids = host_copy(ids, lines, ctx);
    out_.sorted_tenths = host_copy(tenths, lines, ctx);
  }
  void ids_reduced(station_id const* ids, station_stats const* stats, std::size_t groups, context const& ctx) override {
    // The same record on either reduction: the stations present in the block, by id. (CUB's segmented
    // reduction writes one summary per station of the table, the identity where it has no row.)
    std::vector<station_stats> const summaries = host_copy(stats, groups, ctx);
    std::vector<station_id> const group_ids = ids != nullptr ? host_copy(ids, groups, ctx) : std::vector<station_id>();
    for (std::size_t g = 0; g < groups; ++g) {
      if (summaries[g].count == 0) continue;
      out_.reduced_ids.push_back(ids != nullptr ? group_ids[g] : static_cast<station_id>(g));
      out_.reduced.push_back(summaries[g]);
    }
  }

 private:
  explained_stations& out_;
};

}  // namespace

explained_stations explain(std::string const& text, std::string const& label) {
  context ctx;
  explained_stations out;
  out.text = text;
  thrust::device_vector<char> device_text(text.size() + text_padding_bytes);
  thrust::copy(text.begin(), text.end(), device_text.begin());
  char const* const chars = thrust::raw_pointer_cast(device_text.data());
  recorder record(out);

  worker first(ctx, {}, &record);
  job::tally const general = first.fold(chars, text.size());
  if (general.stop) throw job::located(*general.stop, label);
  out.answer = to_host_summaries(sorted_by_name(first.partial(), ctx));

  worker second(ctx, {}, &record);
  second.start_from(first.partial());
  second.fold(chars, text.size());
  out.fast_path = second.paths().fast_blocks() == 1;
  out.after_fast = to_host_summaries(second.partial());
  return out;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::stations
