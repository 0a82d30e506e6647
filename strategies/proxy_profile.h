#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "strategies/hint.h"
#include "strategies/python_version.h"
#include "strategies/summation.h"

namespace lbsim {

// How a Proxy version's least_load decides.
enum class LeastLoadForm : unsigned char {
  kSpec,           // lbsim's typed contract: weighted, the original request's weights
  kLexicographic,  // L1: lowest known inflight, then lowest known qps_1m; no weights
  kFourQueueKeys,  // L2: weighted; inflight, four hint queue keys, qps_1m
  kSevenQueueKeys, // L3: weighted; inflight, seven hint queue keys, qps_1m
};

// Where the inflight value least_load reads comes from in a version's pool.
enum class InflightSource : unsigned char {
  // lbsim's typed contract: `load` and `up` events set it (null: unknown);
  // routing moves a known counter of the same registration.
  kSpec,
  // Heartbeats only (`load` values that are not null); requests are not
  // counted.
  kHeartbeats,
  // The Proxy's own request counter; heartbeats do not set it; a new
  // registration starts unknown.
  kCounted,
  // As kCounted, and registering sets an unknown counter to 0.
  kCountedFromZero,
};

// One version of the CacheRoute Proxy that lbsim replays exactly (or the
// `spec` contract), as ../shared/spec/proxy-versions.md pins it.
struct ProxyProfile {
  std::string_view name;    // "cacheroute@df8382d", "spec"
  std::string_view date;    // of the commit; empty for spec
  LeastLoadForm least_load;
  InflightSource inflight;
  std::string_view change;  // one line: what this version changed
  // Its queue manager takes a completions request that ended off the
  // pending list (0927797); before, the request stays pending forever and
  // every later request on its Instance waits (proxy-queue.md).
  bool queue_clears_ended_pending = false;

  // A real Proxy version (every profile but spec): its pool treats `load`
  // events as heartbeats, and hint values are read with Python's float().
  bool pinned() const { return least_load != LeastLoadForm::kSpec; }
  // The Proxy counts routed requests itself.
  bool counts_requests() const {
    return inflight == InflightSource::kCounted || inflight == InflightSource::kCountedFromZero;
  }
};

// Every profile, oldest version first, spec last.
std::span<const ProxyProfile> ProxyProfiles();
// The newest pinned version (what `latest` names), the default.
const ProxyProfile& LatestProxyProfile();
const ProxyProfile& SpecProxyProfile();
// The profile `name` names ("cacheroute@<commit>", "latest", "spec"; case
// and surrounding spaces do not matter); nullptr when none does.
const ProxyProfile* FindProxyProfile(std::string_view name);
// Every accepted name, for error messages: "cacheroute@df8382d, ..., latest, spec".
std::string ProxyProfileNames();
// "L1", "L2", "L3" or "spec": the short name of a least_load form.
std::string_view LeastLoadFormName(LeastLoadForm form);

// The Proxy a run replays: a profile and the interpreter it runs on.
struct ProxyRun {
  const ProxyProfile* profile = &LatestProxyProfile();
  PythonVersion python = PythonVersion::k312;

  // How least_load adds its score's terms: Python's sum() for the weighted
  // pinned forms, plain additions for spec.
  Summation summation() const {
    return profile->pinned() ? SummationOf(python) : Summation::kLeftToRight;
  }
  // How the trace's hint values are read: typed for spec, Python's float()
  // for a pinned version.
  HintReading hint_reading() const { return {profile->pinned(), python}; }
};

// The Proxy a run was asked for: a profile named by the user (--proxy, a
// scenario) or none, in which case the trace header's wins, else latest.
struct ProxyChoice {
  const ProxyProfile* profile = nullptr;
  // The interpreter named by the user (--python, a scenario), or none: then
  // the trace header's, else 3.12 (the Proxy's Dockerfile).
  std::optional<PythonVersion> python;

  // The run's Proxy, given the profile and interpreter the trace header
  // names (nullptr, nullopt when it names none).
  ProxyRun Resolve(const ProxyProfile* from_header,
                   std::optional<PythonVersion> python_from_header = std::nullopt) const {
    const ProxyProfile* p = profile ? profile : from_header;
    return ProxyRun{p ? p : &LatestProxyProfile(),
                    python.value_or(python_from_header.value_or(PythonVersion::k312))};
  }
};

}  // namespace lbsim
