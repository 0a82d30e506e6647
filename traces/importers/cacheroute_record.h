#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "strategies/proxy_profile.h"
#include "traces/trace_reader.h"

namespace lbsim {

class InputFile;

// What `lbsim import --from cacheroute-record` made of a recording.
struct RecordImportStats {
  std::uint64_t arrivals = 0;      // one per decision and per request that found nothing alive
  std::uint64_t refused = 0;       // decisions whose select() raised
  std::uint64_t no_instances = 0;  // requests that found nothing alive
  std::uint64_t in_flight = 0;     // routed requests with no recorded end (no duration)
  std::uint64_t expired = 0;       // Instances a decision did not offer (the pool's TTL): `down`
  std::uint64_t lost = 0;          // events the recorder dropped (its `lost` events)
  // The recording has begin_request events (cacheroute@df8382d has none:
  // its arrivals then carry no duration, and none counts as in flight).
  bool requests_counted = false;
  // Places where the recording does not explain itself (a decision offering
  // an Instance it never registered, a load differing from the recorded
  // heartbeats, an end with no request in flight, ...): the trace is then not
  // the whole story and the replay's self-check may differ there.
  std::uint64_t gaps = 0;
  std::string first_gap;            // "FILE:LINE: what" of the first
  std::string commit;               // the recorded Proxy commit; empty when none
  const ProxyProfile* profile = nullptr;  // the pinned version that commit is, or null
  std::string python;               // the recorded interpreter ("3.12.3")
  std::string strategy;             // the header's proxy_strategy
};

// Converts a recording of the CacheRoute Proxy made by lbsim's recorder
// (docs/record-proxy.md) into a v1 trace written to `out`: the recorded
// pool changes as up, down, remove and load events, one arrival per
// decision with its request id, its whole queue_depths hint, the Proxy's
// choice (proxy_choice) and a duration from the decision to the request's
// recorded end. Times are in ms from the first event, each event on its own
// multiple of 1/1024 ms in recorded order, so that a replay meets them in
// that order and every sum of a time and a duration is exact. `in` is read
// twice (made seekable). A malformed line throws InputError "FILE:LINE: ...".
RecordImportStats ImportCacheRouteRecord(InputFile& in, const std::string& display_path,
                                         const std::string& name, std::FILE* out,
                                         TraceEncoding encoding);

}  // namespace lbsim
