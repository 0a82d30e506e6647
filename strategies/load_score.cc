#include "strategies/load_score.h"

#include <string_view>
#include <vector>

namespace lbsim {

namespace {

ParamSpec Weight(std::string_view name, std::string_view default_text,
                 std::string_view description) {
  ParamSpec spec;
  spec.name = name;
  spec.kind = ParamKind::kNumber;
  spec.default_text = default_text;
  spec.description = description;
  return spec;
}

}  // namespace

std::span<const ParamSpec> LoadWeightParams() {
  static const std::vector<ParamSpec> specs = {
      Weight("inflight", "1.0", "weight of the Instance's inflight count"),
      Weight("queue_depth", "0.25", "weight of hint queue_depth"),
      Weight("active_prepare", "1.0", "weight of hint active_prepare"),
      Weight("active_ready", "1.0", "weight of hint active_ready"),
      Weight("prepare_queue_depth", "0.25", "weight of hint prepare_queue_depth"),
      Weight("ready_queue_depth", "0.25", "weight of hint ready_queue_depth"),
      Weight("pending_prefill_count", "1.0", "weight of hint pending_prefill_count"),
      Weight("active_decode_count", "0.5", "weight of hint active_decode_count"),
      Weight("predicted_total_backlog_ms", "0.001", "weight of hint predicted_total_backlog_ms"),
      Weight("qps_1m", "0.01", "weight of the Instance's qps_1m"),
  };
  return specs;
}

LoadWeights LoadWeights::FromParams(const ParamValues& params) {
  LoadWeights w;
  w.inflight = params.Number("inflight");
  for (std::size_t i = 0; i < kQueueFields.size(); ++i)
    w.queue[i] = params.Number(kQueueFields[i]);
  w.qps_1m = params.Number("qps_1m");
  return w;
}

}  // namespace lbsim
