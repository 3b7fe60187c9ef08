// SPDX-License-Identifier: Apache-2.0
#include "progress.hpp"

#include <cstdio>
#include <cstdlib>
#include <sys/stat.h>

namespace rowscan::app {

progress_meter::progress_meter(std::uint64_t total_bytes, bool enabled) : total_(total_bytes), enabled_(enabled) {
  // Testing aid: ROWSCAN_PROGRESS_AFTER_SECONDS=S draws the bar after S seconds instead of 1.
  if (char const* value = std::getenv("ROWSCAN_PROGRESS_AFTER_SECONDS"); value != nullptr && *value != '\0') {
    char* end = nullptr;
    double const seconds = std::strtod(value, &end);
    if (end != nullptr && *end == '\0' && seconds >= 0) after_seconds_ = seconds;
  }
}

namespace {

/// The unit the bar counts in: GB from a total (or, without one, a done) of 1 GB, else MB, so that a
/// small output never shows "0.0 of 0.0 GB".
struct unit {
  double size;
  char const* name;
};
unit unit_for(std::uint64_t bytes) { return bytes >= 1'000'000'000 ? unit{1e9, "GB"} : unit{1e6, "MB"}; }

}  // namespace

std::string progress_meter::render(std::uint64_t done, std::uint64_t total, double seconds) {
  constexpr int width = 30;
  double const rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  unit const u = unit_for(total != 0 ? total : done);
  char text[160];
  if (total == 0) {  // size unknown: no bar, no estimate
    std::snprintf(text, sizeof text, "%.1f %s  %.1f %s/s", static_cast<double>(done) / u.size, u.name, rate / u.size,
                  u.name);
    return text;
  }
  double const fraction = done >= total ? 1.0 : static_cast<double>(done) / static_cast<double>(total);
  int const filled = static_cast<int>(fraction * width);
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.append(static_cast<std::size_t>(width - filled), '.');
  double const left = rate > 0 ? static_cast<double>(total - (done < total ? done : total)) / rate : 0;
  std::snprintf(text, sizeof text, "[%s] %3d%%  %.1f of %.1f %s  %.1f %s/s  %.1f s left", bar.c_str(),
                static_cast<int>(fraction * 100), static_cast<double>(done) / u.size, static_cast<double>(total) / u.size,
                u.name, rate / u.size, u.name, left);
  return text;
}

void progress_meter::update(std::uint64_t done_bytes) {
  if (!enabled_) return;
  auto const now = clock::now();
  double const seconds = std::chrono::duration<double>(now - start_).count();
  if (seconds < after_seconds_ || now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  std::fprintf(stderr, "\r%s\033[K", render(done_bytes, total_, seconds).c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void progress_meter::finish() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");  // erase the bar: the answer and any error start on a clean line
  std::fflush(stderr);
  drawn_ = false;
}

std::uint64_t regular_file_bytes(int fd) {
  struct stat st{};
  return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
}

}  // namespace rowscan::app
