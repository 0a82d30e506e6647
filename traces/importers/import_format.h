#pragma once

#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "traces/importers/request_source.h"

namespace lbsim {

class InputFile;

// A public trace format `lbsim import` reads.
struct ImportFormat {
  std::string_view name;         // as given to --from, e.g. "mooncake"
  std::string_view description;  // one line
  std::string_view time_field;   // the key or column holding arrival times
  bool marks_failures = false;   // rows may be failed requests (see --failed)
  // Prompt tokens per prefix block id (Mooncake's hash_ids: 512), written
  // as the header's prefix_block_tokens; 0: the format has no blocks.
  std::uint64_t prefix_block_tokens = 0;
  // A recording of the Proxy itself (its pool, loads and decisions), not
  // requests: converted whole by ImportCacheRouteRecord, without --instances
  // or the token-time model; `open` is null.
  bool proxy_recording = false;
  // Opens a source over `file` (not owned); `display_path` names it in
  // messages; `input` (may be null) is what `file` reads and explains read
  // errors (of compressed data).
  std::unique_ptr<RequestSource> (*open)(std::FILE* file, std::string display_path,
                                         const InputFile* input) = nullptr;
};

// An ImportFormat::open for a Source constructed from (file, display_path,
// input).
template <typename Source>
std::unique_ptr<RequestSource> OpenSource(std::FILE* file, std::string display_path,
                                          const InputFile* input) {
  return std::make_unique<Source>(file, std::move(display_path), input);
}

// Every format, in listing order.
std::span<const ImportFormat> ImportFormats();

// The format called `name` (case-insensitive); throws UsageError listing
// the formats when there is none.
const ImportFormat& RequireImportFormat(std::string_view name);

// Defined in each format's own file.
ImportFormat MooncakeFormat();
ImportFormat AzureFormat();
ImportFormat BurstGptFormat();
ImportFormat CacheRouteRecordFormat();

}  // namespace lbsim
