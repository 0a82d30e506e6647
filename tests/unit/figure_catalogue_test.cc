// The figure catalogue's column lists against its entries: every column a
// CSV or a sweep writes names a figure the catalogue knows (so `diff` and
// `check` know it too), once.

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/report/figure_catalogue.h"
#include "sim/replay/engine_config.h"
#include "sim/replay/replay.h"
#include "sim/replay/slo.h"
#include "sim/report/report.h"
#include "replay_fixture.h"

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

namespace lbsim {
namespace {

// The JSON report's number at `path` (dotted, from `strategy`); nullopt
// when it is null or absent (a part's group with nothing in it).
std::optional<double> JsonFigure(const nlohmann::ordered_json& strategy, std::string_view path) {
  std::string pointer(1, '/');
  pointer.append(path);
  std::replace(pointer.begin(), pointer.end(), '.', '/');
  const nlohmann::ordered_json::json_pointer at(pointer);
  if (!strategy.contains(at) || strategy.at(at).is_null()) return std::nullopt;
  REQUIRE(strategy.at(at).is_number());
  return strategy.at(at).get<double>();
}

// How often each column was met with a value, by its CSV name.
using Met = std::map<std::string, int>;

// Each of `columns` against the JSON `strategy` at its path, for `figures`
// (null: the run has no such part, so the JSON has no number there).
template <class Figures>
void CheckColumns(std::span<const FigureColumn<Figures>> columns, const Figures* figures,
                  const nlohmann::ordered_json& strategy, Met& met) {
  for (const FigureColumn<Figures>& c : columns) {
    CAPTURE(c.path);
    const std::optional<double> value = figures ? c.value(*figures) : std::nullopt;
    const std::optional<double> json = JsonFigure(strategy, c.path);
    CHECK(value.has_value() == json.has_value());
    if (value && json) {
      CHECK(*value == *json);
      ++met[std::string(c.column)];
    }
  }
}

// Every strategy run of `report` against its JSON rendering.
void CheckReport(const Report& report, Met& met) {
  const nlohmann::ordered_json json = nlohmann::ordered_json::parse(RenderJson(report));
  for (std::size_t k = 0; k < report.strategies.size(); ++k) {
    const StrategyReport& s = report.strategies[k];
    const nlohmann::ordered_json& strategy = json["strategies"][k];
    CheckColumns(RunColumns(), &s, strategy, met);
    const WhatIfReport* w = s.what_if ? &*s.what_if : nullptr;
    CheckColumns(ServiceColumns(), w && w->service ? &*w->service : nullptr, strategy, met);
    CheckColumns(EngineColumns(), w && w->engine ? &*w->engine : nullptr, strategy, met);
    CheckColumns(QueueColumns(), s.proxy_queue ? &*s.proxy_queue : nullptr, strategy, met);
  }
}

Report Run(const std::string& trace, const SimOptions& options) {
  return BuildReport(Replay(trace, TraceEncoding::kAuto,
                            {testing::Request("rr"), testing::Request("ll")}, {}, options));
}

// The JSON report is written by hand (report_json.cc, engine_json.cc,
// queue_json.cc), the columns read the report's structs: each column must
// find its own value at its path, so a figure whose JSON is missed or
// misplaced fails here by name.
TEST_CASE("figure catalogue: every column's value is the JSON report's number at its path") {
  Met met;
  CheckReport(Run("traces/examples/shared_prefixes.json", {}), met);
  SimOptions service;
  service.slots = 1;
  CheckReport(Run("tests/cli/whatif/two_instances_k1.json", service), met);
  SimOptions engine;
  engine.engine.config = std::make_shared<const EngineConfig>(*FindBuiltinEngine("llama-3.1-8b-h100"));
  std::string error;
  engine.engine.slo = *ParseSlo("ttft=0.5,tpot=0.05,e2e=10", error);
  CheckReport(Run("tests/cli/engine/three_requests.ndjson", engine), met);
  SimOptions queue;
  queue.proxy_queue.on = true;
  CheckReport(Run("traces/examples/proxy_queue.ndjson", queue), met);
  // Each column met a value somewhere, so each comparison above could fail.
  auto all_met = [&](auto columns) {
    for (const auto& c : columns) {
      CAPTURE(c.column);
      CHECK(met[std::string(c.column)] > 0);
    }
  };
  all_met(RunColumns());
  all_met(ServiceColumns());
  all_met(EngineColumns());
  all_met(QueueColumns());
}

}  // namespace
}  // namespace lbsim
