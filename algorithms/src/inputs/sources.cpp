// SPDX-License-Identifier: Apache-2.0
// The FILE operands resolved and shared out (inputs.hpp).
#include "rowscan/inputs/sources.hpp"

#include "rowscan/error.hpp"
#include "rowscan/io/input_file.hpp"


#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rowscan::inputs {
namespace {

/// A named file's source: a regular file is opened and classified here, so that its errors come before
/// any reading. Anything else (a FIFO, a device) is left unopened, to be read once as a stream: opening a
/// FIFO twice would wait for a writer, and closing it early could cut the writer off.
input_source file_source(std::string const& path, bool crlf) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) throw error(display_name(path) + ": cannot open: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return {path, 0, false, crlf};
  int const fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw error(display_name(path) + ": cannot open: " + std::strerror(errno));
  char first[8];
  ssize_t const got = ::pread(fd, first, sizeof first, 0);
  ::close(fd);
  input_source source{path, static_cast<std::uint64_t>(st.st_size), false, crlf};
  auto const kind = io::classify_input(std::string_view(first, got > 0 ? static_cast<std::size_t>(got) : 0), path);
  source.splittable = kind == io::input_kind::text && source.size > 0 && !crlf;
  return source;
}

/// A directory's regular files in byte order of their names (symbolic links to files followed), without
/// names that start with '.'; its subdirectories read in their place (recursive) or added to
/// out.skipped_directories; symbolic links to directories added to out.skipped_links.
void add_directory_files(std::string const& path, bool recursive, std::vector<std::string>& files,
                         resolved_inputs& out) {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) throw error(display_name(path) + ": cannot open: " + std::strerror(errno));
  std::vector<std::string> names;
  while (dirent const* entry = ::readdir(dir)) {
    if (entry->d_name[0] != '.') names.emplace_back(entry->d_name);  // also "." and ".."
  }
  ::closedir(dir);
  std::sort(names.begin(), names.end());  // std::string's < is unsigned bytes: the same on every host
  std::string const prefix = path.back() == '/' ? path : path + "/";
  for (std::string const& name : names) {
    struct stat st{};
    if (::stat((prefix + name).c_str(), &st) != 0) continue;
    if (S_ISREG(st.st_mode)) {
      files.push_back(prefix + name);
    } else if (S_ISDIR(st.st_mode)) {
      struct stat link{};
      bool const symlink = ::lstat((prefix + name).c_str(), &link) == 0 && S_ISLNK(link.st_mode);
      if (symlink) {
        out.skipped_links.push_back(prefix + name);  // never followed: a link may loop or leave the tree
      } else if (recursive) {
        add_directory_files(prefix + name, recursive, files, out);
      } else {
        out.skipped_directories.push_back(prefix + name);
      }
    }
  }
}

}  // namespace

resolved_inputs resolve_inputs(std::vector<std::string> const& operands, input_settings const& settings) {
  resolved_inputs out;
  bool standard_input = false;
  for (std::string const& operand : operands) {
    if (operand == "-") {
      if (standard_input) throw usage_error("standard input (-) is named twice; it can be read only once");
      standard_input = true;
      out.sources.push_back({"-", 0, false, settings.crlf});
      continue;
    }
    struct stat st{};
    if (::stat(operand.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      std::vector<std::string> files;
      add_directory_files(operand, settings.recursive, files, out);
      for (std::string const& file : files) out.sources.push_back(file_source(file, settings.crlf));
    } else {
      out.sources.push_back(file_source(operand, settings.crlf));
    }
  }
  for (input_source& source : out.sources) {
    if (settings.whole_files || settings.header) source.splittable = false;
    source.header = settings.header;
    source.quote = settings.quote;
  }
  if (out.sources.empty()) {
    std::string const skipped = out.skipped_directories.empty() ? "" : " (subdirectories are read with --recursive)";
    throw error("no input file: " + (operands.size() == 1 ? display_name(operands.front()) + " holds" : std::string("the operands hold")) +
                " no file to read (names that start with '.' are skipped)" + skipped);
  }
  return out;
}

std::string skipped_warning(resolved_inputs const& resolved) {
  auto line = [](std::vector<std::string> const& names, char const* one, char const* many, char const* why) {
    if (names.empty()) return std::string();
    std::string text = "rowscan: warning: skipped " + std::to_string(names.size()) + (names.size() == 1 ? one : many) + why;
    for (std::size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : ", ") + display_name(names[i]);
    return text + "\n";
  };
  return line(resolved.skipped_directories, " subdirectory", " subdirectories", " (read them with --recursive): ") +
         line(resolved.skipped_links, " symbolic link to a directory", " symbolic links to directories",
              " (links to directories are not followed, even with --recursive; name the directory itself): ");
}

std::vector<input_piece> share_of(std::vector<input_source> const& sources, int rank, int ranks) {
  std::uint64_t total = 0;
  for (input_source const& s : sources) total += s.size;
  // The span [lo, hi) of the bytes laid end to end; 128-bit products, so no input size overflows.
  auto cut = [&](int r) {
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(total) * static_cast<unsigned>(r) /
                                      static_cast<unsigned>(ranks));
  };
  std::uint64_t const lo = cut(rank);
  std::uint64_t const hi = cut(rank + 1);
  bool const last = rank + 1 == ranks;
  std::vector<input_piece> share;
  std::uint64_t at = 0;  // where the source starts, bytes laid end to end
  for (std::size_t i = 0; i < sources.size(); ++i) {
    input_source const& s = sources[i];
    std::uint64_t const start = at;
    at += s.size;
    if (!s.splittable) {
      // Whole, to the span holding its first byte (the last span takes those that start at the very end).
      if ((start >= lo && start < hi) || (last && start == total)) share.push_back({i, 0, s.size, true});
      continue;
    }
    std::uint64_t const begin = std::max(start, lo);
    std::uint64_t const end = std::min(at, hi);
    if (begin < end) share.push_back({i, begin - start, end - start, begin == start && end == at});
  }
  return share;
}

}  // namespace rowscan::inputs
