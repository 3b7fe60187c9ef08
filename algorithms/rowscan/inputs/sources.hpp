// SPDX-License-Identifier: Apache-2.0
// rowscan/inputs/sources.hpp: the FILE operands as one input: files and directories resolved into a list of
// sources, and each process's share of them (whole files, or byte ranges of a large one).
//
// The answer is that of the sources read one after another, with one rule of their own: every file's
// records end with the file. A last line without '\n' is still a line of its own (it is not joined to
// the next file's first line, as `cat` would join it). Positions in errors and in --skip-invalid's
// record name the file, and count its lines and bytes from its own start.
#pragma once

#include "rowscan/utf8.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rowscan::inputs {

/// One file of the input, as resolved before anything is read.
struct input_source {
  std::string path;        ///< as given, or DIRECTORY/NAME; "-" for standard input
  std::uint64_t size = 0;  ///< bytes on disk (0 for standard input)
  /// A regular text file, which may be cut into byte ranges; compressed files and standard input are
  /// read whole, by one process.
  bool splittable = false;
  /// --crlf: lines end with CR LF, and the CRs are dropped as the file is read (io::text_options), so
  /// the file is read whole, as a stream, by one process.
  bool crlf = false;
  /// The file's first record is a header, not data (`rowscan group --header`): it is read past before
  /// the file's text is folded, and counts as the file's first line. Such a file is read whole.
  bool header = false;
  char quote = 0;  ///< the quote byte of quoted fields (0: none), for finding the header's end
  /// A descriptor of a memory file that holds the file's bytes (a session's cache:
  /// rowscan/session/resident_cache.hpp), read in its place under the same name; -1: the file is read.
  int resident_fd = -1;
};

/// How the FILE operands are read.
struct input_settings {
  bool recursive = false;  ///< --recursive: a directory's subdirectories are read too
  bool crlf = false;       ///< --crlf
  /// Every file is read whole by one process: its records may hold a quoted '\n', so a byte range
  /// cannot find where its records start.
  bool whole_files = false;
  bool header = false;     ///< input_source::header, for every file
  char quote = 0;          ///< input_source::quote, for every file
};

/// The operands resolved: the sources, the subdirectories left out (without --recursive), and the
/// symbolic links to directories found in a directory (never followed).
struct resolved_inputs {
  std::vector<input_source> sources;
  std::vector<std::string> skipped_directories;
  std::vector<std::string> skipped_links;
};

/// The name errors give a source ("<stdin>" for "-").
/// A name holding control bytes or bytes that are not UTF-8 is escaped (display_name).
inline std::string source_label(input_source const& source) {
  return source.path == "-" ? "<stdin>" : display_name(source.path);
}

/// The operands resolved in order: a file as itself, a directory as its regular files (symbolic links
/// to them included) in byte order of their names; "-" as standard input. Names that start with '.'
/// (dot-files and dot-directories) in a directory are skipped. A subdirectory is read in its place in
/// that order with settings.recursive, and listed in skipped_directories otherwise; a symbolic link to a
/// directory is never followed, and listed in skipped_links. Each file is opened and its first bytes classified
/// (io::classify_input), so a missing, unreadable or non-text file is an error before any file is
/// read: rowscan::error naming it, with input_file's wording. No file at all (empty directories, or
/// only dot-files) is a rowscan::error too. "-" twice is a usage_error: standard input is read once.
resolved_inputs resolve_inputs(std::vector<std::string> const& operands, input_settings const& settings = {});

/// The stderr lines that name what a run left out of its directories (nothing if nothing was): one for
/// subdirectories, `rowscan: warning: skipped 2 subdirectories (read them with --recursive): d/x, d/y`,
/// and one for symbolic links to directories, which --recursive does not follow either.
std::string skipped_warning(resolved_inputs const& resolved);

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


}  // namespace rowscan::inputs
