#include "traces/gen/gen_flags.h"

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/number_text.h"

namespace lbsim {
namespace {

constexpr std::array<GenFlagInfo, 33> kFlags{{
    {"--name", "TEXT", "Trace name (header)"},
    {"--description", "TEXT", "Trace description (header)"},
    {"--time-unit", "s|ms", "Unit of every time, duration and rate (default s)"},
    {"--seed", "N", "Seed: the same gen spec and seed give byte-identical traces (default 1)"},
    {"--instances", "N", "Number of initial Instances (default 4)"},
    {"--prefix", "TEXT", "Id prefix of the initial Instances (default inst-)"},
    {"--speeds", "A,B,...", "Service speed of each initial Instance (written as speed keys)"},
    {"--weights", "A,B,...", "Weight of each initial Instance"},
    {"--rate", "R", "Poisson arrivals per time unit (default 10)"},
    {"--arrivals", "N", "Stop after N arrivals"},
    {"--until", "T", "Stop arrivals at time T"},
    {"--on-off", "ON:OFF[:OFF_RATE]", "Rate curve: the rate for ON, then OFF_RATE (default 0) for OFF"},
    {"--diurnal", "PERIOD:AMPLITUDE[:PEAK_AT]", "Rate curve: rate x (1 + AMPLITUDE cos(2 pi (t - PEAK_AT) / PERIOD))"},
    {"--burst", "AT:COUNT[:OVER]", "COUNT extra arrivals spread over [AT, AT+OVER)", true},
    {"--durations", "fixed:V|exponential:MEAN|lognormal:MEAN:SIGMA", "Request durations (default fixed:1)"},
    {"--ttft", "fixed:V|exponential:MEAN|lognormal:MEAN:SIGMA", "Arrivals carry ttft, the time from forwarding to the first chunk (at most the duration), for --proxy-queue"},
    {"--completions-share", "F", "Share of the arrivals on the Proxy's completions route (route: completions; default 0)"},
    {"--tokens", "chatbot|summarisation|long-context", "Arrivals carry input_tokens and output_tokens drawn from this preset"},
    {"--input-tokens", "fixed:V|exponential:MEAN|lognormal:MEAN:SIGMA", "Input token counts (default: the --tokens preset's, else chatbot's)"},
    {"--output-tokens", "fixed:V|exponential:MEAN|lognormal:MEAN:SIGMA", "Output token counts (default: the --tokens preset's, else chatbot's)"},
    {"--prefixes", "GROUPS:BLOCKS[:SHARE[:ZIPF]]", "Shared prompt prefixes as prefix_blocks: GROUPS prefixes of BLOCKS blocks, used by a SHARE of the arrivals (default 1), Zipf-popular (default 1); needs token counts"},
    {"--prefix-block-tokens", "N", "Prompt tokens per prefix block (default 16)"},
    {"--down", "ID@T", "Instance ID goes down at T", true},
    {"--up", "ID@T", "Instance ID comes back up at T", true},
    {"--remove", "ID@T", "Instance ID is removed from the pool at T", true},
    {"--flap", "ID@START:PERIOD:DOWN_FOR[:UNTIL]", "Instance ID goes down every PERIOD from START, for DOWN_FOR", true},
    {"--join", "ID@T[:SPEED]", "A new Instance joins at T with unknown load (cold start)", true},
    {"--proxy", "NAME", "Proxy profile the trace is written for, named in its header (see lbsim proxies; default: none named, which replays as latest)"},
    {"--report-fields", "inflight|qps_1m|inflight,qps_1m|none", "Load fields the reports carry (default inflight; none for a Proxy that counts its own requests, cacheroute@2f1019a on)"},
    {"--report-interval", "S", "A load report of each reporting Instance every S (default 0: never)"},
    {"--report-delay", "D", "Reports appear D after their snapshot (default 0)"},
    {"--silent-fraction", "F", "Fraction of the initial Instances (chosen by the seed) that never report"},
    {"--silent", "ID", "An initial Instance that never reports", true},
}};

// Splits `text` at every `sep`.
std::vector<std::string_view> Split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

// What a flag's value must be, in words, from its placeholder.
std::string Expected(std::string_view type_name) {
  if (type_name == "N") return "a whole number >= 0";
  if (type_name == "R") return "a number >= 0 (arrivals per time unit)";
  if (type_name == "T" || type_name == "S" || type_name == "D") return "a time >= 0";
  if (type_name == "F") return "a fraction from 0 to 1";
  if (type_name == "NAME") return fmt::format("a Proxy profile: one of {}", ProxyProfileNames());
  if (type_name == "s|ms") return "s or ms";
  if (type_name == "A,B,...") return "numbers separated by commas, one per Instance";
  if (type_name == "ON:OFF[:OFF_RATE]") return "ON:OFF or ON:OFF:OFF_RATE, each a number";
  if (type_name == "PERIOD:AMPLITUDE[:PEAK_AT]")
    return "PERIOD:AMPLITUDE or PERIOD:AMPLITUDE:PEAK_AT, each a number";
  if (type_name == "AT:COUNT[:OVER]")
    return "AT:COUNT or AT:COUNT:OVER (AT and OVER numbers, COUNT an integer >= 0)";
  if (type_name == "fixed:V|exponential:MEAN|lognormal:MEAN:SIGMA")
    return "fixed:V, exponential:MEAN or lognormal:MEAN:SIGMA, each value a number";
  if (type_name == "chatbot|summarisation|long-context")
    return "chatbot, summarisation or long-context";
  if (type_name == "GROUPS:BLOCKS[:SHARE[:ZIPF]]")
    return "GROUPS:BLOCKS, GROUPS:BLOCKS:SHARE or GROUPS:BLOCKS:SHARE:ZIPF (GROUPS and BLOCKS "
           "integers >= 1, SHARE a fraction, ZIPF a number >= 0)";
  if (type_name == "ID@T") return "ID@T (T a number)";
  if (type_name == "ID@START:PERIOD:DOWN_FOR[:UNTIL]")
    return "ID@START:PERIOD:DOWN_FOR or ID@START:PERIOD:DOWN_FOR:UNTIL, each a number";
  if (type_name == "ID@T[:SPEED]") return "ID@T or ID@T:SPEED, each a number";
  if (type_name == "inflight|qps_1m|inflight,qps_1m|none")
    return "inflight, qps_1m, inflight,qps_1m or none";
  return std::string(type_name);
}

class FlagValue {
 public:
  FlagValue(std::string_view flag, std::string_view value, std::string_view type_name)
      : flag_(flag), value_(value), expected_(Expected(type_name)) {}

  [[noreturn]] void Fail() const {
    throw UsageError(fmt::format("{} {}: expected {}", flag_, value_, expected_));
  }
  [[noreturn]] void Fail(std::string_view expected) const {
    throw UsageError(fmt::format("{} {}: expected {}", flag_, value_, expected));
  }
  double Number(std::string_view text) const {
    double x = 0;
    if (!ParseFiniteNumber(text, x)) Fail();
    return x;
  }
  std::uint64_t Count(std::string_view text) const {
    const double x = Number(text);
    if (x < 0 || std::floor(x) != x || x > 9.0e15) Fail();
    return static_cast<std::uint64_t>(x);
  }
  // Parts separated by ':' (between `min` and `max` of them).
  std::vector<std::string_view> Parts(std::string_view text, std::size_t min,
                                      std::size_t max) const {
    std::vector<std::string_view> p = Split(text, ':');
    if (p.size() < min || p.size() > max) Fail();
    return p;
  }
  // "ID@REST": the id (non-empty) and the rest.
  std::pair<std::string, std::string_view> IdAt() const {
    const std::size_t at = value_.rfind('@');
    if (at == std::string_view::npos || at == 0) Fail();
    return {std::string(value_.substr(0, at)), value_.substr(at + 1)};
  }

 private:
  std::string_view flag_, value_;
  std::string expected_;
};

}  // namespace

std::span<const GenFlagInfo> GenFlags() { return kFlags; }

void ApplyGenFlag(GenSpec& spec, std::string_view flag, std::string_view value) {
  std::string_view expected;
  for (const GenFlagInfo& f : kFlags)
    if (f.name == flag) expected = f.type_name;
  if (expected.empty()) throw UsageError(fmt::format("{}: not a gen flag", flag));
  const FlagValue v(flag, value, expected);

  if (flag == "--name") spec.name = value;
  else if (flag == "--description") spec.description = value;
  else if (flag == "--time-unit") spec.time_unit = value;
  else if (flag == "--seed") spec.seed = v.Count(value);
  else if (flag == "--instances") {
    const std::uint64_t n = v.Count(value);
    if (n > 1'000'000) v.Fail();
    spec.instances = static_cast<std::uint32_t>(n);
  } else if (flag == "--prefix") spec.prefix = value;
  else if (flag == "--speeds" || flag == "--weights") {
    std::vector<double>& list = flag == "--speeds" ? spec.speeds : spec.weights;
    list.clear();
    for (std::string_view part : Split(value, ',')) list.push_back(v.Number(part));
  } else if (flag == "--rate") spec.rate = v.Number(value);
  else if (flag == "--arrivals") {
    // 0 would mean no limit: a trace with no end unless --until says one.
    double x = 0;
    if (!ParseFiniteNumber(value, x) || x < 1 || std::floor(x) != x || x > 9.0e15)
      v.Fail("a whole number >= 1 (or leave it out and give --until)");
    spec.arrivals = static_cast<std::uint64_t>(x);
  }
  else if (flag == "--until") spec.until = v.Number(value);
  else if (flag == "--on-off") {
    const auto p = v.Parts(value, 2, 3);
    spec.on_off = OnOffCurve{v.Number(p[0]), v.Number(p[1]), p.size() > 2 ? v.Number(p[2]) : 0.0};
  } else if (flag == "--diurnal") {
    const auto p = v.Parts(value, 2, 3);
    spec.diurnal =
        DiurnalCurve{v.Number(p[0]), v.Number(p[1]), p.size() > 2 ? v.Number(p[2]) : 0.0};
  } else if (flag == "--burst") {
    const auto p = v.Parts(value, 2, 3);
    spec.bursts.push_back(
        Burst{v.Number(p[0]), v.Count(p[1]), p.size() > 2 ? v.Number(p[2]) : 0.0});
  } else if (flag == "--durations") {
    const auto p = v.Parts(value, 2, 3);
    if (p[0] == "fixed" && p.size() == 2) spec.durations = {DurationKind::kFixed, v.Number(p[1]), 0.0};
    else if (p[0] == "exponential" && p.size() == 2)
      spec.durations = {DurationKind::kExponential, v.Number(p[1]), 0.0};
    else if (p[0] == "lognormal" && p.size() == 3)
      spec.durations = {DurationKind::kLognormal, v.Number(p[1]), v.Number(p[2])};
    else v.Fail();
  } else if (flag == "--ttft") {
    const auto p = v.Parts(value, 2, 3);
    if (p[0] == "fixed" && p.size() == 2) spec.ttft = DurationSpec{DurationKind::kFixed, v.Number(p[1]), 0.0};
    else if (p[0] == "exponential" && p.size() == 2)
      spec.ttft = DurationSpec{DurationKind::kExponential, v.Number(p[1]), 0.0};
    else if (p[0] == "lognormal" && p.size() == 3)
      spec.ttft = DurationSpec{DurationKind::kLognormal, v.Number(p[1]), v.Number(p[2])};
    else v.Fail();
  } else if (flag == "--completions-share") {
    spec.completions_share = v.Number(value);
  } else if (flag == "--tokens") {
    const TokenSpec* preset = FindTokenPreset(value);
    if (!preset) v.Fail();
    spec.tokens = *preset;
  } else if (flag == "--input-tokens" || flag == "--output-tokens") {
    const auto p = v.Parts(value, 2, 3);
    DurationSpec d;
    if (p[0] == "fixed" && p.size() == 2) d = {DurationKind::kFixed, v.Number(p[1]), 0.0};
    else if (p[0] == "exponential" && p.size() == 2) d = {DurationKind::kExponential, v.Number(p[1]), 0.0};
    else if (p[0] == "lognormal" && p.size() == 3) d = {DurationKind::kLognormal, v.Number(p[1]), v.Number(p[2])};
    else v.Fail();
    if (!spec.tokens) spec.tokens = *FindTokenPreset("chatbot");
    // The flag replaces the preset's distribution and its bounds: a flag
    // cannot set bounds, and the preset's (chatbot's [1, 8192]) would clamp
    // a fixed:10000 to 8192 without a word.
    (flag == "--input-tokens" ? spec.tokens->input : spec.tokens->output) = TokenDist{.dist = d};
  } else if (flag == "--prefixes") {
    const auto p = v.Parts(value, 2, 4);
    spec.prefixes.groups = v.Count(p[0]);
    spec.prefixes.blocks = v.Count(p[1]);
    if (p.size() > 2) spec.prefixes.share = v.Number(p[2]);
    if (p.size() > 3) spec.prefixes.zipf = v.Number(p[3]);
  } else if (flag == "--prefix-block-tokens") {
    spec.prefixes.block_tokens = v.Count(value);
  } else if (flag == "--down" || flag == "--up" || flag == "--remove") {
    const auto [id, rest] = v.IdAt();
    const InstanceEventKind kind = flag == "--down" ? InstanceEventKind::kDown
                                   : flag == "--up" ? InstanceEventKind::kUp
                                                    : InstanceEventKind::kRemove;
    spec.events.push_back(ScheduledEvent{v.Number(rest), kind, id});
  } else if (flag == "--flap") {
    const auto [id, rest] = v.IdAt();
    const auto p = v.Parts(rest, 3, 4);
    Flap f{id, v.Number(p[0]), v.Number(p[1]), v.Number(p[2]), std::nullopt};
    if (p.size() > 3) f.until = v.Number(p[3]);
    spec.flaps.push_back(f);
  } else if (flag == "--join") {
    const auto [id, rest] = v.IdAt();
    const auto p = v.Parts(rest, 1, 2);
    Join j{v.Number(p[0]), id, std::nullopt, std::nullopt, true};
    if (p.size() > 1) j.speed = v.Number(p[1]);
    spec.joins.push_back(j);
  } else if (flag == "--proxy") {
    spec.proxy = FindProxyProfile(value);
    if (!spec.proxy) v.Fail();
  } else if (flag == "--report-fields") {
    spec.reporting.inflight = spec.reporting.qps_1m = false;
    spec.reporting.fields_given = true;
    if (value != "none") {
      for (std::string_view field : Split(value, ',')) {
        if (field == "inflight") spec.reporting.inflight = true;
        else if (field == "qps_1m") spec.reporting.qps_1m = true;
        else v.Fail();
      }
    }
  } else if (flag == "--report-interval") spec.reporting.interval = v.Number(value);
  else if (flag == "--report-delay") spec.reporting.delay = v.Number(value);
  else if (flag == "--silent-fraction") spec.reporting.silent_fraction = v.Number(value);
  else if (flag == "--silent") spec.reporting.silent.emplace_back(value);
}

}  // namespace lbsim
