#pragma once

#include <string>
#include <vector>

namespace lbsim {

// The scenario files named by `paths`: a file is taken as it is; a folder
// is searched recursively for "*.json". The result is sorted by path and
// free of repeats, so that checks run in the same order on every machine.
// Throws InputError for a path that does not exist, or when no scenario
// file is found at all (a check of nothing must not pass).
std::vector<std::string> FindScenarioFiles(const std::vector<std::string>& paths);

}  // namespace lbsim
