#include "cli/output_format.h"

#include <array>
#include <utility>

namespace lbsim {
namespace {

// Whether `name` ends in `suffix`, ignoring ASCII case.
bool EndsWithNoCase(std::string_view name, std::string_view suffix) {
  if (name.size() < suffix.size()) return false;
  name.remove_prefix(name.size() - suffix.size());
  for (std::size_t i = 0; i < suffix.size(); ++i) {
    char c = name[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != suffix[i]) return false;
  }
  return true;
}

// File name endings (lower case) and the formats they imply.
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kByExtension{{
    {".html", "html"},
    {".htm", "html"},
}};

}  // namespace

std::string OutputFormat(const std::string& format, std::string_view output,
                         std::string_view fallback) {
  if (!format.empty()) return format;
  for (const auto& [extension, implied] : kByExtension)
    if (EndsWithNoCase(output, extension)) return std::string(implied);
  return std::string(fallback);
}

}  // namespace lbsim
