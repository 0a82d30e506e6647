// Windows of a run: decisions, fallback, picks and inflight area per window.

#include <doctest/doctest.h>

#include "sim/replay/level_tracker.h"
#include "sim/replay/window_series.h"
#include "base/errors.h"

namespace lbsim {
namespace {

TEST_CASE("window series: a decision falls in the window holding its time") {
  WindowSeries s(0.1, 0.0);
  const InstanceIndex a = 0, b = 1;
  s.RecordDecision(0.0, &a, false);
  s.RecordDecision(0.1, &b, true);  // exactly on a boundary: the later window
  // Boundaries are the doubles k * 0.1: 3 * 0.1 is 0.30000000000000004, so
  // the double 0.3 lies in window 2, as Start() and End() say.
  s.RecordDecision(0.3, nullptr, false);
  s.RecordDecision(0.31, nullptr, false);
  REQUIRE(s.windows().size() == 4);
  CHECK(s.windows()[0].decisions == 1);
  CHECK(s.windows()[1].fallback == 1);
  CHECK(s.windows()[1].selections[1] == 1);
  CHECK(s.windows()[2].no_instances == 1);
  CHECK(s.Start(2) <= 0.3);
  CHECK(0.3 < s.End(2));
  CHECK(s.windows()[3].no_instances == 1);
}

TEST_CASE("window series: an area is split across the windows it spans") {
  WindowSeries s(10.0, 25.0);  // first window [20, 30)
  s.AddArea(2, 25.0, 47.0, 3.0);
  REQUIRE(s.windows().size() == 3);
  CHECK(s.Start(0) == 20.0);
  CHECK(s.windows()[0].inflight_area[2] == 15.0);  // 5 x 3
  CHECK(s.windows()[1].inflight_area[2] == 30.0);
  CHECK(s.windows()[2].inflight_area[2] == 21.0);
  s.ExtendTo(60.0);  // ends on a boundary: no empty window after it
  CHECK(s.windows().size() == 4);
}

TEST_CASE("window series: every limit is checked before a window is made or walked over") {
  // Windows count from time 0: past 2^53 their bounds are not exact, and a
  // walk from 0 would never end.
  CHECK_THROWS_WITH_AS(WindowSeries(60.0, 1e300),
                       "--window 60: time 1e+300 lies past window 2^53 (windows are counted "
                       "from time 0; past 2^53 their bounds are no longer exact); choose a "
                       "wider window",
                       UsageError);
  {
    WindowSeries s(1e-20, 0.0);
    CHECK_THROWS_AS(s.RecordDecision(1.0, nullptr, false), UsageError);
    CHECK(s.windows().size() == 1);
  }
  {
    // An area over far too many windows is refused before one is walked.
    WindowSeries s(1.0, 0.0);
    CHECK_THROWS_WITH_AS(s.AddArea(0, 0.0, 1e15, 1.0),
                         "--window 1: the run needs more than 1000000 windows; choose a wider "
                         "window",
                         UsageError);
    CHECK(s.windows().size() == 1);
  }
  {
    // Windows x Instances: 10 figures here.
    WindowSeries s(1.0, 0.0, 10);
    const InstanceIndex fourth = 3;
    s.AddArea(1, 0.0, 5.0, 1.0);  // 5 windows x 2 Instances
    CHECK_THROWS_WITH_AS(s.RecordDecision(2.0, &fourth, false),
                         "--window 1: the run needs more than 10 window x Instance figures (the "
                         "limit of one replay, shared by its strategy runs and seeds); choose a wider "
                         "window",
                         UsageError);
    CHECK_THROWS_AS(s.RecordDecision(5.5, nullptr, false), UsageError);
    CHECK(s.windows().size() == 5);
  }
}

TEST_CASE("level tracker: area and peak of a stepping level") {
  LevelTracker t;
  t.Add(0, 1.0, +1);
  t.Add(0, 2.0, +2);
  LevelTracker::Stretch closed = t.Add(0, 4.0, -3);
  CHECK(closed.from == 2.0);
  CHECK(closed.level == 3);
  CHECK(t.Area(0) == 7.0);  // 1 x 1 + 3 x 2
  CHECK(t.Peak(0) == 3);
  CHECK(t.Level(0) == 0);
  CHECK(t.Area(9) == 0.0);
}

}  // namespace
}  // namespace lbsim
