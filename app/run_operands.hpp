// SPDX-License-Identifier: Apache-2.0
// app/run_operands.hpp: a job command's run over its FILE operands as the command line asks for it (the
// progress meter, --devices' GPUs and hand-over), rank 0's answer written out, and --explain's
// (rowscan/process/scale_out.hpp runs the shares and merges the ranks' answers).
#pragma once

#include "rowscan/explain/arrays.hpp"
#include "rowscan/io/huge_pages.hpp"
#include "rowscan/inputs/workloads.hpp"
#include "rowscan/io/input_file.hpp"
#include "rowscan/job/timeline.hpp"
#include "rowscan/process/scale_out.hpp"

#include "command_line.hpp"
#include "devices.hpp"
#include "rowscan/io/output.hpp"
#include "progress.hpp"
#include "stats.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace rowscan::app {

/// The answer's text, in one block that doubles and is read where it is. std::stringbuf copies its text
/// into a string twice the size each time it fills, and str() copies it once more: an answer of a million
/// stations is tens of MB, and each page of every copy is a page fault. From 2 MiB on the block is in
/// transparent huge pages (rowscan/io/huge_pages.hpp), one fault for 2 MiB, where a block that realloc grew
/// took one for each 4 KiB.
class text_buffer final : public std::streambuf {
 public:
  text_buffer() = default;
  text_buffer(text_buffer const&) = delete;
  text_buffer& operator=(text_buffer const&) = delete;
  ~text_buffer() override { std::free(data_); }

  std::string_view text() const { return {data_, size()}; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    grow(size() + 1);
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    return c;
  }
  std::streamsize xsputn(char const* s, std::streamsize n) override {
    if (n <= 0) return 0;
    auto const bytes = static_cast<std::size_t>(n);
    grow(size() + bytes);
    std::memcpy(pptr(), s, bytes);
    advance(bytes);
    return n;
  }

 private:
  std::size_t size() const { return data_ == nullptr ? 0 : static_cast<std::size_t>(pptr() - pbase()); }
  /// Room for `bytes` in all: at least twice the capacity, the put area moved with the block.
  void grow(std::size_t bytes) {
    if (bytes <= capacity_) return;
    std::size_t const used = size();
    std::size_t capacity = capacity_ < 4096 ? 4096 : 2 * capacity_;
    if (capacity < bytes) capacity = bytes;
    if (capacity < io::huge_page_bytes) {
      void* const p = std::realloc(data_, capacity);
      if (p == nullptr) throw std::bad_alloc();
      data_ = static_cast<char*>(p);
    } else {
      // In huge pages: each 4 KiB page of a block that realloc grew was a page fault of its own.
      capacity = io::whole_huge_pages(capacity);
      auto* const p = static_cast<char*>(io::allocate_huge_pages(capacity));
      if (used > 0) std::memcpy(p, data_, used);
      std::free(data_);
      data_ = p;
    }
    capacity_ = capacity;
    setp(data_, data_ + capacity_);
    advance(used);
  }
  /// pbump takes an int: larger steps go in pieces.
  void advance(std::size_t bytes) {
    constexpr std::size_t step = std::numeric_limits<int>::max();
    for (; bytes > step; bytes -= step) pbump(static_cast<int>(step));
    pbump(static_cast<int>(bytes));
  }

  char* data_ = nullptr;
  std::size_t capacity_ = 0;
};

using process::scale_out_report;

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

/// A job command's run of workload W over its FILE operands (run_operands), then rank 0's last steps: the
/// answer formatted whole before anything reaches stdout (an error prints nothing there), --skip-invalid's
/// line, the output stage's time, and with --stats the stages and the ranks' figures. write(std::ostream&,
/// answer) formats the answer; headline(answer) is --stats' line.
template <class W, class Write, class Headline>
void answer_operands(char const* command, cxxopts::ParseResult const& args, engine const& on,
                     std::vector<std::string> const& operands, inputs::input_settings const& settings,
                     typename W::options& options, Write const& write, Headline const& headline) {
  auto const start = std::chrono::steady_clock::now();
  scale_out_report ranks_report;
  auto answer = run_operands(args, on, operands, settings, options, inputs::workload_of<W>(on, options), ranks_report);
  job::timeline_mark("run returned");  // the engine's workers are gone: their memory freed
  if (!answer) return;                 // not rank 0: rank 0 writes the answer
  auto const output_start = std::chrono::steady_clock::now();
  text_buffer buffer;
  std::ostream text(&buffer);
  write(text, *answer);
  io::write_standard_output(buffer.text());
  job::timeline_mark("answer written");
  report_skipped(answer->skipped);
  auto const end = std::chrono::steady_clock::now();
  answer->times.add("output", std::chrono::duration<double>(end - output_start).count());
  if (options.time_stages) {
    print_stats(command, headline(*answer), *answer, std::chrono::duration<double>(end - start).count());
    print_rank_figures(command, ranks_report);
  }
}

/// --explain: the one FILE's small text (--crlf's CRs dropped when `crlf`), explain(out, input, text)
/// written whole to stdout, or nothing there if the input is bad.
template <class Explain>
void print_explained(cxxopts::ParseResult const& args, engine const& on, bool crlf, Explain const& explain) {
  use_chosen_gpu(args, on);
  io::input_file input(single_file_operand(args), io::text_options{crlf});
  std::string const text = explain::read_small_input(input.fd(), input.label());
  std::ostringstream out;
  explain(out, input, text);
  io::write_standard_output(out.str());
}

}  // namespace rowscan::app
