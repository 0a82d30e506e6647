#include "strategies/registry.h"

#include "base/did_you_mean.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

#include "base/errors.h"

namespace lbsim {

#define LBSIM_STRATEGY(X) StrategyInfo X##Info();
#include "strategies/builtin_strategies.inc"
#undef LBSIM_STRATEGY

namespace {

std::string Normalize(std::string_view name) {
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front())))
    name.remove_prefix(1);
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
    name.remove_suffix(1);
  std::string out(name);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string NameList(const std::vector<StrategyInfo>& all) {
  std::string out;
  for (const StrategyInfo& s : all) {
    if (!out.empty()) out += ", ";
    out += s.name;
    if (!s.aliases.empty()) {
      out += " (";
      for (std::size_t i = 0; i < s.aliases.size(); ++i)
        out += (i ? ", " : "") + std::string(s.aliases[i]);
      out += ")";
    }
    if (s.status == StrategyStatus::kPlanned) out += " [planned]";
  }
  return out;
}

}  // namespace

std::string_view StatusName(StrategyStatus status) {
  switch (status) {
    case StrategyStatus::kDefault: return "default";
    case StrategyStatus::kExperimental: return "experimental";
    case StrategyStatus::kPlanned: return "planned";
  }
  return "?";
}

const ParamSpec* StrategyInfo::TailParam() const {
  for (const ParamSpec& p : params)
    if (p.tail) return &p;
  return nullptr;
}

StrategyRegistry::StrategyRegistry(std::vector<StrategyInfo> strategies)
    : strategies_(std::move(strategies)) {}

const StrategyRegistry& StrategyRegistry::Builtin() {
  static const StrategyRegistry registry({
#define LBSIM_STRATEGY(X) X##Info(),
#include "strategies/builtin_strategies.inc"
#undef LBSIM_STRATEGY
  });
  return registry;
}

const StrategyRegistry& StrategyRegistry::For(const ProxyRun& run) {
  if (!run.profile->pinned()) return Builtin();
  // One registry per pinned profile and interpreter, built once.
  static const std::vector<StrategyRegistry> variants = [] {
    std::vector<StrategyRegistry> out;
    for (const ProxyProfile& profile : ProxyProfiles()) {
      if (!profile.pinned()) continue;
      for (PythonVersion python : {PythonVersion::k311, PythonVersion::k312}) {
        std::vector<StrategyInfo> infos;
        for (const StrategyInfo& s : Builtin().All())
          infos.push_back(s.under_proxy ? s.under_proxy(s, ProxyRun{&profile, python}) : s);
        out.emplace_back(std::move(infos));
      }
    }
    return out;
  }();
  std::size_t index = 0;
  for (const ProxyProfile& profile : ProxyProfiles()) {
    if (&profile == run.profile) break;
    if (profile.pinned()) ++index;
  }
  return variants[2 * index + (run.python == PythonVersion::k312 ? 1 : 0)];
}

const StrategyInfo* StrategyRegistry::Find(std::string_view name) const {
  const std::string key = Normalize(name);
  for (const StrategyInfo& s : strategies_) {
    if (s.name == key) return &s;
    for (std::string_view alias : s.aliases)
      if (alias == key) return &s;
  }
  return nullptr;
}

const StrategyInfo& StrategyRegistry::Require(std::string_view name) const {
  const StrategyInfo* s = Find(name);
  if (!s) {
    std::vector<std::string> names;
    for (const StrategyInfo& info : strategies_) {
      names.emplace_back(info.name);
      for (std::string_view alias : info.aliases) names.emplace_back(alias);
    }
    const std::optional<std::string> guess = DidYouMean(name, names);
    throw UsageError(fmt::format("unknown strategy '{}'{}; registered: {}", name,
                                 guess ? fmt::format(" (did you mean '{}'?)", *guess) : "",
                                 NameList(strategies_)));
  }
  if (!s->make)
    throw UsageError(fmt::format(
        "strategy {} is planned but not implemented yet; registered: {}",
        s->name, NameList(strategies_)));
  return *s;
}

const StrategyInfo& StrategyRegistry::Default() const {
  for (const StrategyInfo& s : strategies_)
    if (s.status == StrategyStatus::kDefault) return s;
  return strategies_.front();
}

namespace {

// Splits "NAME.KEY=VALUE" into the strategy name and "KEY=VALUE".
std::pair<std::string_view, std::string_view> SplitSetting(std::string_view setting) {
  std::size_t eq = setting.find('=');
  std::size_t dot = setting.substr(0, eq).rfind('.');
  if (dot == std::string_view::npos || dot == 0)
    throw UsageError(fmt::format(
        "--set: expected STRATEGY.PARAMETER=VALUE, got '{}'", setting));
  return {setting.substr(0, dot), setting.substr(dot + 1)};
}

std::string ToUpper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::vector<std::string> SplitStrategyList(const StrategyRegistry& registry,
                                           std::string_view list) {
  std::vector<std::string> specs;
  for (;;) {
    std::size_t comma = list.find(',');
    std::string_view spec = list.substr(0, comma);
    std::size_t colon = spec.find(':');
    const StrategyInfo* info =
        colon == std::string_view::npos ? nullptr : registry.Find(spec.substr(0, colon));
    if (info && info->TailParam()) {
      specs.emplace_back(list);  // the tail runs to the end, commas included
      return specs;
    }
    specs.emplace_back(spec);
    if (comma == std::string_view::npos) return specs;
    list.remove_prefix(comma + 1);
  }
}

StrategyRequest ParseStrategyRequest(const StrategyRegistry& registry,
                                     std::string_view spec,
                                     const std::vector<std::string>& settings,
                                     const std::vector<RunWideParam>& run_wide) {
  std::size_t colon = spec.find(':');
  const StrategyInfo& info = registry.Require(spec.substr(0, colon));
  std::vector<std::pair<std::string, std::string>> overrides;
  for (const RunWideParam& param : run_wide) {
    bool declared = std::any_of(info.params.begin(), info.params.end(),
                                [&](const ParamSpec& p) { return p.name == param.first; });
    if (declared) overrides.push_back(param);
  }
  for (const std::string& setting : settings) {
    auto [name, assignment] = SplitSetting(setting);
    if (registry.Find(name) == &info)
      overrides.push_back(SplitAssignment(assignment, "--set"));
  }
  const ParamSpec* tail = info.TailParam();
  if (tail) {
    if (colon != std::string_view::npos)
      overrides.emplace_back(std::string(tail->name), std::string(spec.substr(colon + 1)));
    colon = std::string_view::npos;
  }
  while (colon != std::string_view::npos) {
    std::size_t next = spec.find(':', colon + 1);
    std::string_view part = spec.substr(colon + 1, next == std::string_view::npos
                                                       ? std::string_view::npos
                                                       : next - colon - 1);
    overrides.push_back(
        SplitAssignment(part, fmt::format("strategy '{}'", spec)));
    colon = next;
  }
  StrategyRequest request;
  request.info = &info;
  request.requested_as = std::string(spec);
  request.params = ParamValues::Resolve(info.name, info.params, overrides);
  request.overrides = std::move(overrides);
  if (tail && request.params.Text(tail->name).empty())
    throw UsageError(fmt::format("strategy {}: expected {}:{} (the {} is missing or empty)",
                                 info.name, info.name, ToUpper(tail->name), tail->name));
  return request;
}

void CheckSettingsUsed(const StrategyRegistry& registry,
                       const std::vector<StrategyRequest>& requests,
                       const std::vector<std::string>& settings) {
  for (const std::string& setting : settings) {
    std::string_view name = SplitSetting(setting).first;
    const StrategyInfo& info = registry.Require(name);
    bool used = std::any_of(requests.begin(), requests.end(),
                            [&](const StrategyRequest& r) { return r.info->name == info.name; });
    if (!used)
      throw UsageError(fmt::format(
          "--set {}: strategy {} is not among the strategies of this run",
          setting, info.name));
  }
}

bool StrategyRequest::ReplaysProxy() const {
  if (!info->from_proxy) return false;
  for (const ParamValues::Value& v : params.All())
    if (!v.is_default) return false;
  return true;
}

StrategyRequest BindToProxy(const StrategyRequest& request, const ProxyRun& run) {
  const StrategyInfo* info = StrategyRegistry::For(run).Find(request.info->name);
  if (!info) throw std::logic_error("BindToProxy: a strategy missing from a profile");
  StrategyRequest bound;
  bound.info = info;
  bound.requested_as = request.requested_as;
  bound.overrides = request.overrides;
  try {
    bound.params = ParamValues::Resolve(info->name, info->params, bound.overrides);
  } catch (const UsageError& e) {
    throw UsageError(fmt::format("{} (under Proxy profile {}, least_load {})", e.what(),
                                 run.profile->name,
                                 LeastLoadFormName(run.profile->least_load)));
  }
  return bound;
}

}  // namespace lbsim
