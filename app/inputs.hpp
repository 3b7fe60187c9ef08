// SPDX-License-Identifier: Apache-2.0
// app/inputs.hpp: the FILE operands as one input: files and directories resolved into a list of
// sources, and each process's share of them (whole files, or byte ranges of a large one).
//
// The answer is that of the sources read one after another, with one rule of their own: every file's
// records end with the file. A last line without '\n' is still a line of its own (it is not joined to
// the next file's first line, as `cat` would join it). Positions in errors and in --skip-invalid's
// record name the file, and count its lines and bytes from its own start.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::app {

/// One file of the input, as resolved before anything is read.
struct input_source {
  std::string path;        ///< as given, or DIRECTORY/NAME; "-" for standard input
  std::uint64_t size = 0;  ///< bytes on disk (0 for standard input)
  /// A regular text file, which may be cut into byte ranges; compressed files and standard input are
  /// read whole, by one process.
  bool splittable = false;
};

/// The name errors give a source ("<stdin>" for "-").
inline std::string source_label(input_source const& source) { return source.path == "-" ? "<stdin>" : source.path; }

/// The operands resolved in order: a file as itself, a directory as its regular files (symbolic links
/// to them included) in byte order of their names, not descending into subdirectories; "-" as standard
/// input. Each file is opened and its first bytes classified (io::classify_input), so a missing,
/// unreadable or non-text file is an error before any file is read: rowscan::error naming it, with
/// input_file's wording. An empty directory adds nothing.
std::vector<input_source> resolve_inputs(std::vector<std::string> const& operands);

/// A piece of the input one process folds: bytes [begin, end) of a source, before they are moved to
/// line starts (io::line_start_at_or_after) when the piece is not the whole file.
struct input_piece {
  std::size_t source = 0;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  bool whole = true;
};

/// The share of process `rank` among `ranks`, in input order. The sources' bytes, laid end to end, are
/// cut into `ranks` equal spans; a splittable file is cut where the spans are, an unsplittable one goes
/// whole to the span holding its first byte. Shares of neighbouring ranks are neighbours in the input.
std::vector<input_piece> share_of(std::vector<input_source> const& sources, int rank, int ranks);

/// The pieces of a share cut again, for workers that claim them one at a time in input order: a
/// piece of a splittable file longer than `bytes` becomes pieces of `bytes` (the last shorter); other
/// pieces stay as they are.
std::vector<input_piece> cut_into_claims(std::vector<input_piece> const& share, std::uint64_t bytes);

/// Consecutive pieces with neighbouring byte ranges of one file joined into one (what is left of a
/// share after some of its claims were taken, folded as few runs as possible).
std::vector<input_piece> joined(std::vector<input_piece> const& pieces);

/// Sources as bytes and back (rank 0 resolves; the others receive its list).
std::string encode_sources(std::vector<input_source> const& sources);
std::vector<input_source> decode_sources(std::string const& bytes);
/// Pieces as bytes and back (for the host system's copy of the tool, early_workers.hpp).
std::string encode_pieces(std::vector<input_piece> const& pieces);
std::vector<input_piece> decode_pieces(std::string const& bytes);

}  // namespace rowscan::app
