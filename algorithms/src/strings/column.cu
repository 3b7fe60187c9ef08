// SPDX-License-Identifier: Apache-2.0
#include "rowscan/strings/column.hpp"

#include <thrust/copy.h>
#include <thrust/fill.h>
#include <thrust/host_vector.h>

namespace rowscan {
ROWSCAN_SYSTEM_BEGIN

strings_column::strings_column() : offsets(1) { thrust::fill(offsets.begin(), offsets.end(), std::int64_t{0}); }

std::vector<std::string> to_host_strings(strings_column const& column) {
  thrust::host_vector<char> chars(column.chars.size());
  thrust::host_vector<std::int64_t> offsets(column.offsets.size());
  thrust::copy(column.chars.begin(), column.chars.end(), chars.begin());
  thrust::copy(column.offsets.begin(), column.offsets.end(), offsets.begin());
  std::vector<std::string> strings;
  strings.reserve(column.size());
  for (std::size_t i = 0; i + 1 < offsets.size(); ++i) {
    strings.emplace_back(chars.data() + offsets[i], static_cast<std::size_t>(offsets[i + 1] - offsets[i]));
  }
  return strings;
}

strings_column make_strings_column(std::vector<std::string> const& strings, std::shared_ptr<device_resource> resource) {
  thrust::host_vector<std::int64_t> offsets(strings.size() + 1, 0);
  std::string chars;
  for (std::size_t i = 0; i < strings.size(); ++i) {
    chars += strings[i];
    offsets[i + 1] = static_cast<std::int64_t>(chars.size());
  }
  strings_column column(device_buffer<char>(chars.size(), resource), device_buffer<std::int64_t>(offsets.size(), resource));
  thrust::copy(chars.begin(), chars.end(), column.chars.begin());
  thrust::copy(offsets.begin(), offsets.end(), column.offsets.begin());
  return column;
}

ROWSCAN_SYSTEM_END
}  // namespace rowscan
