#include "sim/scenario_files.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "sim/errors.h"

namespace lbsim {

std::vector<std::string> FindScenarioFiles(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    fs::file_status st = fs::status(path, ec);
    if (!fs::exists(st))
      throw InputError(fmt::format("{}: no such scenario file or folder", path));
    if (!fs::is_directory(st)) {
      files.push_back(fs::path(path).lexically_normal().string());
      continue;
    }
    fs::recursive_directory_iterator it(path, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      const fs::path& p = it->path();
      if (p.extension() == ".json" && it->is_regular_file(ec))
        files.push_back(p.lexically_normal().string());
    }
    if (ec) throw InputError(fmt::format("{}: cannot search folder: {}", path, ec.message()));
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  if (files.empty())
    throw InputError(fmt::format("no scenario files (*.json) found in {}",
                                 fmt::join(paths, ", ")));
  return files;
}

}  // namespace lbsim
