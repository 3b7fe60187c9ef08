// SPDX-License-Identifier: Apache-2.0
// rowscan/session.hpp: an engine kept for many queries, with a cache of the files it read.
//
// A program or a notebook that asks several questions of the same files keeps a session: it chooses its
// engine once (and on a GPU makes its context once, and keeps its runs' streams and pools), and keeps what
// it read of its files in memory (rowscan/session/resident_cache.hpp): their bytes, and for lineitem the
// columns it parsed (rowscan/session/kept_columns.hpp), so that a second query of a file reads no file.
// Each query runs the same steps as the CLI's run of one process, and gives the same answer, errors and
// skipped lines, byte for byte when printed:
//
//   stations: operands -inputs::resolve_inputs-> sources -resident_cache::acquire-> each plain file's resident
//   text -inputs::share_of(all of it) -> inputs::fold_share (the engine's job: the driver's workers)
//   -> the answer, or the first error in input order -> keep the loaded texts (or drop them on an error)
//
//   lineitem: sources -> each file in input order: its kept columns (their sums), or the CLI's run over it,
//   parsing every block into columns, kept if every row was valid -> the answers added, the first error
//
// A session's member functions may be called from several threads at once; each query is a run of its
// own on the session's engine.
#pragma once

#include "rowscan/engine.hpp"
#include "rowscan/inputs/sources.hpp"
#include "rowscan/lineitem/summary.hpp"
#include "rowscan/session/resident_cache.hpp"
#include "rowscan/stations/summary.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rowscan {

/// A query stopped by its cancel flag (Ctrl-C in Python): no answer, and nothing of its files kept.
class cancelled : public error {
 public:
  cancelled() : error("interrupted") {}
};

struct session_options {
  /// Where queries run: "auto" (the GPU when one is usable, else the host's cores), "cpu", or "gpu".
  std::string devices = "auto";
  /// The cache's budget in bytes; nothing: a quarter of the memory available when the session starts
  /// (MemAvailable in /proc/meminfo). 0 keeps nothing.
  std::optional<std::uint64_t> cache_bytes;
  /// Host threads: N readers and N host workers (the CLI's --threads); 0: the CLI's default.
  unsigned threads = 0;
};

/// How one query reads its operands, besides its workload's options.
struct query_settings {
  inputs::input_settings inputs;              ///< --recursive, --crlf
  std::atomic<bool> const* cancel = nullptr;  ///< set: the query stops after the block being folded
  std::string* warnings = nullptr;            ///< gets the warning lines the CLI prints (skipped directories)
};

class session {
 public:
  /// Chooses the engine (throws rowscan::error for "gpu" without a usable GPU, usage_error for a bad
  /// `devices`) and starts its GPU's context.
  explicit session(session_options const& options = {});
  ~session();
  session(session const&) = delete;
  session& operator=(session const&) = delete;

  engine const& on() const;

  /// `rowscan stations OPERANDS...`: throws what the CLI reports (rowscan::error with its message).
  stations::summary stations(std::vector<std::string> const& operands, stations::summarize_options options,
                             query_settings const& settings = {});
  /// `rowscan lineitem OPERANDS... --suppkey-below ...`.
  lineitem::summary lineitem(std::vector<std::string> const& operands, lineitem::summarize_options options,
                             query_settings const& settings = {});

  resident::cache_figures cache() const;
  void clear_cache();

  struct state;

 private:
  std::unique_ptr<state> state_;
};

/// The cache budget a session takes without one: a quarter of MemAvailable (0 if it cannot be read), and on a
/// GPU at most half of its free memory, where the cache keeps a copy of each file.
std::uint64_t default_cache_bytes(engine const& on);
/// default_cache_bytes of the engine session_options{} chooses.
std::uint64_t default_cache_bytes();

}  // namespace rowscan
