#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "sim/replay/engine_config.h"
#include "sim/replay/sim_options.h"

namespace CLI {
class App;
}

namespace lbsim {

// The LLM engine model's options as typed: --engine, the engine signals'
// --signal-interval, --signal-delay, --signal-jitter, and --slo.
struct EngineOptions {
  std::string engine;  // a built-in name or a configuration file; empty: off
  double signal_interval = 0.0;
  double signal_delay = 0.0;
  double signal_jitter = 0.0;
  std::string slo;  // --slo as typed; empty: none

  // Adds the options to `app`, in option group `group`.
  void AddTo(CLI::App& app, const std::string& group);
  // The engine model options they make; throws UsageError or InputError
  // (an unreadable or malformed configuration file).
  EngineModelOptions Resolve() const;
};

// The configuration --engine VALUE names (or `flag` VALUE): a built-in, or
// else the JSON file at VALUE (docs/engine.md). Throws UsageError or
// InputError.
std::shared_ptr<const EngineConfig> ResolveEngine(const std::string& value,
                                                  std::string_view flag = "--engine");

}  // namespace lbsim
