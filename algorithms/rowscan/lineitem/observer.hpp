// SPDX-License-Identifier: Apache-2.0
// rowscan/lineitem/observer.hpp: a window onto a lineitem block's stages, for --explain.
//
// The block composition (worker.hpp) calls it right after the block's rows are parsed into the column
// store, with every array still on the device; explain.cu's observer copies them to the host.
#pragma once

#include "rowscan/system.hpp"

#include "rowscan/context.hpp"
#include "rowscan/lineitem/columns.hpp"

#include <cstddef>

namespace rowscan::lineitem {
ROWSCAN_SYSTEM_BEGIN

class block_observer {
 public:
  virtual ~block_observer() = default;
  /// find_lines -> find_fields -> parse_rows over text[0, size): the records, the '|' positions and each
  /// record's first one, and the block's column store.
  virtual void parsed(char const* /*text*/, std::size_t /*size*/, chunk_buffers const&, column_store const&,
                      context const&) {}
};

ROWSCAN_SYSTEM_END
}  // namespace rowscan::lineitem
