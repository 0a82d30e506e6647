// The what-if parts through the library API: the hand-computed service
// model case, and "off means v1".

#include <doctest/doctest.h>

#include "replay_fixture.h"
#include "sim/report/report.h"

namespace lbsim {
namespace {

using testing::Request;
using testing::TempFile;

// Two Instances, six 2 s requests at t = 0, 0, 1, 1, 2, 5 (round-robin: a,
// b, a, b, a, b). With one slot each:
//   inst-a: r1 0->2 (wait 0), r3 2->4 (wait 1), r5 4->6 (wait 2): latencies 2, 3, 4
//   inst-b: r2 0->2 (wait 0), r4 2->4 (wait 1), r6 5->7 (wait 0): latencies 2, 3, 2
constexpr const char* kTwoInstances =
    R"({"lbsim_trace":1,"instances":[{"id":"inst-a","inflight":0},{"id":"inst-b","inflight":0}]}
{"t":0,"type":"arrival","duration":2}
{"t":0,"type":"arrival","duration":2}
{"t":1,"type":"arrival","duration":2}
{"t":1,"type":"arrival","duration":2}
{"t":2,"type":"arrival","duration":2}
{"t":5,"type":"arrival","duration":2}
)";

ReplayResult Run(const SimOptions& options) {
  TempFile file(kTwoInstances);
  return Replay(file.path(), TraceEncoding::kAuto, {Request("rr")}, {}, options);
}

TEST_CASE("what-if: two Instances, one slot, fixed durations: waits and latencies by hand") {
  SimOptions options;
  options.slots = 1;
  const ReplayResult result = Run(options);
  const WhatIfReport w = BuildWhatIfReport(result, 0);
  REQUIRE(w.service);
  const LatencySummary& all = w.service->latency;
  CHECK(all.served == 6);
  CHECK(all.p50 == 2.0);  // sorted 2 2 2 3 3 4: rank 3
  CHECK(all.p90 == 4.0);  // rank ceil(5.4) = 6
  CHECK(all.p99 == 4.0);
  CHECK(all.max == 4.0);
  CHECK(all.mean == 16.0 / 6);
  CHECK(all.mean_wait == 4.0 / 6);

  const LatencySummary& a = w.instance_service[0].latency;
  CHECK(a.p50 == 3.0);
  CHECK(a.mean_wait == 1.0);
  const LatencySummary& b = w.instance_service[1].latency;
  CHECK(b.p90 == 3.0);
  CHECK(b.mean_wait == 1.0 / 3);

  CHECK(w.span_start == 0.0);
  CHECK(w.span_end == 7.0);
  CHECK(*w.service->utilisation == 12.0 / 14);  // 6 busy of 7 on each
  CHECK(*w.inflight_mean[0] == 9.0 / 7);
  CHECK(w.inflight_peak[0] == 2);
}

TEST_CASE("what-if: every option off keeps the v1 replay and adds nothing") {
  const ReplayResult off = Run(SimOptions{});
  CHECK(off.what_if.empty());
  SimOptions service;
  service.slots = 1;
  const ReplayResult on = Run(service);
  // Round-robin ignores load: the same picks, now with service figures.
  CHECK(on.metrics[0].instances()[0].selections == off.metrics[0].instances()[0].selections);
  CHECK(on.what_if.size() == 1);
  const Report report = BuildReport(off);
  CHECK_FALSE(report.simulation);
  CHECK_FALSE(report.strategies[0].what_if);
  CHECK(RenderJson(report).find("what_if") == std::string::npos);
}

}  // namespace
}  // namespace lbsim
