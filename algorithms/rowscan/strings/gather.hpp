// rowscan/strings/gather.hpp: gather_strings, a strings column made of chosen strings of a source.
//
//   transform(string size) -> inclusive_scan -> offsets; for_each(copy one string) -> chars
#pragma once

#include "rowscan/context.hpp"
#include "rowscan/strings/column.hpp"

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>

#include <cstddef>
#include <cstdint>

namespace rowscan {

/// Size in bytes of the source string that output string k copies.
template <class Source, class IndexIt>
struct gathered_size {
  Source source;
  IndexIt indices;
  ROWSCAN_HD std::int64_t operator()(std::size_t k) const { return source(indices[k]).size; }
};

/// Copies source string indices[k] to its place in the output chars (one work item per string).
template <class Source, class IndexIt>
struct copy_gathered_string {
  Source source;
  IndexIt indices;
  std::int64_t const* offsets;
  char* chars;
  ROWSCAN_HD void operator()(std::size_t k) const {
    string_ref const s = source(indices[k]);
    char* const out = chars + offsets[k];
    for (std::uint32_t i = 0; i < s.size; ++i) out[i] = s.data[i];
  }
};

/// Output string k is source(indices[k]). Source is any functor index -> string_ref that runs on the
/// device system (a column_view, or a view of names inside a text chunk); indices may repeat and come
/// in any order. Reads and writes only the bytes of the strings themselves.
template <class Source, class IndexIt>
strings_column gather_strings(Source source, IndexIt indices, std::size_t count, context const& ctx) {
  strings_column out;
  out.offsets.resize(count + 1);
  out.offsets[0] = 0;
  auto sizes = thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0),
                                               gathered_size<Source, IndexIt>{source, indices});
  thrust::inclusive_scan(ctx.policy(), sizes, sizes + count, out.offsets.begin() + 1);
  out.chars.resize(static_cast<std::size_t>(out.offsets[count]));
  thrust::for_each(ctx.policy(), thrust::counting_iterator<std::size_t>(0), thrust::counting_iterator<std::size_t>(count),
                   copy_gathered_string<Source, IndexIt>{source, indices, thrust::raw_pointer_cast(out.offsets.data()),
                                                         thrust::raw_pointer_cast(out.chars.data())});
  return out;
}

}  // namespace rowscan
