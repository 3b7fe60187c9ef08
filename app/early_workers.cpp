// SPDX-License-Identifier: Apache-2.0
// The early workers' start (early_workers.hpp): the plan read back, and each command's workload.
#include "early_workers.hpp"
#include "workloads.hpp"

#include <exception>
#include <utility>

namespace rowscan::app {
namespace {

/// The plan's options, sources and claims, then the workers of a workload whose options are Options.
template <class Summary, class Options, class MakeWorkload>
void start(rowscan_shared::early_workers& share, wire_reader& plan, MakeWorkload make_workload) {
  Options options;
  decode(plan, options);
  std::vector<input_source> sources = decode_sources(plan.text());
  std::vector<input_piece> claims = decode_pieces(plan.text());
  share.runner = std::thread([&share, options = std::move(options), sources = std::move(sources),
                              claims = std::move(claims), make_workload] {
    try {
      run_early_workers(share, sources, claims, options, make_workload(options));
    } catch (std::exception const& e) {
      share.failure = e.what();
    }
  });
}

}  // namespace

void start_early_workers(rowscan_shared::early_workers& share) {
  wire_reader plan(share.plan);
  std::string const command = plan.text();
  if (command == "stations") {
    start<stations::summary, stations::summarize_options>(
        share, plan, [](stations::summarize_options const&) { return stations_workload(); });
  } else if (command == "lineitem") {
    start<lineitem::summary, lineitem::summarize_options>(
        share, plan, [](lineitem::summarize_options const& o) { return lineitem_workload(o.suppkey_below); });
  } else {
    throw error("early workers: no workload '" + command + "'");
  }
}

}  // namespace rowscan::app
