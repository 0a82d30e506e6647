// The JSON report: the keys of trace format v1's "Report" section, in that
// order, followed by lbsim's additions.

#include <nlohmann/json.hpp>

#include "sim/report.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;

ojson Optional(const std::optional<double>& v) {
  return v ? ojson(*v) : ojson(nullptr);
}

ojson PerInstance(const StrategyReport& s,
                  std::uint64_t InstanceReport::*field) {
  ojson out = ojson::object();
  for (const InstanceReport& i : s.instances) out[i.id] = i.*field;
  return out;
}

ojson StrategyJson(const StrategyReport& s) {
  ojson j;
  j["strategy"] = s.strategy;
  j["requested_as"] = s.requested_as;
  ojson params = ojson::object();
  for (const ParamValues::Value& p : s.params) {
    if (p.kind == ParamKind::kChoice) params[std::string(p.name)] = p.text;
    else params[std::string(p.name)] = p.number;
  }
  j["params"] = params;
  j["decisions"] = s.decisions;
  j["no_instances"] = s.no_instances;
  j["selections"] = PerInstance(s, &InstanceReport::selections);
  ojson share = ojson::object();
  for (const InstanceReport& i : s.instances) share[i.id] = i.share;
  j["share"] = share;
  ojson reasons = ojson::object();
  for (const auto& [word, count] : s.reasons) reasons[word] = count;
  j["reasons"] = reasons;
  j["fallback"] = {{"decisions", s.fallback_decisions},
                   {"selections", PerInstance(s, &InstanceReport::fallback_selections)}};
  j["unknown_excluded"] = s.unknown_excluded;
  j["fairness"] = {{"jain", Optional(s.fairness.jain)},
                   {"jain_eligible", Optional(s.fairness.jain_eligible)},
                   {"cv", Optional(s.fairness.cv)},
                   {"max_min_ratio", Optional(s.fairness.max_min_ratio)},
                   {"max_mean_ratio", Optional(s.fairness.max_mean_ratio)},
                   {"gini", Optional(s.fairness.gini)}};
  // Additions beyond the spec's minimum.
  j["label"] = s.label;
  j["status"] = s.status;
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
  j["warnings"] = s.warnings;
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
  ojson strategies = ojson::array();
  for (const StrategyReport& s : report.strategies) strategies.push_back(StrategyJson(s));
  j["strategies"] = strategies;
  return j.dump(2) + "\n";
}

}  // namespace lbsim
