#pragma once

#include <cstdint>
#include <string>

namespace lbsim {

// What `lbsim import --from FORMAT IN [-o OUT]` was asked to do.
struct ImportCommand {
  std::string format;  // --from
  std::string input;   // a path, or "-" for standard input
  std::string output;  // -o; empty or "-": standard output
  std::string instances;  // --instances: a count N, or comma-separated ids
  std::string name;       // --name; empty: the input's file name
  double prefill_ms_per_token = 0.1;
  double decode_ms_per_token = 20.0;
  double rate_scale = 1.0;
  std::uint64_t limit = 0;  // 0: every request
  bool skip_bad = false;
  std::string failed;  // --failed keep|drop (burstgpt); empty: keep
};

// Converts the input to a v1 JSON Lines trace, written atomically when an
// output file is named, and prints one summary line on stderr. Returns the
// exit status; throws UsageError/InputError.
int RunImport(const ImportCommand& command);

}  // namespace lbsim
