#include "cli/engine_options.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "cli/option_checks.h"
#include "sim/io/json_file.h"
#include "sim/io/printable.h"
#include "sim/replay/slo.h"
#include "sim/replay/what_if_keys.h"

namespace lbsim {

void EngineOptions::AddTo(CLI::App& app, const std::string& group) {
  app.add_option("--engine", engine,
                 fmt::format("LLM engine model: an engine behind every Instance serves each "
                             "arrival by its input_tokens and output_tokens (continuous "
                             "batching, KV cache, prefix reuse); a built-in ({}) or a "
                             "configuration file (docs/engine.md)",
                             BuiltinEngineNames()))
      ->type_name("FILE|NAME")
      ->group(group);
  app.add_option("--signal-interval", signal_interval,
                 "Engine signals: every S, each engine's queue state is published under the hint "
                 "keys least_load reads; needs --engine")
      ->check(TimeIn(*FindWhatIfKey("signal_interval")))
      ->type_name("S")
      ->group(group);
  app.add_option("--signal-delay", signal_delay,
                 "Engine signals: each snapshot becomes visible D after it is taken (default 0)")
      ->check(TimeIn(*FindWhatIfKey("signal_delay")))
      ->type_name("D")
      ->group(group);
  app.add_option("--signal-jitter", signal_jitter,
                 "Engine signals: plus a uniform delay in [0, J) per Instance and snapshot, from "
                 "--seed")
      ->check(TimeIn(*FindWhatIfKey("signal_jitter")))
      ->type_name("J")
      ->group(group);
  app.add_option("--slo", slo,
                 "Service-level objectives: the share of requests within TTFT, TPOT and E2E bounds "
                 "and the goodput, e.g. ttft=0.5,tpot=50ms (trace units, or ms, s, us); needs "
                 "--engine")
      ->type_name("KEY=TIME,...")
      ->group(group);
}

EngineModelOptions EngineOptions::Resolve() const {
  EngineModelOptions o;
  if (!engine.empty()) {
    o.config = ResolveEngine(engine);
    if (!FindBuiltinEngine(engine)) o.config_file = engine;
  }
  o.signal_interval = signal_interval;
  o.signal_delay = signal_delay;
  o.signal_jitter = signal_jitter;
  if (!slo.empty()) {
    std::string error;
    const std::optional<SloOptions> parsed = ParseSlo(slo, error);
    if (!parsed) throw UsageError("--slo: " + Printable(error));
    o.slo = *parsed;
  }
  return o;
}

std::shared_ptr<const EngineConfig> ResolveEngine(const std::string& value, std::string_view flag) {
  if (const EngineConfig* builtin = FindBuiltinEngine(value))
    return std::make_shared<const EngineConfig>(*builtin);
  // A file's name has a '.' or a '/' ("./engine" for one without).
  if (value.find_first_of("./") == std::string::npos)
    throw UsageError(fmt::format(
        "{} {}: expected a built-in engine ({}) or an engine configuration file (a path "
        "with a '.' or '/')",
        flag, value, BuiltinEngineNames()));
  return std::make_shared<const EngineConfig>(
      EngineConfigFromJson(ReadJsonFile(value, "engine configuration"), value));
}

}  // namespace lbsim
