#include "traces/gen/load_reporter.h"

#include <cmath>

namespace lbsim {

LoadReporter::LoadReporter(const GenSpec& spec, std::set<std::string> silent)
    : spec_(spec.reporting),
      on_(spec.reporting.interval > 0.0 && (spec.reporting.inflight || spec.reporting.qps_1m)),
      silent_(std::move(silent)) {}

double LoadReporter::SnapshotTime() const {
  return QuantizeTime(static_cast<double>(next_) * spec_.interval);
}

double LoadReporter::NextTime() const {
  if (!on_) return std::numeric_limits<double>::infinity();
  const double snapshot = SnapshotTime();
  return pending_.empty() ? snapshot : std::min(snapshot, pending_.front().publish_at);
}

void LoadReporter::Step(ReferenceProxy& proxy, TraceLineWriter& out) {
  if (!pending_.empty() && pending_.front().publish_at <= SnapshotTime()) {
    const Snapshot& s = pending_.front();
    for (const Value& v : s.values) {
      if (!proxy.Registered(v.instance)) continue;  // removed meanwhile
      out.Load(s.publish_at, proxy.Id(v.instance),
               spec_.inflight ? std::optional<std::int64_t>(v.inflight) : std::nullopt,
               spec_.qps_1m ? std::optional<double>(std::round(v.qps_1m * 1e6) / 1e6)
                            : std::nullopt);
    }
    pending_.pop_front();
    return;
  }
  const double at = SnapshotTime();
  ++next_;
  proxy.AdvanceTo(at);
  Snapshot s{QuantizeTime(at + spec_.delay), {}};
  for (std::uint32_t i : proxy.order())
    if (proxy.Alive(i) && Reports(proxy.Id(i)))
      s.values.push_back(Value{i, proxy.Inflight(i), proxy.Qps(i)});
  pending_.push_back(std::move(s));
}

}  // namespace lbsim
