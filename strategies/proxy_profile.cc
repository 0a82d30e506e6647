#include "strategies/proxy_profile.h"

#include <array>
#include <cctype>

namespace lbsim {
namespace {

constexpr std::array<ProxyProfile, 7> kProfiles = {{
    {"cacheroute@df8382d", "2026-07-16", LeastLoadForm::kLexicographic,
     InflightSource::kHeartbeats,
     "least_load added: lowest inflight, then lowest qps_1m; inflight only from heartbeats"},
    {"cacheroute@2f1019a", "2026-07-16", LeastLoadForm::kLexicographic,
     InflightSource::kCounted,
     "the Proxy counts its own requests; heartbeats no longer set inflight"},
    {"cacheroute@55b32e9", "2026-07-16", LeastLoadForm::kLexicographic,
     InflightSource::kCountedFromZero,
     "registering sets an unknown inflight counter to 0"},
    {"cacheroute@8b116b6", "2026-07-20", LeastLoadForm::kFourQueueKeys,
     InflightSource::kCountedFromZero,
     "weighted score: inflight, four queue keys of the hint, qps_1m (weight 0)"},
    {"cacheroute@d4bd47f", "2026-07-20", LeastLoadForm::kSevenQueueKeys,
     InflightSource::kCountedFromZero,
     "three more queue keys: pending_prefill_count, active_decode_count, "
     "predicted_total_backlog_ms"},
    {"cacheroute@28e857c", "2026-08-05", LeastLoadForm::kSevenQueueKeys,
     InflightSource::kCountedFromZero,
     "no change to the strategies or the pool (latest)", true},
    {"spec", "", LeastLoadForm::kSpec, InflightSource::kSpec,
     "lbsim's typed contract (docs/strategies.md): the original request's weights, "
     "typed hints, load events set inflight"},
}};

constexpr std::size_t kLatest = 5;
constexpr std::size_t kSpec = 6;

std::string Normalize(std::string_view name) {
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front())))
    name.remove_prefix(1);
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
    name.remove_suffix(1);
  std::string out(name);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::span<const ProxyProfile> ProxyProfiles() { return kProfiles; }
const ProxyProfile& LatestProxyProfile() { return kProfiles[kLatest]; }
const ProxyProfile& SpecProxyProfile() { return kProfiles[kSpec]; }

const ProxyProfile* FindProxyProfile(std::string_view name) {
  const std::string key = Normalize(name);
  if (key == "latest") return &LatestProxyProfile();
  for (const ProxyProfile& p : kProfiles)
    if (p.name == key) return &p;
  return nullptr;
}

std::string ProxyProfileNames() {
  std::string out;
  for (const ProxyProfile& p : kProfiles) {
    if (p.pinned()) out += std::string(p.name) + ", ";
  }
  return out + "latest, spec";
}

std::string_view LeastLoadFormName(LeastLoadForm form) {
  switch (form) {
    case LeastLoadForm::kSpec: return "spec";
    case LeastLoadForm::kLexicographic: return "L1";
    case LeastLoadForm::kFourQueueKeys: return "L2";
    case LeastLoadForm::kSevenQueueKeys: return "L3";
  }
  return "?";
}

}  // namespace lbsim
