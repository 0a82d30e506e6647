#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "traces/gen/gen_spec.h"
#include "traces/gen/reference_proxy.h"
#include "traces/gen/trace_line_writer.h"

namespace lbsim {

// The `load` events of a generated trace: snapshot k is taken at k x
// interval (k >= 1; the header holds the values at time 0) from the
// reference Proxy, for every registered, alive, reporting Instance, and
// written `delay` later for those still registered. Memory: the snapshots
// taken and not yet written.
class LoadReporter {
 public:
  // `silent`: ids that never report.
  LoadReporter(const GenSpec& spec, std::set<std::string> silent);

  // Time of the next snapshot or write; infinity when reporting is off.
  double NextTime() const;
  // Runs it (a write before a snapshot at equal times).
  void Step(ReferenceProxy& proxy, TraceLineWriter& out);

  bool Reports(const std::string& id) const { return !silent_.count(id); }

 private:
  struct Value {
    std::uint32_t instance;
    std::int64_t inflight;
    double qps_1m;
  };
  struct Snapshot {
    double publish_at;
    std::vector<Value> values;
  };
  double SnapshotTime() const;

  ReportingSpec spec_;
  bool on_;
  std::set<std::string> silent_;
  std::uint64_t next_ = 1;  // number of the next snapshot
  std::deque<Snapshot> pending_;
};

}  // namespace lbsim
