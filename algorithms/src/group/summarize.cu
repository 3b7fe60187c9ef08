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
#include "rowscan/job/lent_workers.hpp"
#include "rowscan/job/worker_set.hpp"
#include "rowscan/read_back.hpp"

#include <thrust/copy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform.h>

#include <algorithm>
#include <memory>
#include <string>
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

/// Word w's quote bits (high half) and '\n' bits (low half), for --explain.
struct word_bits {
  quote_words words;
  ROWSCAN_HD std::uint64_t operator()(std::uint32_t w) const {
    std::uint32_t q = 0, n = 0;
    words.bits(w, &q, &n);
    return (std::uint64_t{q} << 32) | n;
  }
};

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

std::unique_ptr<job::lent_group<summary>> lend(summarize_options const& options) {
  ROWSCAN_EXPECTS(!options.format.keys.empty() && !options.format.values.empty(),
                  "group needs a key and a value column");
  summary out;
  out.times = job::stage_times(stage_names());
  out.chunk_size = job::chosen_chunk_size(options, {min_chunk_size, default_chunk_size});
  out.scales.assign(options.format.values.size(),
                    options.format.scale >= 0 ? static_cast<unsigned>(options.format.scale) : 0u);
  std::size_t const carried = std::min(out.chunk_size, max_carried_record);
  job::block_layout const layout{out.chunk_size, carried, key_padding_bytes, options.format.quote};
  return job::lend_workers<worker>(
      options, std::move(out), layout,
      [&](context const& ctx) {
        return worker(ctx, {options.format, key_mask(options.key_bits), carried, options.skip_invalid});
      },
      [](job::worker_set<worker>& workers, summary report, std::string const&) {
        summary answer = answer_of(workers, std::move(report));
        job::timeline_mark("answer merged");
        return answer;
      });
}

summary summarize_each(job::input_sequence& inputs, summarize_options const& options) {
  auto const workers = job::lend_with_one_thread(options, !ROWSCAN_HAS_CUB, lend);
  return job::run_lent(inputs, options, *workers);  // the workers go after the answer: their memory freed
}

explained_group explain(std::string const& text, std::string const& label, summarize_options const& options) {
  context ctx;
  explained_group out;
  worker w(ctx, {options.format, key_mask(options.key_bits), max_carried_record, false}, true);
  // The text at a word's start (the words the walkthrough shows start at 0 on every system), and
  // padding after it: known_keys.hpp reads past a key.
  thrust::device_vector<char> device_text(quote_word_bytes + text.size() + key_padding_bytes, '\0');
  std::uint32_t const head = quote_word_head(thrust::raw_pointer_cast(device_text.data()));
  std::size_t const offset = head == 0 ? 0 : quote_word_bytes - head;
  thrust::copy(text.begin(), text.end(), device_text.begin() + static_cast<std::ptrdiff_t>(offset));
  char const* const data = thrust::raw_pointer_cast(device_text.data()) + offset;
  job::tally const t = w.fold(data, text.size());
  if (t.stop) throw job::located(*t.stop, label);

  // The word scan's input and output, as find_records computes them (for the walkthrough), and what
  // they imply at every byte.
  std::size_t const words = quote_word_count(data, text.size());
  thrust::device_vector<quote_interval> own(words), scanned(words);
  scan_quote_intervals(data, text.size(), options.format.quote, thrust::raw_pointer_cast(own.data()),
                       thrust::raw_pointer_cast(scanned.data()), ctx);
  std::vector<quote_interval> own_host(words), scanned_host(words);
  copy_to_host(thrust::raw_pointer_cast(own.data()), words, own_host.data(), ctx);
  copy_to_host(thrust::raw_pointer_cast(scanned.data()), words, scanned_host.data(), ctx);
  quote_words const quoted(data, static_cast<std::uint32_t>(text.size()), options.format.quote);
  thrust::device_vector<std::uint64_t> bits(words);
  thrust::transform(ctx.policy(), thrust::counting_iterator<std::uint32_t>(0),
                    thrust::counting_iterator<std::uint32_t>(static_cast<std::uint32_t>(words)), bits.begin(),
                    word_bits{quoted});
  std::vector<std::uint64_t> bits_host(words);
  copy_to_host(thrust::raw_pointer_cast(bits.data()), words, bits_host.data(), ctx);
  std::size_t const n = text.size();
  for (std::size_t w = 0; w < words; ++w) {
    auto const q = static_cast<std::uint32_t>(bits_host[w] >> 32);
    auto const nl = static_cast<std::uint32_t>(bits_host[w]);
    quote_interval const& o = own_host[w];
    quote_interval const& before = scanned_host[w];
    out.word_first.push_back(quoted.first_position(static_cast<std::uint32_t>(w)));
    out.word_quotes.push_back(q);
    out.word_newlines.push_back(nl);
    out.own_parity.push_back(static_cast<std::uint8_t>(o.quotes));
    for (int s = 0; s < 2; ++s) {
      out.own_ends[s].push_back(o.starts[s]);
      out.own_start[s].push_back(o.start[s]);
    }
    out.entry_parity.push_back(static_cast<std::uint8_t>(before.quotes));
    out.records_before.push_back(before.starts[0]);
    out.start_before.push_back(before.start[0]);
    // The word's bytes from its entry state: the same bits emit_word_records reads.
    std::uint32_t parity = before.quotes, record = before.starts[0], start = before.start[0],
                  lines = before.lines_before[0], lines_through = before.lines;
    for (std::uint32_t j = 0; j < quote_word_bytes; ++j) {
      std::int64_t const i = out.word_first.back() + j;
      if (i < 0 || static_cast<std::size_t>(i) >= n) continue;
      if ((q >> j) & 1u) parity ^= 1u;
      out.parity.push_back(static_cast<std::uint8_t>(parity));
      out.record_of.push_back(record);
      out.starts.push_back(start);
      out.lines.push_back(lines);
      if (!((nl >> j) & 1u)) continue;
      ++lines_through;
      if (parity == 0) {
        ++record;
        start = static_cast<std::uint32_t>(i + 1);
        lines = lines_through;
      }
    }
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
auto rowscan::group::workload::lend(this_system, options const& o) -> lent {
  return group::lend(o);
}

template <>
auto rowscan::group::workload::explain_text(this_system, std::string const& text, std::string const& label,
                                            options const& o) -> explained {
  return group::explain(text, label, o);
}
