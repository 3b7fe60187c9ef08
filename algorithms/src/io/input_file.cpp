#include "rowscan/io/input_file.hpp"
#include "rowscan/error.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rowscan::io {

input_file::input_file(std::string const& path) : fd_(-1), owned_(path != "-"), label_(owned_ ? path : "<stdin>") {
  fd_ = owned_ ? ::open(path.c_str(), O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
  if (fd_ < 0) throw error(label_ + ": cannot open: " + std::strerror(errno));
  struct stat st{};
  if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
    if (owned_) ::close(fd_);
    throw error(label_ + ": cannot read: is a directory");
  }
}

input_file::~input_file() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

}  // namespace rowscan::io
