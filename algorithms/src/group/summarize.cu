// SPDX-License-Identifier: Apache-2.0
// The `rowscan group` job (rowscan/group/summarize.hpp): the driver, group workers, and the answer in
// key order.
#include "rowscan/group/summarize.hpp"
#include "rowscan/group/workload.hpp"
#include "rowscan/this_system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/error.hpp"
#include "rowscan/group/worker.hpp"
#include "rowscan/job/stage_names.hpp"
#include "rowscan/job/worker_set.hpp"
#include "rowscan/read_back.hpp"

#include <thrust/copy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace rowscan::group {
ROWSCAN_SYSTEM_BEGIN
namespace {

std::uint64_t key_mask(unsigned key_bits) {
  return key_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << key_bits) - 1;
}

/// The workers' key tables as one answer: each table's rows, merged by key (merge_summaries, which
/// lifts each column to the larger scale), into the run's report.
summary answer_of(job::worker_set<worker> const& workers, summary report) {
  for (auto const& w : workers.workers()) {
    w->finish();
    summary part;  // an empty report: only its rows add to the run's
    part.rows = rows_of(w->partial(), workers.first_context());
    part.scales = w->scales();
    part.records = w->records();
    part.keys_compared = w->keys_compared();
    report = merge_summaries(std::move(report), part);
  }
  return report;
}

}  // namespace

std::vector<std::string> stage_names() {
  return {job::setup_stage, "reader setup", "read (waiting)", job::hand_over_stage,
          "find records",   "find fields",  "group"};
}

std::size_t default_chunk_size() {
  // The block's arrays take about 12 bytes a record beside its fields' (12 bytes a key column, 16 a
  // value column) and the key table: like lineitem's, a few MiB a host worker and 64 MiB on a GPU.
  return job::preferred_chunk_size(std::size_t{64} << 20, std::size_t{4} << 20);
}

summary summarize_each(job::input_sequence& inputs, summarize_options const& options) {
  ROWSCAN_EXPECTS(!options.format.keys.empty() && !options.format.values.empty(),
                  "group needs a key and a value column");
  summary out;
  out.times = job::stage_times(stage_names());
  out.chunk_size = job::chosen_chunk_size(options, {min_chunk_size, default_chunk_size});
  std::size_t const carried = std::min(out.chunk_size, max_carried_record);
  job::worker_set<worker> workers(options, out, [&](context const& ctx) {
    return worker(ctx, {options.format, key_mask(options.key_bits), carried, options.skip_invalid});
  });
  job::block_layout layout{out.chunk_size, carried, key_padding_bytes, options.format.quote};
  job::run_blocks_each(inputs, options, layout, workers.slots(), out);
  out.scales.assign(options.format.values.size(),
                    options.format.scale >= 0 ? static_cast<unsigned>(options.format.scale) : 0u);
  summary answer = answer_of(workers, std::move(out));
  job::timeline_mark("answer merged");
  return answer;
}

explained_group explain(std::string const& text, std::string const& label, summarize_options const& options) {
  context ctx;
  explained_group out;
  worker w(ctx, {options.format, key_mask(options.key_bits), max_carried_record, false}, true);
  thrust::device_vector<char> device_text(text.size() + key_padding_bytes, '\0');  // known_keys.hpp reads past a key
  thrust::copy(text.begin(), text.end(), device_text.begin());
  char const* const data = thrust::raw_pointer_cast(device_text.data());
  job::tally const t = w.fold(data, text.size());
  if (t.stop) throw job::located(*t.stop, label);

  // The scan's output at every position, as find_records computes it (for the walkthrough).
  std::size_t const n = text.size();
  thrust::device_vector<quote_interval> scanned(n);
  auto const intervals = thrust::make_transform_iterator(thrust::counting_iterator<std::uint32_t>(0),
                                                         position_interval{data, options.format.quote});
  thrust::inclusive_scan(ctx.policy(), intervals, intervals + static_cast<std::ptrdiff_t>(n), scanned.begin(),
                         quote_interval_plus{});
  std::vector<quote_interval> host(n);
  copy_to_host(thrust::raw_pointer_cast(scanned.data()), n, host.data(), ctx);
  for (quote_interval const& q : host) {
    out.parity.push_back(static_cast<std::uint8_t>(q.quotes));
    out.record_of.push_back(q.starts[0]);
    out.starts.push_back(q.start[0]);
    out.lines.push_back(q.lines_before[0]);
  }
  block_arrays const& a = w.arrays();
  std::vector<record_span> records(a.records.size());
  copy_to_host(thrust::raw_pointer_cast(a.records.data()), records.size(), records.data(), ctx);
  std::vector<record_check> checks(a.checks.size());
  copy_to_host(thrust::raw_pointer_cast(a.checks.data()), checks.size(), checks.data(), ctx);
  std::vector<key_field> keys(a.keys.size());
  copy_to_host(thrust::raw_pointer_cast(a.keys.data()), keys.size(), keys.data(), ctx);
  std::vector<parsed_value> values(a.values.size());
  copy_to_host(thrust::raw_pointer_cast(a.values.data()), values.size(), values.data(), ctx);
  for (record_span const& r : records) {
    out.begins.push_back(r.begin);
    out.ends.push_back(r.end);
    out.record_lines.push_back(r.line);
  }
  for (record_check const& c : checks) out.statuses.push_back(static_cast<std::uint8_t>(c.status));
  for (key_field const& k : keys) {
    out.key_begin.push_back(k.begin);
    out.key_size.push_back(k.size);
  }
  for (parsed_value const& v : values) {
    out.mantissas.push_back(v.mantissa);
    out.digits.push_back(v.digits);
    out.missing.push_back(v.missing);
  }
  w.finish();
  out.answer.rows = rows_of(w.partial(), ctx);
  out.answer.scales = w.scales();
  out.answer.records = w.records();
  out.answer.lines = t.lines;
  out.answer.bytes = n;
  return out;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan::group

// The `group` entry's points on this file's system (rowscan/workload.hpp).
template <>
auto rowscan::group::workload::job(this_system, job::input_sequence& inputs, options const& o) -> partial {
  return group::summarize_each(inputs, o);
}

template <>
auto rowscan::group::workload::explain_text(this_system, std::string const& text, std::string const& label,
                                            options const& o) -> explained {
  return group::explain(text, label, o);
}
