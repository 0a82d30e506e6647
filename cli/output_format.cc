#include "cli/output_format.h"

#include <algorithm>
#include <cctype>

namespace lbsim {

std::optional<std::string> FormatFromExtension(std::string_view path) {
  const std::size_t dot = path.rfind('.');
  const std::size_t slash = path.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash))
    return std::nullopt;
  std::string ext(path.substr(dot + 1));
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "json") return "json";
  if (ext == "csv") return "csv";
  if (ext == "html" || ext == "htm") return "html";
  if (ext == "txt") return "table";
  if (ext == "md" || ext == "markdown") return "md";
  return std::nullopt;
}

std::string ChooseFormat(const std::optional<std::string>& given, std::string_view output,
                         std::span<const std::string_view> known, std::string_view fallback) {
  if (given) return *given;
  if (std::optional<std::string> f = FormatFromExtension(output))
    if (std::find(known.begin(), known.end(), *f) != known.end()) return *f;
  return std::string(fallback);
}

}  // namespace lbsim
