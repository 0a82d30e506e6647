#include "sim/report/warning.h"

#include <algorithm>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/split_text.h"

namespace lbsim {

bool IsWarningName(std::string_view name) {
  for (std::string_view w : kWarningNames)
    if (w == name) return true;
  return false;
}

std::string WarningNameList() {
  std::string out;
  for (std::string_view w : kWarningNames) out += (out.empty() ? "" : ", ") + std::string(w);
  return out;
}

std::vector<std::string> ParseFailOn(const std::vector<std::string>& values,
                                     std::string_view flag) {
  std::vector<std::string> names;
  for (const std::string& value : values) {
    for (std::string_view part : SplitAt(value, ',')) {
      const std::string name(part);
      if (name != "warning" && !IsWarningName(name))
        throw UsageError(fmt::format("{} {}: expected warning (any) or a warning name: {}", flag,
                                     name.empty() ? "''" : name, WarningNameList()));
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  return names;
}

}  // namespace lbsim
