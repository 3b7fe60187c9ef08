// SPDX-License-Identifier: Apache-2.0
// app/run_operands.hpp: a job command's run over its FILE operands as the command line asks for it (the
// progress meter, --devices' GPUs and hand-over), and rank 0's answer written out
// (rowscan/process/scale_out.hpp runs the shares and merges the ranks' answers).
#pragma once

#include "rowscan/job/timeline.hpp"
#include "rowscan/process/scale_out.hpp"

#include "command_line.hpp"
#include "devices.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "stats.hpp"

#include <chrono>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace rowscan::app {

using process::scale_out_report;

/// Rank 0's last steps of a job command: the answer formatted whole before anything reaches stdout (an
/// error prints nothing there), --skip-invalid's line, the output stage's time, and with --stats the
/// stages and the ranks' figures. write(std::ostream&) formats result; headline(result) is --stats' line.
template <class Result, class Write, class Headline>
void deliver_answer(char const* command, Result& result, Write const& write, Headline const& headline, bool time_stages,
                    std::chrono::steady_clock::time_point start, scale_out_report const& ranks_report) {
  auto const output_start = std::chrono::steady_clock::now();
  std::ostringstream text;
  write(text);
  write_standard_output(text.str());
  job::timeline_mark("answer written");
  report_skipped(result.skipped);
  auto const end = std::chrono::steady_clock::now();
  result.times.add("output", std::chrono::duration<double>(end - output_start).count());
  if (time_stages) {
    print_stats(command, headline(result), result, std::chrono::duration<double>(end - start).count());
    print_rank_figures(command, ranks_report);
  }
}

/// A command's run over its FILE operands, as every command makes it: the progress meter (one rank
/// alone), the GPUs chosen, the hand-over between host workers and GPUs, then summarize_inputs.
template <class Summary, class Options>
std::optional<Summary> run_operands(cxxopts::ParseResult const& args, engine const& on,
                                    std::vector<std::string> const& operands, inputs::input_settings const& settings,
                                    Options& options, inputs::workload<Summary, Options> const& work,
                                    scale_out_report& report) {
  progress_meter progress(0, wants_progress(args) && ranks::count() == 1);
  options.progress = [&progress](std::uint64_t done) { progress.update(done); };
  options.gpus = chosen_gpus(args, on);
  auto const hand = hand_over_choice(args, on, options);
  auto answer = process::summarize_inputs(
      operands, settings, options, work, &report, [&progress](std::uint64_t total) { progress.set_total(total); },
      hand ? &*hand : nullptr);
  progress.finish();
  options.progress = nullptr;  // the meter goes with this scope
  return answer;
}

}  // namespace rowscan::app
