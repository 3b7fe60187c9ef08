#include "rowscan/strings/column.hpp"

namespace rowscan {

std::vector<std::string> to_host_strings(strings_column const& column) {
  thrust::host_vector<char> const chars = column.chars;
  thrust::host_vector<std::int64_t> const offsets = column.offsets;
  std::vector<std::string> strings;
  strings.reserve(column.size());
  for (std::size_t i = 0; i + 1 < offsets.size(); ++i) {
    strings.emplace_back(chars.data() + offsets[i], static_cast<std::size_t>(offsets[i + 1] - offsets[i]));
  }
  return strings;
}

strings_column make_strings_column(std::vector<std::string> const& strings) {
  thrust::host_vector<std::int64_t> offsets(strings.size() + 1, 0);
  std::string chars;
  for (std::size_t i = 0; i < strings.size(); ++i) {
    chars += strings[i];
    offsets[i + 1] = static_cast<std::int64_t>(chars.size());
  }
  strings_column column;
  column.chars.assign(chars.begin(), chars.end());
  column.offsets = offsets;
  return column;
}

}  // namespace rowscan
