// `lbsim engines [NAME]`: the built-in LLM engine configurations, or one
// printed as a configuration file.

#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/errors.h"
#include "base/number_text.h"
#include "cli/commands/command.h"
#include "sim/replay/engine_config.h"

namespace lbsim {
namespace {

constexpr const char* kFooter = R"(
Examples:
  lbsim engines
  lbsim engines llama-3.1-8b-h100 > my-engine.json
  lbsim -s rr,ll --engine my-engine.json trace.ndjson
  lbsim engines fit log-bs*.txt tpot_benchmark_table.json -o my-engine.json

The engine model and its configuration file: docs/engine.md.)";

// Lists the built-in configurations, or prints the one `name` names as a
// configuration file to start from.
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

class EnginesCli final : public Subcommand {
 public:
  void Declare(CLI::App& app) override {
    cmd_ = app.add_subcommand(
        "engines", "List the built-in LLM engine configurations (--engine), print one as a "
                   "configuration file, or fit one to measurements (engines fit)");
    cmd_->add_option("name", name_, "A built-in engine to print as JSON")->type_name("NAME");
    cmd_->footer(kFooter);
    fit_->Declare(*cmd_);
  }
  std::vector<FileOption> FileOptions() const override { return fit_->FileOptions(); }
  int Run(std::vector<std::string>& unwritten) override {
    if (fit_->Chosen()) return fit_->Run(unwritten);
    return RunListEngines(name_);
  }

 private:
  std::string name_;
  std::unique_ptr<Command> fit_ = MakeEnginesFitCommand();
};

}  // namespace

std::unique_ptr<Command> MakeEnginesCommand() { return std::make_unique<EnginesCli>(); }

}  // namespace lbsim
