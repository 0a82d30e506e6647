// `lbsim strategies`: the strategy registry and its parameters, as a Proxy
// version runs them; also the replay's --list-strategies.

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands/command.h"
#include "cli/proxy_options.h"
#include "sim/io/write_stream.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

constexpr const char* kFooter = R"(
Examples:
  lbsim strategies
  lbsim strategies --proxy cacheroute@df8382d)";

class StrategiesCli final : public Subcommand {
 public:
  void Declare(CLI::App& app) override {
    cmd_ = app.add_subcommand(
        "strategies", "List the registered strategies and their parameters, as the Proxy "
                      "(--proxy, default latest) runs them");
    cmd_->footer(kFooter);
    proxy_.AddTo(*cmd_);
  }
  int Run(std::vector<std::string>&) override {
    return RunListStrategies(proxy_.Choice().Resolve(nullptr));
  }

 private:
  ProxyOptions proxy_;
};

}  // namespace

int RunListStrategies(const ProxyRun& run) {
  const StrategyRegistry& registry = StrategyRegistry::For(run);
  std::vector<std::array<std::string, 4>> rows;
  rows.push_back({"STRATEGY", "ALIASES", "STATUS", "DESCRIPTION"});
  for (const StrategyInfo& s : registry.All()) {
    std::string aliases;
    for (std::string_view a : s.aliases) aliases += (aliases.empty() ? "" : ", ") + std::string(a);
    rows.push_back({std::string(s.name), aliases.empty() ? "-" : aliases,
                    std::string(StatusName(s.status)), std::string(s.description)});
  }
  std::array<std::size_t, 4> width{};
  for (const auto& r : rows)
    for (std::size_t c = 0; c < 4; ++c) width[c] = std::max(width[c], r[c].size());
  std::string out = fmt::format(
      "As {} runs them{} (lbsim proxies lists every version; --proxy NAME lists another)\n\n",
      run.profile->name,
      run.profile->pinned() ? fmt::format(" on Python {}", PythonVersionName(run.python)) : "");
  for (const auto& r : rows)
    out += fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", r[0], width[0], r[1], width[1],
                       r[2], width[2], r[3]);
  out += "\nPARAMETERS (set with --strategy NAME:KEY=VALUE or --set NAME.KEY=VALUE)\n";
  for (const StrategyInfo& s : registry.All()) {
    if (s.params.empty()) continue;
    out += fmt::format("{}\n", s.name);
    std::size_t w = 0, dw = 6;
    for (const ParamSpec& p : s.params) {
      w = std::max(w, p.name.size());
      dw = std::max(dw, p.default_text.size());
    }
    for (const ParamSpec& p : s.params)
      out += fmt::format("  {:<{}}  default {:<{}}  {}\n", p.name, w, p.default_text,
                         dw, p.description);
  }
  WriteStandardOutput(out, "the listing");
  return 0;
}

std::unique_ptr<Command> MakeStrategiesCommand() { return std::make_unique<StrategiesCli>(); }

}  // namespace lbsim
