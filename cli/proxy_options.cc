#include "cli/proxy_options.h"

#include <string>
#include <string_view>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/errors.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

// The pinned versions' commits, as "df8382d, 2f1019a, ...".
std::string PinnedCommits() {
  constexpr std::string_view kPrefix = "cacheroute@";
  std::string out;
  for (const ProxyProfile& p : ProxyProfiles()) {
    if (!p.name.starts_with(kPrefix)) continue;
    out += fmt::format("{}{}", out.empty() ? "" : ", ", p.name.substr(kPrefix.size()));
  }
  return out;
}

}  // namespace

void ProxyOptions::AddTo(CLI::App& app) {
  app.add_option("--proxy", proxy,
                 fmt::format("Proxy to replay: cacheroute@COMMIT (COMMIT one of {}), latest, or "
                             "spec (see lbsim proxies); default: the trace header's \"proxy\", "
                             "else latest",
                             PinnedCommits()))
      ->type_name("NAME");
  app.add_option("--python", python,
                 "Python the Proxy runs on, 3.11 or 3.12: how least_load adds up its "
                 "score (default: the trace header's \"python\", else 3.12, the Proxy's Dockerfile)")
      ->type_name("VERSION");
}

ProxyChoice ProxyOptions::Choice() const {
  ProxyChoice choice;
  if (!proxy.empty()) {
    choice.profile = FindProxyProfile(proxy);
    if (!choice.profile)
      throw UsageError(fmt::format("--proxy {}: expected one of {}", proxy, ProxyProfileNames()));
  }
  if (!python.empty()) {
    std::optional<PythonVersion> version = ParsePythonVersion(python);
    if (!version) throw UsageError(fmt::format("--python {}: expected 3.11 or 3.12", python));
    choice.python = *version;
  }
  return choice;
}

}  // namespace lbsim
