// SPDX-License-Identifier: Apache-2.0
// The non-template parts of the scale-out (scale_out.hpp).
#include "rowscan/process/scale_out.hpp"

#include <iostream>

namespace rowscan::process {

std::vector<inputs::input_source> shared_sources(std::vector<std::string> const& operands, inputs::input_settings const& settings) {
  auto resolve = [&] {
    inputs::resolved_inputs resolved = inputs::resolve_inputs(operands, settings);
    std::cerr << inputs::skipped_warning(resolved);
    return std::move(resolved.sources);
  };
  if (ranks::count() == 1) return resolve();
  // Rank 0 resolves; every rank gets its list, or its error with the exit code it calls for.
  enum : std::uint64_t { resolved, failed, misused };
  wire_writer out;
  if (ranks::is_root()) {
    try {
      for (std::string const& operand : operands) {
        if (operand == "-") {
          throw usage_error("standard input (-) cannot be shared by " + std::to_string(ranks::count()) +
                            " MPI ranks; name files instead");
        }
      }
      std::string const list = encode_sources(resolve());
      out.number(resolved);
      out.text(list);
    } catch (usage_error const& e) {
      out.number(misused);
      out.text(e.what());
    } catch (std::exception const& e) {
      out.number(failed);
      out.text(e.what());
    }
  }
  std::string const bytes = ranks::broadcast(out.bytes());
  wire_reader in(bytes);
  std::uint64_t const status = in.number();
  std::string const text = in.text();
  if (status == misused) throw usage_error(text);
  if (status == failed) throw error(text);
  return decode_sources(text);
}

std::vector<rank_figures> gather_figures(rank_figures const& mine) {
  wire_writer out;
  out.number(mine.bytes);
  out.number(mine.lines);
  out.raw(mine.seconds);
  std::vector<rank_figures> all;
  for (std::string const& bytes : ranks::gather_to_root(out.bytes())) {
    wire_reader in(bytes);
    rank_figures f;
    f.bytes = in.number();
    f.lines = in.number();
    f.seconds = in.raw<double>();
    all.push_back(f);
  }
  return all;
}

std::uint64_t share_bytes(std::vector<inputs::input_source> const& sources, std::vector<inputs::input_piece> const& share) {
  std::uint64_t bytes = 0;
  for (inputs::input_piece const& piece : share) {
    if (sources[piece.source].path == "-") return 0;
    if (!sources[piece.source].splittable && sources[piece.source].size == 0) continue;  // an empty file
    if (!sources[piece.source].splittable) return 0;  // compressed: its text's size is unknown
    bytes += piece.end - piece.begin;
  }
  return bytes;
}

std::string encode_sources(std::vector<inputs::input_source> const& sources) {
  wire_writer out;
  out.number(sources.size());
  for (inputs::input_source const& s : sources) {
    out.text(s.path);
    out.number(s.size);
    out.number(s.splittable ? 1 : 0);
    out.number(s.crlf ? 1 : 0);
    out.number(s.header ? 1 : 0);
    out.number(static_cast<unsigned char>(s.quote));
  }
  return out.bytes();
}

std::vector<inputs::input_source> decode_sources(std::string const& bytes) {
  wire_reader in(bytes);
  std::vector<inputs::input_source> sources(in.number());
  for (inputs::input_source& s : sources) {
    s.path = in.text();
    s.size = in.number();
    s.splittable = in.number() != 0;
    s.crlf = in.number() != 0;
    s.header = in.number() != 0;
    s.quote = static_cast<char>(in.number());
  }
  return sources;
}

}  // namespace rowscan::process
