#include "traces/importers/import_format.h"

#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "base/errors.h"

namespace lbsim {

std::span<const ImportFormat> ImportFormats() {
  static const std::vector<ImportFormat> formats = {MooncakeFormat(), AzureFormat(),
                                                    BurstGptFormat(), CacheRouteRecordFormat()};
  return formats;
}

const ImportFormat& RequireImportFormat(std::string_view name) {
  std::string key(name);
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string names;
  for (const ImportFormat& f : ImportFormats()) {
    if (f.name == key) return f;
    if (!names.empty()) names += ", ";
    names += f.name;
  }
  throw UsageError(fmt::format("--from: unknown trace format '{}'; expected one of: {}",
                               name, names));
}

}  // namespace lbsim
