// The JSON report: the keys of trace format v1's "Report" section, in that
// order, followed by lbsim's additions.

#include <nlohmann/json.hpp>

#include "base/time_units.h"
#include "sim/report/engine_json.h"
#include "sim/report/queue_json.h"
#include "sim/report/fairness_json.h"
#include "sim/report/report.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;

ojson Optional(const std::optional<double>& v) {
  return v ? ojson(*v) : ojson(nullptr);
}

// Adds `key`, which `object` does not hold yet (Instance ids are distinct),
// without ordered_json's operator[] lookup: that one is a linear search, so
// keying thousands of Instances costs their count squared.
void AddNewKey(ojson& object, const std::string& key, ojson value) {
  object.get_ref<ojson::object_t&>().emplace_back(key, std::move(value));
}


ojson OptionalText(const std::optional<std::string>& text) {
  return text ? ojson(*text) : ojson(nullptr);
}

// A run against the recorded Proxy's choices (docs/record-proxy.md).
ojson ProxyChoicesJson(const ProxyChoicesReport& p) {
  ojson j;
  j["compared"] = p.compared;
  j["equal"] = p.equal;
  j["share"] = static_cast<double>(p.equal) / static_cast<double>(p.compared);
  j["self_check"] = p.self_check;
  ojson first = ojson(nullptr);
  if (const auto& d = p.first_difference) {
    first = {{"seq", d->seq},           {"t", d->t},
             {"request", d->request},   {"proxy", OptionalText(d->proxy)},
             {"chosen", OptionalText(d->chosen)}, {"reason", d->reason}};
    ojson candidates = ojson::array();
    for (const ProxyChoiceCheck::SeenCandidate& c : d->candidates) {
      ojson queue = ojson::object();
      for (const auto& [key, value] : c.queue) queue[std::string(key)] = value;
      candidates.push_back({{"id", c.id},
                            {"inflight", c.inflight ? ojson(*c.inflight) : ojson(nullptr)},
                            {"qps_1m", c.qps_1m ? ojson(*c.qps_1m) : ojson(nullptr)},
                            {"queue", queue}});
    }
    first["candidates"] = candidates;
  }
  j["first_difference"] = first;
  return j;
}

ojson PerInstance(const StrategyReport& s,
                  std::uint64_t InstanceReport::*field) {
  ojson out = ojson::object();
  for (const InstanceReport& i : s.instances) AddNewKey(out, i.id, i.*field);
  return out;
}

// served, latency, mean_queue_wait and wait of `l`.
ojson SummaryJson(const LatencySummary& l) {
  if (l.served == 0)
    return {{"served", 0}, {"latency", nullptr}, {"mean_queue_wait", nullptr}, {"wait", nullptr}};
  return {{"served", l.served},
          {"latency", {{"p50", l.p50}, {"p90", l.p90}, {"p99", l.p99}, {"max", l.max},
                       {"mean", l.mean}}},
          {"mean_queue_wait", l.mean_wait},
          {"wait", {{"p50", l.wait_p50}, {"p90", l.wait_p90}, {"p99", l.wait_p99},
                    {"max", l.wait_max}, {"mean", l.mean_wait}}}};
}

ojson LatencyJson(const ServiceFigures& f) {
  ojson j = SummaryJson(f.latency);
  j["utilisation"] = Optional(f.utilisation);
  j["offered_utilisation"] = Optional(f.offered_utilisation);
  return j;
}

ojson WarningsJson(const std::vector<Warning>& warnings) {
  ojson out = ojson::array();
  for (const Warning& w : warnings) out.push_back({{"name", w.name}, {"text", w.text}});
  return out;
}

ojson StretchJson(const std::optional<DetectorReport::Stretch>& s) {
  if (!s) return nullptr;
  return {{"instances", s->instances}, {"length", s->length}, {"first_seq", s->first_seq}};
}

ojson DetectorsJson(const StrategyReport& s) {
  const DetectorReport& d = s.detectors;
  ojson concentrated = ojson::object();
  for (const DetectorReport::Concentrated& c : d.concentrated)
    AddNewKey(concentrated, c.instance, {{"share", c.share}, {"expected_share", c.expected_share}});
  ojson overload = ojson(nullptr);
  if (d.service)
    overload = {{"fired", d.OverloadFires()},
                {"offered_utilisation", Optional(d.offered_utilisation)},
                {"instances", d.overloaded},
                {"growing_windows", d.growing_windows}};
  return {{"unknown_starvation", {{"fired", !d.starved.empty()}, {"instances", d.starved}}},
          {"concentration", {{"fired", d.ConcentrationFires()}, {"instances", concentrated}}},
          {"herding", {{"fired", d.HerdingFires()},
                       {"run_decisions", d.run_decisions},
                       {"alternation_decisions", d.alternation_decisions},
                       {"longest_run", StretchJson(d.longest_herding_run)},
                       {"longest_alternation", StretchJson(d.longest_alternation)}}},
          {"overload", overload},
          {"fallback_burst", {{"fired", d.FallbackBurstFires()},
                              {"windows", d.burst_windows},
                              {"highest_rate", Optional(d.highest_burst_rate)}}}};
}

// Per-Instance values keyed by Instance id, in report order.
template <typename T, typename ToJson>
ojson ById(const StrategyReport& s, const std::vector<T>& values, ToJson to_json) {
  ojson out = ojson::object();
  for (std::size_t i = 0; i < values.size() && i < s.instances.size(); ++i)
    AddNewKey(out, s.instances[i].id, to_json(values[i]));
  return out;
}

ojson WhatIfJson(const StrategyReport& s, const WhatIfReport& w) {
  auto same = [](const auto& v) { return ojson(v); };
  auto optional = [](const std::optional<double>& v) { return Optional(v); };
  ojson j;
  j["span"] = {{"start", w.span_start}, {"end", w.span_end}};
  j["service"] = w.service ? LatencyJson(*w.service) : ojson(nullptr);
  ojson instances = ojson::object();
  for (std::size_t i = 0; i < s.instances.size(); ++i) {
    ojson line;
    line["inflight_mean"] = Optional(w.inflight_mean[i]);
    line["inflight_peak"] = w.inflight_peak[i];
    line["service"] = w.instance_service.empty() ? ojson(nullptr)
                                                 : LatencyJson(w.instance_service[i]);
    if (w.engine) line["engine"] = EngineFiguresJson(w.instance_engine[i]);
    AddNewKey(instances, s.instances[i].id, std::move(line));
  }
  j["instances"] = instances;
  if (!w.windows.empty()) {
    ojson windows = ojson::array();
    for (const WindowReport& win : w.windows) {
      ojson window = {{"start", win.start},
                      {"end", win.end},
                      {"decisions", win.decisions},
                      {"no_instances", win.no_instances},
                      {"fallback", win.fallback},
                      {"fallback_rate", Optional(win.fallback_rate)},
                      {"selections", ById(s, win.selections, same)},
                      {"share", ById(s, win.share, same)},
                      {"mean_inflight", ById(s, win.mean_inflight, optional)}};
      if (win.engine)
        window["engine"] = {{"output_tokens", ById(s, win.engine->output_tokens, same)},
                            {"batch_mean", ById(s, win.engine->batch_mean, optional)},
                            {"kv_utilisation", ById(s, win.engine->kv_utilisation, optional)},
                            {"ttft_mean", ById(s, win.engine->ttft_mean, optional)}};
      if (w.service) window["service"] = win.service ? SummaryJson(*win.service) : ojson(nullptr);
      windows.push_back(std::move(window));
    }
    j["windows"] = windows;
  }
  if (w.engine) j["engine"] = EngineFiguresJson(*w.engine);
  return j;
}

// `time_unit` is the trace's: the SLO bounds are given in it.
ojson SimulationJson(const SimOptions& o, const std::string& time_unit) {
  ojson speeds = ojson::object();
  for (const auto& [id, speed] : o.speeds) speeds[id] = speed;
  ojson stale = ojson(nullptr);
  if (o.stale())
    stale = {{"interval", o.stale_interval}, {"delay", o.stale_delay},
             {"jitter", o.stale_jitter}, {"seed", o.seed}};
  ojson simulation = {{"slots", o.service() ? ojson(o.slots) : ojson(nullptr)},
                      {"speeds", speeds},
                      {"stale_metrics", stale},
                      {"window", o.windows() ? ojson(o.window) : ojson(nullptr)}};
  // The engine model's keys only when it is on: reports without it stay
  // as they were.
  if (o.engine_model()) {
    simulation["engine"] = EngineConfigReportJson(*o.engine.config);
    simulation["signals"] = o.signals() ? ojson{{"interval", o.engine.signal_interval},
                                                {"delay", o.engine.signal_delay},
                                                {"jitter", o.engine.signal_jitter},
                                                {"seed", o.seed}}
                                        : ojson(nullptr);
    // Only with --slo, for the same reason; diff then refuses reports
    // under other bounds, as under other what-if options.
    if (o.engine.slo.on()) {
      const SloLimits l = ResolveSlo(o.engine.slo, TraceUnitsPerMicrosecond(time_unit));
      auto bound = [](const std::optional<double>& x) { return x ? ojson(*x) : ojson(nullptr); };
      simulation["slo"] = {{"ttft", bound(l.ttft)}, {"tpot", bound(l.tpot)}, {"e2e", bound(l.e2e)}};
    }
  }
  return simulation;
}

ojson StrategyJson(const StrategyReport& s) {
  ojson j;
  j["strategy"] = s.strategy;
  j["requested_as"] = s.requested_as;
  ojson params = ojson::object();
  for (const ParamValues::Value& p : s.params) {
    if (p.kind == ParamKind::kChoice || p.kind == ParamKind::kText)
      params[std::string(p.name)] = p.text;
    else if (p.kind == ParamKind::kInteger)  // exact: integers are capped at 2^53
      params[std::string(p.name)] = static_cast<std::int64_t>(p.number);
    else params[std::string(p.name)] = p.number;
  }
  j["params"] = params;
  j["decisions"] = s.decisions;
  j["no_instances"] = s.no_instances;
  j["selections"] = PerInstance(s, &InstanceReport::selections);
  ojson share = ojson::object();
  for (const InstanceReport& i : s.instances) AddNewKey(share, i.id, i.share);
  j["share"] = share;
  ojson reasons = ojson::object();
  for (const auto& [word, count] : s.reasons) reasons[word] = count;
  j["reasons"] = reasons;
  j["fallback"] = {{"decisions", s.fallback_decisions},
                   {"selections", PerInstance(s, &InstanceReport::fallback_selections)}};
  j["unknown_excluded"] = s.unknown_excluded;
  j["fairness"] = FairnessJson(s.fairness);
  // Additions beyond the spec's minimum.
  j["label"] = s.label;
  j["status"] = s.status;
  j["refused"] = s.refused;
  j["replays_proxy"] = s.replays_proxy ? ojson(*s.replays_proxy) : ojson(nullptr);
  j["never_completed"] = s.never_completed;
  if (s.proxy_choices) j["proxy_choices"] = ProxyChoicesJson(*s.proxy_choices);
  j["tie"] = {{"decisions", s.tie_decisions},
              {"selections", PerInstance(s, &InstanceReport::tie_selections)}};
  j["candidate_decisions"] = PerInstance(s, &InstanceReport::candidate_decisions);
  j["unknown_load"] = {
      {"decisions", PerInstance(s, &InstanceReport::unknown_while_others_known)},
      {"chosen", PerInstance(s, &InstanceReport::chosen_while_unknown)}};
  ojson run = ojson(nullptr);
  if (s.longest_run_instance)
    run = {{"instance", *s.longest_run_instance},
           {"length", s.longest_run},
           {"first_seq", s.longest_run_first_seq}};
  j["longest_run"] = run;
  j["herded_decisions"] = s.herded_decisions;
  ojson expected = ojson::object();
  for (std::size_t i = 0; i < s.instances.size() && i < s.expected_share.size(); ++i)
    AddNewKey(expected, s.instances[i].id, s.expected_share[i]);
  j["expected_share"] = expected;
  if (s.prefix_cache)
    j["prefix_cache"] = {{"capacity_blocks", s.prefix_cache->capacity_blocks},
                         {"requested_blocks", s.prefix_cache->requested_blocks},
                         {"matched_blocks", s.prefix_cache->matched_blocks},
                         {"hit_rate", s.prefix_cache->hit_rate},
                         {"cached_blocks", PerInstance(s, &InstanceReport::cached_blocks)}};
  j["warnings"] = WarningsJson(s.warnings);
  j["detectors"] = DetectorsJson(s);
  if (s.what_if) j["what_if"] = WhatIfJson(s, *s.what_if);
  if (s.proxy_queue) j["proxy_queue"] = ProxyQueueFiguresJson(*s.proxy_queue);
  return j;
}

}  // namespace

std::string RenderJson(const Report& report) {
  ojson j;
  j["lbsim_report"] = 1;
  j["trace"] = {{"name", report.trace_name},
                {"time_unit", report.time_unit},
                {"events", report.events},
                {"arrivals", report.arrivals},
                {"instances", report.instances},
                {"path", report.trace_path},
                {"description", report.trace_description}};
  if (report.simulation) j["simulation"] = SimulationJson(*report.simulation, report.time_unit);
  if (report.proxy_queue) j["proxy_queue"] = ProxyQueueOptionsJson(*report.proxy_queue);
  ojson strategies = ojson::array();
  for (const StrategyReport& s : report.strategies) strategies.push_back(StrategyJson(s));
  j["strategies"] = strategies;
  // Additions beyond the spec's minimum.
  j["proxy"] = {{"profile", report.proxy.profile},
                {"python", report.proxy.python.empty() ? ojson(nullptr) : ojson(report.proxy.python)},
                {"least_load", report.proxy.least_load},
                {"pinned", report.proxy.pinned},
                {"ignored", {{"inflight", report.proxy.ignored_inflight},
                             {"null_qps_1m", report.proxy.ignored_null_qps_1m}}},
                {"warnings", WarningsJson(report.proxy.warnings)}};
  return j.dump(2) + "\n";
}

ojson FairnessJson(const Fairness& f) {
  return {{"jain", Optional(f.jain)},
          {"jain_eligible", Optional(f.jain_eligible)},
          {"cv", Optional(f.cv)},
          {"max_min_ratio", Optional(f.max_min_ratio)},
          {"max_mean_ratio", Optional(f.max_mean_ratio)},
          {"gini", Optional(f.gini)}};
}

}  // namespace lbsim
