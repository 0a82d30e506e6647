// The engine model's figures and configuration as JSON.

#include "sim/report/engine_json.h"

#include <nlohmann/json.hpp>

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;

ojson Optional(const std::optional<double>& v) { return v ? ojson(*v) : ojson(nullptr); }

ojson SloJson(const SloFigures& s) {
  return {{"bounds",
           {{"ttft", Optional(s.limits.ttft)},
            {"tpot", Optional(s.limits.tpot)},
            {"e2e", Optional(s.limits.e2e)}}},
          {"requests", s.requests},
          {"met",
           {{"ttft", Optional(s.ttft)},
            {"tpot", Optional(s.tpot)},
            {"e2e", Optional(s.e2e)},
            {"all", Optional(s.all)}}},
          {"goodput",
           {{"requests_per_s", Optional(s.requests_per_s)},
            {"output_tokens_per_s", Optional(s.output_tokens_per_s)}}}};
}

}  // namespace

ojson DistributionJson(const DistributionSummary& d) {
  if (d.count == 0) return nullptr;
  return {{"count", d.count}, {"p50", d.p50}, {"p90", d.p90}, {"p99", d.p99},
          {"max", d.max},     {"mean", d.mean}};
}

ojson EngineFiguresJson(const EngineFigures& f) {
  const EngineCounters& c = f.counters;
  ojson j;
  j["served"] = c.served;
  j["rejected"] = c.rejected;
  j["preemptions"] = c.preemptions;
  j["preempted_requests"] = c.preempted_requests;
  j["tokens"] = {{"input", c.input_tokens},
                 {"prefix_hit", c.prefix_hit_tokens},
                 {"prefill_computed", c.prefill_tokens},
                 {"decode", c.decode_tokens},
                 {"output", c.output_tokens}};
  j["prefix_hit_rate"] = Optional(f.prefix_hit_rate);
  j["queue_delay"] = DistributionJson(f.queue_delay);
  j["ttft"] = DistributionJson(f.ttft);
  j["tpot"] = DistributionJson(f.tpot);
  j["itl"] = DistributionJson(f.itl);
  j["e2e"] = DistributionJson(f.e2e);
  j["throughput"] = {{"output_tokens_per_s", Optional(f.output_tokens_per_s)},
                     {"tokens_per_s", Optional(f.tokens_per_s)}};
  j["kv_utilisation"] = {{"mean", Optional(f.kv_utilisation_mean)},
                         {"peak", f.kv_utilisation_peak}};
  j["batch"] = {{"mean", Optional(f.batch_mean)}, {"peak", f.batch_peak}};
  j["steps"] = c.steps;
  j["busy"] = c.busy;
  if (f.slo) j["slo"] = SloJson(*f.slo);
  return j;
}

ojson EngineConfigReportJson(const EngineConfig& c) {
  return {{"name", c.name},
          {"beta_us", c.beta_us},
          {"alpha_us", c.alpha_us},
          {"kv_blocks", c.kv_blocks},
          {"block_tokens", c.block_tokens},
          {"max_running", c.max_running},
          {"max_batched_tokens", c.max_batched_tokens}};
}

}  // namespace lbsim
