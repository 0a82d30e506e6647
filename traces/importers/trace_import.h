#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "traces/trace_reader.h"
#include "traces/importers/import_format.h"

namespace lbsim {

// How `lbsim import` turns requests into a v1 trace.
struct ImportOptions {
  // The header's Instances, in pool order; each starts alive and idle
  // (inflight 0), so the replay's own counter tracks its load.
  std::vector<std::string> instances;
  // The token-time model: duration (ms) = prefill_ms_per_token x input
  // tokens + decode_ms_per_token x output tokens.
  double prefill_ms_per_token = 0.1;
  double decode_ms_per_token = 20.0;
  // Arrival times are divided by this: 2 doubles the request rate.
  double rate_scale = 1.0;
  std::uint64_t limit = 0;   // write at most this many arrivals; 0: all
  bool skip_bad = false;     // skip malformed rows (counted) instead of failing
  bool keep_failed = true;   // write requests the source marks as failed
};

// What an import did.
struct ImportStats {
  std::uint64_t arrivals = 0;        // arrivals written
  std::uint64_t skipped = 0;         // malformed rows skipped (skip_bad)
  std::string first_skipped;         // "file:LINE: what" of the first one
  std::uint64_t failed_dropped = 0;  // failed requests left out
};

// Reads every request of `source` (in `format`) and writes a v1 trace to
// `out` in `encoding` (JSON Lines or a document): a header (name `name`, time_unit "ms", the
// Instances, a description of the conversion) and one arrival per request
// with `t`, `duration` and, when the source gives block ids,
// `prefix_blocks`. Times are rounded to the nanosecond. A malformed row or
// a row earlier than the one before throws InputError "file:LINE: ..."
// unless `options.skip_bad`. Streams: memory does not grow with the input.
ImportStats ImportTrace(const ImportFormat& format, RequestSource& source,
                        const std::string& display_path, const std::string& name,
                        const ImportOptions& options, std::FILE* out,
                        TraceEncoding encoding = TraceEncoding::kLines);

}  // namespace lbsim
