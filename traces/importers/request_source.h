#pragma once

#include <cstdint>
#include <vector>

namespace lbsim {

// One request as a public trace describes it, already in lbsim's terms.
struct SourceRequest {
  // Arrival time in milliseconds: as the file gives it, or relative to the
  // first request when the format's times are absolute (Azure).
  double time_ms = 0.0;
  std::uint64_t input_tokens = 0;
  std::uint64_t output_tokens = 0;
  // Block ids of the prompt (Mooncake hash_ids); empty when not given.
  std::vector<std::uint64_t> prefix_blocks;
  // The trace marks the request as failed (BurstGPT: no response tokens).
  bool failed = false;
};

// Reads the requests of one public trace, row by row, streaming.
class RequestSource {
 public:
  virtual ~RequestSource() = default;

  // Reads the next request into `out` (every field is set); false at the
  // end of the input. A malformed row throws FieldError (the message names
  // the field, without the file and line) after the row has been consumed,
  // so the caller may skip it and call Next again. A problem that makes the
  // rest of the file unreadable (no header, a read error) throws InputError.
  virtual bool Next(SourceRequest& out) = 0;

  // The 1-based line number of the row Next read last.
  virtual std::uint64_t line() const = 0;
};

}  // namespace lbsim
