#pragma once

#include <string>
#include <utility>
#include <vector>

namespace lbsim {

// What `lbsim gen [SPEC] [FLAGS]` was asked to do.
struct GenCommand {
  std::string spec;    // gen spec (a JSON file); empty: defaults and flags only
  std::string output;  // empty or "-": standard output
  // Spec flags in the order given, each as (flag, value).
  std::vector<std::pair<std::string, std::string>> flags;
};

// Builds the spec (defaults, then the file, then the flags), validates it
// and writes the trace; the output file appears only complete. Returns the
// exit status; throws UsageError/InputError.
int RunGen(const GenCommand& command);

}  // namespace lbsim
