#pragma once

#include <nlohmann/json_fwd.hpp>

#include "sim/replay/engine_config.h"
#include "sim/report/report.h"

namespace lbsim {

// The engine model's figures as the JSON report writes them (what_if.engine,
// and what_if.instances[ID].engine): served, rejected, preemptions,
// preempted_requests, tokens, prefix_hit_rate, queue_delay, ttft, tpot,
// itl, e2e, throughput, kv_utilisation, batch, steps, busy; an empty
// distribution or undefined rate is null.
nlohmann::ordered_json EngineFiguresJson(const EngineFigures& figures);

// A distribution of per-request values as the JSON report writes it:
// count, p50, p90, p99, max, mean; null when empty.
nlohmann::ordered_json DistributionJson(const DistributionSummary& d);

// The engine configuration in force, as the report's simulation.engine.
nlohmann::ordered_json EngineConfigReportJson(const EngineConfig& config);

}  // namespace lbsim
