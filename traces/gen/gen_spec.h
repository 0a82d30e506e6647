#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "strategies/proxy_profile.h"

namespace lbsim {

// A gen spec: what goes into the trace `lbsim gen` writes. Every time and
// duration is in the trace's `time_unit`; rates are arrivals per time unit.
// Built from defaults, then a gen spec file (JSON), then command-line flags
// (see docs/gen.md).

enum class DurationKind { kFixed, kExponential, kLognormal };

// Request durations: fixed `value`; exponential with mean `value`; or
// lognormal with mean `value` and log-space standard deviation `sigma`.
struct DurationSpec {
  DurationKind kind = DurationKind::kFixed;
  double value = 1.0;
  double sigma = 0.0;
};

// Token counts drawn per arrival from `dist` (its value is a token count),
// rounded to the nearest integer and kept within [min, max].
struct TokenDist {
  DurationSpec dist;
  std::uint64_t min = 1;
  std::uint64_t max = std::uint64_t{1} << 20;
};

// The token counts of every arrival (`input_tokens`, `output_tokens`).
struct TokenSpec {
  TokenDist input;
  TokenDist output;
};

// The token presets, by name: chatbot, summarisation, long-context.
const TokenSpec* FindTokenPreset(std::string_view name);
// "chatbot, summarisation, long-context", for messages.
std::string TokenPresetNames();

// Shared prompt prefixes as `prefix_blocks`: each block id stands for
// `block_tokens` prompt tokens (written as the header's prefix_block_tokens)
// and a prompt of I tokens has ceil(I / block_tokens) ids. With probability
// `share` an arrival's prompt opens with one of `groups` shared prefixes of
// `blocks` ids each, prefix g chosen with probability proportional to
// 1 / (g + 1)^zipf; every other id of it is its own. groups = 0: no
// prefix_blocks.
struct PrefixSpec {
  std::uint64_t groups = 0;
  std::uint64_t blocks = 4;
  std::uint64_t block_tokens = 16;
  double share = 1.0;
  double zipf = 1.0;
};

// The Poisson rate alternates: `rate` for `on`, then `off_rate` for `off`,
// starting with `on` at time 0.
struct OnOffCurve {
  double on = 0.0;
  double off = 0.0;
  double off_rate = 0.0;
};

// The Poisson rate follows rate x (1 + amplitude x cos(2 pi (t - peak_at) /
// period)), amplitude in [0, 1].
struct DiurnalCurve {
  double period = 0.0;
  double amplitude = 0.0;
  double peak_at = 0.0;
};

// `count` extra arrivals spread evenly over [at, at + over) (all at `at`
// when over is 0).
struct Burst {
  double at = 0.0;
  std::uint64_t count = 0;
  double over = 0.0;
};

enum class InstanceEventKind { kUp, kDown, kRemove };

// A down, up or remove of a named Instance at a given time.
struct ScheduledEvent {
  double at = 0.0;
  InstanceEventKind kind = InstanceEventKind::kDown;
  std::string instance;
};

// An Instance that goes down at start + k x period and comes back down_for
// later, until `until` (default: the arrivals' `until`).
struct Flap {
  std::string instance;
  double start = 0.0;
  double period = 0.0;
  double down_for = 0.0;
  std::optional<double> until;
};

// A new Instance that registers mid-run with unknown load (cold start). It
// reports its load like the others unless `reports` is false.
struct Join {
  double at = 0.0;
  std::string instance;
  std::optional<double> speed;
  std::optional<double> weight;
  bool reports = true;
};

// What the Proxy learns about load. Reporting Instances start with known
// zero values of the reported fields; every `interval` (0: never) each
// alive reporting Instance's values at that moment become a `load` event
// `delay` later. The values are those of a reference Proxy that routes this
// trace's arrivals round-robin (the default strategy), each request leaving
// after its duration. Silent Instances never report: their load stays
// unknown.
struct ReportingSpec {
  // The fields reported. By default inflight, unless the Proxy counts its
  // own requests (cacheroute@2f1019a on), whose heartbeats ignore it: then
  // none (see ReportsInflight). Named explicitly, inflight is reported
  // whatever the Proxy, as real heartbeats carry it (a replay counts the
  // values its Proxy ignores).
  bool inflight = true;
  bool qps_1m = false;
  bool fields_given = false;  // a spec or flag named the fields
  double interval = 0.0;
  double delay = 0.0;
  double silent_fraction = 0.0;      // of the initial Instances, chosen by the seed
  std::vector<std::string> silent;   // named silent Instances
};

struct GenSpec {
  std::string name = "generated";
  std::string description;
  std::string time_unit = "s";
  std::uint64_t seed = 1;
  // The Proxy the trace is written for, named in its header; null: none
  // named (it replays as the latest version).
  const ProxyProfile* proxy = nullptr;

  // Initial Instances: ids prefix + 1..count, zero-padded to equal width.
  std::uint32_t instances = 4;
  std::string prefix = "inst-";
  std::vector<double> speeds;   // empty, or one per Instance
  std::vector<double> weights;  // empty, or one per Instance

  // Arrivals: Poisson at `rate`, shaped by at most one curve, plus bursts;
  // they stop at `arrivals` in total (0: no limit) or before `until`,
  // whichever comes first (at least one is required).
  double rate = 10.0;
  std::uint64_t arrivals = 0;
  std::optional<double> until;
  std::optional<OnOffCurve> on_off;
  std::optional<DiurnalCurve> diurnal;
  std::vector<Burst> bursts;
  DurationSpec durations;
  // Times from forwarding to the first chunk (`ttft`, each at most its
  // arrival's duration; null: arrivals carry none), and the share of
  // arrivals on the completions route (`"route": "completions"`): what the
  // Proxy queue model (--proxy-queue) reads.
  std::optional<DurationSpec> ttft;
  double completions_share = 0.0;
  // Token counts (null: arrivals carry none) and shared prefixes (which
  // need token counts).
  std::optional<TokenSpec> tokens;
  PrefixSpec prefixes;

  std::vector<ScheduledEvent> events;
  std::vector<Flap> flaps;
  std::vector<Join> joins;
  ReportingSpec reporting;
};

// Whether the trace's load reports carry inflight: asked for, or by
// default, unless the Proxy (spec.proxy, else latest) ignores inflight in
// heartbeats because it counts its own requests.
bool ReportsInflight(const GenSpec& spec);

// The ids of the initial Instances, in pool order.
std::vector<std::string> InitialInstanceIds(const GenSpec& spec);

// Checks every range and reference of `spec`; throws InputError naming
// `origin` (the spec file, or "command line"), the field and what was
// expected.
void ValidateGenSpec(const GenSpec& spec, const std::string& origin);

// Reads a JSON spec file over `spec` (keys it omits keep their values).
// Unknown keys are errors. Throws InputError naming the file and field.
void ReadGenSpecFile(const std::string& path, GenSpec& spec);

}  // namespace lbsim
