#include "sim/report/queue_json.h"

#include <nlohmann/json.hpp>

#include "sim/report/engine_json.h"

namespace lbsim {

nlohmann::ordered_json ProxyQueueFiguresJson(const ProxyQueueFigures& q) {
  return {{"requests", q.requests},
          {"forwarded", q.forwarded},
          {"stuck", q.stuck},
          {"stalled_behind_completions", q.stalled_behind_completions},
          {"queue_wait", DistributionJson(q.wait)},
          {"client_ttft", DistributionJson(q.client_ttft)},
          {"end_to_end", DistributionJson(q.end_to_end)}};
}

nlohmann::ordered_json ProxyQueueOptionsJson(const ProxyQueueOptions& o) {
  return {{"ready_concurrency", o.ready_concurrency},
          {"prepare_concurrency", o.prepare_concurrency},
          {"predictor_coefficients", o.coefficients}};
}

}  // namespace lbsim
