#pragma once

// The SimOptions fields the keyed what-if options (WhatIfKeys) may set, as
// numbers, for tests that compare options.

#include <vector>

#include "sim/replay/sim_options.h"

namespace lbsim::testing {

inline std::vector<double> WhatIfFields(const SimOptions& o) {
  return {static_cast<double>(o.slots),
          o.stale_interval,
          o.stale_delay,
          o.stale_jitter,
          o.window,
          static_cast<double>(o.seed),
          static_cast<double>(o.cache_blocks),
          o.engine.signal_interval,
          o.engine.signal_delay,
          o.engine.signal_jitter,
          o.proxy_queue.on ? 1.0 : 0.0,
          static_cast<double>(o.proxy_queue.ready_concurrency),
          static_cast<double>(o.proxy_queue.prepare_concurrency)};
}

}  // namespace lbsim::testing
