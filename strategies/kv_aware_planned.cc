// kv_aware is planned, not implemented: it is listed so that users see it
// coming, and selecting it is a clear usage error.

#include "strategies/registry.h"

namespace lbsim {

StrategyInfo KvAwarePlannedInfo() {
  return {
      .name = "kv_aware",
      .aliases = {},
      .status = StrategyStatus::kPlanned,
      .description = "Choose Instances by KV-cache locality / reuse potential.",
      .params = {},
      .reasons = {},
      .make = nullptr,
  };
}

}  // namespace lbsim
