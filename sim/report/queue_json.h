#pragma once

#include <nlohmann/json_fwd.hpp>

#include "sim/replay/sim_options.h"
#include "sim/report/report.h"

namespace lbsim {

// The Proxy queue model's figures of a strategy run as the JSON report
// writes them (strategies[].proxy_queue): requests, forwarded, stuck,
// stalled_behind_completions, and the queue_wait, client_ttft and
// end_to_end distributions.
nlohmann::ordered_json ProxyQueueFiguresJson(const ProxyQueueFigures& figures);

// The Proxy operator's settings in force, as the report's top-level
// proxy_queue: ready_concurrency, prepare_concurrency,
// predictor_coefficients.
nlohmann::ordered_json ProxyQueueOptionsJson(const ProxyQueueOptions& options);

}  // namespace lbsim
