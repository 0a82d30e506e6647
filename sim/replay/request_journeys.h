#pragma once

#include <cmath>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "strategies/hint.h"
#include "traces/instance_table.h"
#include "traces/request_log.h"
#include "traces/trace_event.h"

namespace lbsim {

// What the Proxy queue did to one strategy run's requests, for the report:
// every time in trace units.
struct ProxyQueueStats {
  std::uint64_t requests = 0;   // decisions
  std::uint64_t forwarded = 0;  // reached an Instance
  std::uint64_t done = 0;       // ended
  std::uint64_t stuck = 0;      // routed, never forwarded or never ended
  // Some stuck requests wait behind a completions request that ended but
  // stayed pending (the Proxy before 0927797).
  bool stalled_behind_completions = false;
  std::vector<double> waits;         // arrival to forwarded, per forwarded request
  std::vector<double> client_ttfts;  // arrival to first token
  std::vector<double> end_to_ends;   // arrival to end, per ended request
};

// The requests of one strategy run from arrival to end, in arrival order:
// each one's record is handed to the request log (if any) once it and every
// earlier one are settled, and its times feed ProxyQueueStats.
class RequestJourneys {
 public:
  // `log` (not owned; may be nullptr) receives the records; `strategy` is
  // the run's canonical name, `table` names the Instances.
  // `clock_unit`: trace units per second of the Proxy's clock (1, or 1000
  // for a trace in ms).
  RequestJourneys(RequestSink* log, std::string_view strategy, double clock_unit = 1.0)
      : log_(log), strategy_(strategy), clock_unit_(clock_unit) {}

  // Arrival number `seq` (1-based, consecutive) came at `t`, clock
  // `clock` of the Proxy's; returns its record number for the calls below.
  std::uint64_t Arrived(std::uint64_t seq, const TraceTime& t, double clock,
                        std::string_view request);
  void Routed(std::uint64_t record, InstanceIndex instance);
  // The decision routed nothing (`outcome`: refused or no_instances).
  void NotRouted(std::uint64_t record, std::string_view outcome, const InstanceTable& table);
  // The request was forwarded (got its first token, ended) at trace time
  // `t`, clock `clock`. Figures are clock differences, in trace units.
  void Forwarded(std::uint64_t record, double t, double clock);
  void FirstToken(std::uint64_t record, double t, double clock);
  void Ended(std::uint64_t record, double t, double clock, const InstanceTable& table);
  // The Instance's engine refused the forwarded request (too long for its
  // KV cache): it ends at once with an empty response, outcome "rejected".
  void Rejected(std::uint64_t record) { At(record).rejected = true; }
  // The run is over: what is left is stuck.
  void Finish(const InstanceTable& table, bool stalled_behind_completions);

  void set_clock_unit(double clock_unit) { clock_unit_ = clock_unit; }
  ProxyQueueStats TakeStats() { return std::move(stats_); }

 private:
  struct Journey {
    TraceTime arrival;
    double arrival_clock = 0.0;
    std::string request;  // only with a log
    InstanceIndex instance = 0;
    bool routed = false;
    bool settled = false;
    bool rejected = false;
    double forwarded = NAN;
    double first_token = NAN;
    double end = NAN;
    std::string_view outcome;
  };
  Journey& At(std::uint64_t record) { return journeys_[record - first_]; }
  // Hands settled records at the front to the log.
  void Drain(const InstanceTable& table);
  void Write(const Journey& j, const InstanceTable& table) const;

  RequestSink* log_;
  std::string strategy_;
  double clock_unit_;
  std::deque<Journey> journeys_;
  std::uint64_t first_ = 1;  // record number of journeys_.front()
  std::uint64_t next_ = 1;
  ProxyQueueStats stats_;
};

}  // namespace lbsim
