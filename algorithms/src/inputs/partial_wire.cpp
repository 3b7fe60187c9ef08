// SPDX-License-Identifier: Apache-2.0
// Partial answers and outcomes as bytes (rowscan/inputs/partial_wire.hpp).
#include "rowscan/inputs/partial_wire.hpp"

#include <malloc.h>

namespace rowscan::inputs {

void encode_report(wire_writer& out, job::run_report const& r) {
  for (std::uint64_t n : {r.bytes, r.lines, std::uint64_t{r.chunks}, std::uint64_t{r.chunk_size},
                          std::uint64_t{r.device_bytes}, std::uint64_t{r.pool_peak_bytes},
                          std::uint64_t{r.threads_while_folding}}) {
    out.number(n);
  }
  auto const stages = r.times.stages();
  out.number(stages.size());
  for (auto const& [name, seconds] : stages) {
    out.text(name);
    out.raw(seconds);
  }
  encode(out, r.shares);
}

void decode_report(wire_reader& in, job::run_report& r) {
  r.bytes = in.number();
  r.lines = in.number();
  r.chunks = in.number();
  r.chunk_size = in.number();
  r.device_bytes = in.number();
  r.pool_peak_bytes = in.number();
  r.threads_while_folding = in.number();
  r.times = job::stage_times();
  for (std::uint64_t n = in.number(); n > 0; --n) {
    std::string const name = in.text();
    r.times.add(name.c_str(), in.raw<double>());
  }
  decode(in, r.shares);
}

void encode(wire_writer& out, job::bad_line const& line) {
  out.number(line.source);
  out.number(line.line);
  out.number(line.byte);
  out.text(line.why);
  out.number(line.column);
  out.text(line.quote);
}

void decode(wire_reader& in, job::bad_line& line) {
  line.source = in.number();
  line.line = in.number();
  line.byte = in.number();
  line.why = in.text();
  line.column = in.number();
  line.quote = in.text();
}

void encode(wire_writer& out, job::tally const& t) {
  for (std::uint64_t n : {t.bytes, t.lines, t.skipped, t.source, std::uint64_t{t.opens_source}, t.earlier_bytes, t.earlier_lines}) {
    out.number(n);
  }
  out.number(t.first_skipped.size());
  for (job::bad_line const& line : t.first_skipped) encode(out, line);
  out.number(t.stop ? 1 : 0);
  if (t.stop) encode(out, *t.stop);
  out.number(t.failure ? 1 : 0);
  if (t.failure) out.text(*t.failure);
}

void decode(wire_reader& in, job::tally& t) {
  t.bytes = in.number();
  t.lines = in.number();
  t.skipped = in.number();
  t.source = in.number();
  t.opens_source = in.number() != 0;
  t.earlier_bytes = in.number();
  t.earlier_lines = in.number();
  t.first_skipped.resize(in.number());
  for (job::bad_line& line : t.first_skipped) decode(in, line);
  t.stop.reset();
  if (in.number() != 0) decode(in, t.stop.emplace());
  t.failure.reset();
  if (in.number() != 0) t.failure = in.text();
}

void encode(wire_writer& out, std::vector<job::worker_share> const& shares) {
  out.number(shares.size());
  for (job::worker_share const& w : shares) {
    out.number(w.blocks);
    out.number(w.bytes);
    out.raw(w.busy_seconds);
    out.raw(w.first_block_at);
    out.number(w.on_gpu ? 1 : 0);
  }
}

void decode(wire_reader& in, std::vector<job::worker_share>& shares) {
  shares.resize(in.number());
  for (job::worker_share& w : shares) {
    w.blocks = in.number();
    w.bytes = in.number();
    w.busy_seconds = in.raw<double>();
    w.first_block_at = in.raw<double>();
    w.on_gpu = in.number() != 0;
  }
}

void keep_freed_buffers_mapped() {
  mallopt(M_MMAP_THRESHOLD, 8 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

}  // namespace rowscan::inputs
