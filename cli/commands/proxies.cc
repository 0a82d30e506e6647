// `lbsim proxies`: the Proxy versions lbsim replays, what each changed, and
// least_load's defaults under each.

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands/command.h"
#include "sim/io/write_stream.h"
#include "strategies/proxy_profile.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

constexpr const char* kFooter = R"(
Examples:
  lbsim proxies
  lbsim --proxy cacheroute@df8382d -s ll traces/examples/stale_snapshot.ndjson)";

std::string_view InflightSourceText(InflightSource source) {
  switch (source) {
    case InflightSource::kSpec: return "load events; routed requests move a known counter";
    case InflightSource::kHeartbeats: return "heartbeats (load events) only";
    case InflightSource::kCounted: return "the Proxy's own counter; new Instances unknown";
    case InflightSource::kCountedFromZero: return "the Proxy's own counter; registered at 0";
  }
  return "?";
}

// least_load's parameters and defaults under `profile`, on one line.
std::string LeastLoadDefaults(const ProxyProfile& profile) {
  const StrategyInfo* ll =
      StrategyRegistry::For(ProxyRun{&profile, PythonVersion::k312}).Find("least_load");
  if (ll->params.empty()) return "no parameters (lexicographic)";
  std::string out;
  for (const ParamSpec& p : ll->params) {
    if (p.echo == ParamEcho::kWhenChanged) continue;  // terms the version lacks, lbsim extras
    out += fmt::format("{}{}={}", out.empty() ? "" : " ", p.name, p.default_text);
  }
  return out;
}

// Lists every Proxy profile: its version, least_load form, where inflight
// comes from, what changed, and least_load's defaults under it.
int RunListProxies() {
  std::vector<std::array<std::string, 5>> rows;
  rows.push_back({"PROXY", "DATE", "LEAST_LOAD", "INFLIGHT FROM", "CHANGE"});
  for (const ProxyProfile& p : ProxyProfiles()) {
    std::string name(p.name);
    if (&p == &LatestProxyProfile()) name += " (latest, default)";
    rows.push_back({name, p.date.empty() ? "-" : std::string(p.date),
                    std::string(LeastLoadFormName(p.least_load)),
                    std::string(InflightSourceText(p.inflight)), std::string(p.change)});
  }
  std::array<std::size_t, 5> width{};
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  std::string out;
  for (const auto& r : rows)
    out += fmt::format("{:<{}}  {:<{}}  {:<{}}  {:<{}}  {}\n", r[0], width[0], r[1], width[1],
                       r[2], width[2], r[3], width[3], r[4]);
  out += "\nLEAST_LOAD DEFAULTS (set with -s ll:KEY=VALUE; a run that changes one no longer "
         "replays the pinned Proxy)\n";
  for (const ProxyProfile& p : ProxyProfiles())
    out += fmt::format("  {:<{}}  {}\n", p.name, width[0], LeastLoadDefaults(p));
  out += "\nL2 and L3 add up their terms with Python's sum(): left to right under --python "
         "3.11, compensated (Neumaier) under 3.12.\n";
  WriteStandardOutput(out, "the listing");
  return 0;
}

class ProxiesCli final : public Subcommand {
 public:
  void Declare(CLI::App& app) override {
    cmd_ = app.add_subcommand(
        "proxies", "List the Proxy versions lbsim replays, what each changed, and its defaults");
    cmd_->footer(kFooter);
  }
  int Run(std::vector<std::string>&) override { return RunListProxies(); }
};

}  // namespace

std::unique_ptr<Command> MakeProxiesCommand() { return std::make_unique<ProxiesCli>(); }

}  // namespace lbsim
