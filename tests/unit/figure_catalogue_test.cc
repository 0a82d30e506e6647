// The figure catalogue's column lists against its entries: every column a
// CSV or a sweep writes names a figure the catalogue knows (so `diff` and
// `check` know it too), once.

#include <doctest/doctest.h>

#include <set>
#include <span>
#include <string>

#include "sim/report/figure_catalogue.h"
#include "sim/report/report.h"

namespace lbsim {
namespace {

TEST_CASE("figure catalogue: every run, queue, service and engine column names a known, compared figure") {
  std::set<std::string> columns;
  for (const RunColumn& c : RunColumns()) {
    CAPTURE(c.path);
    const std::optional<FigureKind> kind = FindFigure(c.path);
    REQUIRE(kind.has_value());
    CHECK(kind->family.has_value());
    // The run's figures are the sweep's: the replay's CSV has a row per Instance.
    CHECK(c.in_sweep);
    CHECK_FALSE(c.in_report);
    // A sweep figure says which way is worse.
    if (!c.title.empty()) CHECK(kind->worse != Worse::kNeither);
    CHECK(columns.insert(std::string(c.column)).second);
  }
  // The reason counts follow decisions and no_instances.
  REQUIRE(RunColumns().size() > kRunColumnsBeforeReasons);
  CHECK(RunColumns()[kRunColumnsBeforeReasons - 1].column == "no_instances");
  for (const QueueColumn& c : QueueColumns()) {
    CAPTURE(c.path);
    const std::optional<FigureKind> kind = FindFigure(c.path);
    REQUIRE(kind.has_value());
    CHECK(kind->family.has_value());
    CHECK(columns.insert(std::string(c.column)).second);
  }
  for (const ServiceColumn& c : ServiceColumns()) {
    CAPTURE(c.path);
    const std::optional<FigureKind> kind = FindFigure(c.path);
    REQUIRE(kind.has_value());
    CHECK(kind->family.has_value());
    CHECK((c.in_report || c.in_sweep));
    // A sweep figure says which way is worse.
    if (!c.title.empty()) CHECK(kind->worse != Worse::kNeither);
    CHECK(columns.insert(std::string(c.column)).second);
  }
  for (const EngineColumn& c : EngineColumns()) {
    CAPTURE(c.path);
    const std::optional<FigureKind> kind = FindFigure(c.path);
    REQUIRE(kind.has_value());
    // The shares within SLO bounds are rates (absolute); the rest engine figures.
    if (c.path.starts_with("what_if.engine.slo.met.")) {
      CHECK(kind->family == DiffFamily::kRate);
      CHECK(kind->worse == Worse::kLower);
    } else {
      CHECK(kind->family == DiffFamily::kEngine);
    }
    CHECK((c.in_report || c.in_sweep));
    CHECK(columns.insert(std::string(c.column)).second);
  }
}

// A part's rows in the --seeds table: unique titles, sensible decimals.
template <class Figures>
void CheckSpreadRows(std::span<const FigureColumn<Figures>> columns, std::size_t expected) {
  std::set<std::string> titles;
  for (const FigureColumn<Figures>& c : columns) {
    if (c.spread.empty()) continue;
    CAPTURE(c.column);
    CHECK(titles.insert(std::string(c.spread)).second);
    CHECK(c.decimals >= 0);
    CHECK(c.decimals <= 4);
  }
  CHECK(titles.size() == expected);
}

TEST_CASE("figure catalogue: the --seeds table's rows of the queue, the service and the engine") {
  CheckSpreadRows(QueueColumns(), 9);
  CheckSpreadRows(ServiceColumns(), 8);
  CheckSpreadRows(EngineColumns(), 18);
}

TEST_CASE("figure catalogue: an engine cell writes counts whole, times as figures, none empty") {
  EngineFigures e;
  e.counters.served = 123456789012;
  e.ttft.count = 2;
  e.ttft.p50 = 0.25;
  for (const EngineColumn& c : EngineColumns()) {
    CAPTURE(c.column);
    const std::string cell = Cell(c, e);
    if (c.column == "engine_served") CHECK(cell == "123456789012");
    if (c.column == "engine_rejected") CHECK(cell == "0");
    if (c.column == "ttft_p50") CHECK(cell == "0.25");
    if (c.column == "tpot_p50") CHECK(cell.empty());  // no TPOT: nothing served with two tokens
    if (c.column == "batch_mean") CHECK(cell.empty());
  }
}

TEST_CASE("figure catalogue: a service cell writes served whole and no latency when none served") {
  ServiceFigures f;
  f.utilisation = 0.5;
  for (const ServiceColumn& c : ServiceColumns()) {
    CAPTURE(c.column);
    const std::string cell = Cell(c, f);
    if (c.column == "served") CHECK(cell == "0");
    else if (c.column == "utilisation") CHECK(cell == "0.5");
    else CHECK(cell.empty());
  }
  f.latency.served = 3;
  f.latency.p99 = 1.25;
  for (const ServiceColumn& c : ServiceColumns())
    if (c.column == "latency_p99") CHECK(Cell(c, f) == "1.25");
}

}  // namespace
}  // namespace lbsim
