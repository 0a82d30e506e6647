// The stale-metrics view: periodic snapshots, publication delay, jitter.

#include <doctest/doctest.h>

#include <vector>

#include "base/errors.h"
#include "sim/replay/metric_view.h"

namespace lbsim {
namespace {

// Runs every view event before time `t` (exclusive) against `counters`.
void RunUntil(MetricView& v, double t, const std::vector<std::int64_t>& counters) {
  while (v.NextKey() && v.NextKey()->time < t) v.RunNext(counters);
}

TEST_CASE("metric view: snapshots every interval, visible after the delay") {
  MetricView v(10.0, 3.0, 0.0, 1);
  v.Start(100.0);
  CHECK(v.NextKey()->time == 100.0);
  CHECK(v.NextKey()->cls == EventClass::kMetric);
  std::vector<std::int64_t> counters{4, -1};
  RunUntil(v, 103.0, counters);  // snapshot at 100 taken, not yet published
  CHECK_FALSE(v.Seen(0));
  counters = {9, 2};
  RunUntil(v, 103.5, counters);  // published at 103: the values of time 100
  CHECK(v.Seen(0) == 4);
  CHECK_FALSE(v.Seen(1));  // unknown publishes as unknown
  RunUntil(v, 113.0, counters);  // snapshot at 110 taken, published at 113
  CHECK(v.Seen(0) == 4);
  RunUntil(v, 113.5, counters);
  CHECK(v.Seen(0) == 9);
  CHECK(v.Seen(1) == 2);
  CHECK_FALSE(v.Seen(5));  // never in a snapshot
}

TEST_CASE("metric view: jitter is drawn per Instance from the seed and never publishes an older snapshot over a newer one") {
  auto publication_times = [](std::uint64_t seed) {
    MetricView v(1.0, 0.0, 5.0, seed);
    v.Start(0.0);
    std::vector<std::int64_t> counters{1, 2, 3};
    std::vector<double> times;
    for (int k = 0; k < 40; ++k) {
      times.push_back(v.NextKey()->time);
      counters[0] = k;
      v.RunNext(counters);
    }
    return times;
  };
  CHECK(publication_times(7) == publication_times(7));
  CHECK(publication_times(7) != publication_times(8));

  // Publications with jitter up to 5 intervals arrive out of order; the
  // value seen only ever moves to newer snapshots.
  MetricView v(1.0, 0.0, 5.0, 3);
  v.Start(0.0);
  std::vector<std::int64_t> counters{0};
  std::int64_t last = -1;
  for (int k = 0; k < 200; ++k) {
    counters[0] = static_cast<std::int64_t>(v.NextKey()->time * 100);  // grows with time
    v.RunNext(counters);
    if (auto seen = v.Seen(0)) {
      CHECK(*seen >= last);
      last = *seen;
    }
  }
  CHECK(last > 0);
}

TEST_CASE("metric view: snapshots are bounded in number, in waiting and in time's resolution") {
  std::vector<std::int64_t> counters{1, 2};
  {
    // 5 values taken at most: two snapshots of two Instances, not three.
    MetricView v(1.0, 0.0, 0.0, 1, SnapshotLimits{5, 5});
    v.Start(0.0);
    RunUntil(v, 1.5, counters);
    CHECK_THROWS_WITH_AS(RunUntil(v, 2.5, counters),
                         "--stale-interval 1: the run needs more than 5 snapshot values "
                         "(snapshots x Instances, the limit of one replay, shared by its "
                         "strategy runs); choose a longer interval",
                         UsageError);
  }
  {
    // A delay of 10 intervals keeps 10 snapshots waiting: more than 6 values.
    MetricView v(1.0, 10.0, 0.0, 1, SnapshotLimits{100, 6});
    v.Start(0.0);
    RunUntil(v, 2.5, counters);
    CHECK_THROWS_WITH_AS(RunUntil(v, 3.5, counters),
                         "--stale-interval 1: more than 6 snapshot values would wait to be "
                         "published at once (the limit of one replay, shared by its strategy "
                         "runs); choose a longer interval or a shorter --stale-delay and "
                         "--stale-jitter",
                         UsageError);
  }
  {
    // Published, they no longer count.
    MetricView v(1.0, 0.5, 0.0, 1, SnapshotLimits{100, 2});
    v.Start(0.0);
    RunUntil(v, 20.0, counters);
    CHECK(v.Seen(1) == 2);
  }
  {
    // An interval below the resolution of the times never moves them on.
    MetricView v(1e-10, 0.0, 0.0, 1);
    v.Start(1e9);
    CHECK_THROWS_WITH_AS(RunUntil(v, 2e9, counters),
                         "--stale-interval 1e-10: too short for the trace's times (around "
                         "1000000000), where it no longer moves the time of the next snapshot; "
                         "choose a longer interval",
                         UsageError);
  }
}

}  // namespace
}  // namespace lbsim
