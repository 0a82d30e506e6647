#pragma once

#include <string>
#include <vector>

namespace lbsim {

// The scenario files named by `paths`: a file is taken as it is; a folder
// is searched recursively for "*.json" files that are scenarios (see
// IsScenarioCandidate), so traces, reports and lbsim gen specs may sit
// beside them. The result is sorted by path and free of repeats, so that
// checks run in the same order on every machine. Throws InputError for a
// path that does not exist, or when no scenario file is found at all (a
// check of nothing must not pass).
std::vector<std::string> FindScenarioFiles(const std::vector<std::string>& paths);

// Whether the JSON file at `path`, found in a folder, is meant as a
// scenario. It is not when it is a JSON object whose top level has neither
// "lbsim_scenario" nor "expect": a trace ("lbsim_trace", "events"), a report
// ("lbsim_report"), check results ("lbsim_check") or any other document such
// as a gen spec. Anything else, unreadable or invalid JSON included, is a
// candidate, so that loading it reports what is wrong. Reads only up to the
// first top-level key that decides.
bool IsScenarioCandidate(const std::string& path);

}  // namespace lbsim
