#pragma once

#include <cstdint>
#include <cstdio>

#include "traces/gen/gen_spec.h"
#include "traces/trace_reader.h"

namespace lbsim {

struct GenCounts {
  std::uint64_t events = 0;
  std::uint64_t arrivals = 0;
};

// Writes the trace that the validated `spec` describes to `out` as trace
// format v1 in `encoding` (JSON Lines or a document), streaming: memory holds the instance schedule, the
// requests in flight in the reference Proxy and the pending load reports,
// never the arrivals. The same spec (seed included) gives the same bytes.
//
// At equal times events come in this order: instance changes, load
// reports, arrivals. The trace ends with its last arrival.
GenCounts GenerateTrace(const GenSpec& spec, std::FILE* out,
                        TraceEncoding encoding = TraceEncoding::kLines);

}  // namespace lbsim
