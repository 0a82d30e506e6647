#include "cli/engine_options.h"

#include <cstdio>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "base/number_text.h"
#include "sim/io/json_file.h"

namespace lbsim {
namespace {

// Accepts a finite number >= 0.
CLI::Validator AtLeastZero() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double x = 0;
        if (ParseFiniteNumber(text, x) && x >= 0) return {};
        return fmt::format("expected a number >= 0, got {}", text);
      },
      "");
}

}  // namespace

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
      ->check(AtLeastZero())
      ->type_name("S")
      ->group(group);
  app.add_option("--signal-delay", signal_delay,
                 "Engine signals: each snapshot becomes visible D after it is taken (default 0)")
      ->check(AtLeastZero())
      ->type_name("D")
      ->group(group);
  app.add_option("--signal-jitter", signal_jitter,
                 "Engine signals: plus a uniform delay in [0, J) per Instance and snapshot, from "
                 "--seed")
      ->check(AtLeastZero())
      ->type_name("J")
      ->group(group);
}

EngineModelOptions EngineOptions::Resolve() const {
  EngineModelOptions o;
  if (!engine.empty()) o.config = ResolveEngine(engine);
  o.signal_interval = signal_interval;
  o.signal_delay = signal_delay;
  o.signal_jitter = signal_jitter;
  return o;
}

std::shared_ptr<const EngineConfig> ResolveEngine(const std::string& value) {
  if (const EngineConfig* builtin = FindBuiltinEngine(value))
    return std::make_shared<const EngineConfig>(*builtin);
  // A file's name has a '.' or a '/' ("./engine" for one without).
  if (value.find_first_of("./") == std::string::npos)
    throw UsageError(fmt::format(
        "--engine {}: expected a built-in engine ({}) or an engine configuration file (a path "
        "with a '.' or '/')",
        value, BuiltinEngineNames()));
  return std::make_shared<const EngineConfig>(
      EngineConfigFromJson(ReadJsonFile(value, "engine configuration"), value));
}

int RunListEngines(const std::string& name) {
  if (!name.empty()) {
    const EngineConfig* c = FindBuiltinEngine(name);
    if (!c)
      throw UsageError(fmt::format("lbsim engines {}: no such built-in engine (built-ins: {})",
                                   name, BuiltinEngineNames()));
    const std::string text = EngineConfigJson(*c);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  std::string out = "Built-in engine configurations (--engine NAME; lbsim engines NAME prints one "
                    "as a file to edit)\n\n";
  for (const EngineConfig& c : BuiltinEngines()) {
    out += fmt::format("{}\n  {}\n", c.name, c.description);
    out += fmt::format("  beta (us): {} + {} x prefill tokens + {} x decode tokens\n",
                       NumberText(c.beta_us[0]), NumberText(c.beta_us[1]), NumberText(c.beta_us[2]));
    out += fmt::format("  alpha (us): {} + {} x input tokens before queueing; {} per token out\n",
                       NumberText(c.alpha_us[0]), NumberText(c.alpha_us[1]),
                       NumberText(c.alpha_us[2]));
    out += fmt::format("  KV cache {} blocks of {} tokens; at most {} sequences and {} tokens a step\n",
                       c.kv_blocks, c.block_tokens, c.max_running, c.max_batched_tokens);
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace lbsim
