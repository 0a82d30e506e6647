#include "traces/gen/gen_spec.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "traces/gen/instance_schedule.h"
#include "base/errors.h"
#include "base/json/json_limits.h"
#include "base/number_text.h"
#include "traces/trace_reader.h"

namespace lbsim {

std::vector<std::string> InitialInstanceIds(const GenSpec& spec) {
  const std::size_t width = fmt::format("{}", spec.instances).size();
  std::vector<std::string> ids;
  for (std::uint32_t i = 1; i <= spec.instances; ++i)
    ids.push_back(fmt::format("{}{:0{}}", spec.prefix, i, width));
  return ids;
}

const TokenSpec* FindTokenPreset(std::string_view name) {
  // Lognormal prompts and responses: a chat (ShareGPT-like: short prompts,
  // longer answers), summarisation (long prompts, short answers) and
  // long-context questions.
  static const TokenSpec kChatbot{{{DurationKind::kLognormal, 800, 1.0}, 1, 8192},
                                  {{DurationKind::kLognormal, 250, 0.8}, 1, 2048}};
  static const TokenSpec kSummarisation{{{DurationKind::kLognormal, 4000, 0.5}, 1, 32768},
                                        {{DurationKind::kLognormal, 200, 0.5}, 1, 1024}};
  static const TokenSpec kLongContext{{{DurationKind::kLognormal, 32000, 0.4}, 1, 131072},
                                      {{DurationKind::kLognormal, 400, 0.6}, 1, 4096}};
  if (name == "chatbot") return &kChatbot;
  if (name == "summarisation") return &kSummarisation;
  if (name == "long-context") return &kLongContext;
  return nullptr;
}

std::string TokenPresetNames() { return "chatbot, summarisation, long-context"; }

bool ReportsInflight(const GenSpec& spec) {
  const ProxyProfile& proxy = spec.proxy ? *spec.proxy : LatestProxyProfile();
  return spec.reporting.inflight && (spec.reporting.fields_given || !proxy.counts_requests());
}

void ValidateGenSpec(const GenSpec& spec, const std::string& origin) {
  auto fail = [&](std::string_view field, std::string_view expected, double got) {
    throw InputError(fmt::format("{}: field \"{}\": expected {}, got {}", origin, field,
                                 expected, NumberText(got)));
  };
  auto at_least = [&](std::string_view field, double x, double min) {
    if (!std::isfinite(x) || x < min) fail(field, fmt::format("a number >= {}", min), x);
  };
  auto above = [&](std::string_view field, double x, double min) {
    if (!std::isfinite(x) || !(x > min)) fail(field, fmt::format("a number > {}", min), x);
  };

  if (spec.time_unit != "s" && spec.time_unit != "ms")
    throw InputError(fmt::format("{}: field \"time_unit\": expected \"s\" or \"ms\", got \"{}\"",
                                 origin, spec.time_unit));
  if (spec.instances == 0) fail("instances.count", "an integer >= 1", 0);
  if (spec.instances > kMaxInstances)
    fail("instances.count",
         fmt::format("an integer from 1 to {} (the most Instances a trace may have)", kMaxInstances),
         spec.instances);
  if (spec.prefix.empty())
    throw InputError(fmt::format("{}: field \"instances.prefix\": expected a non-empty string",
                                 origin));
  for (const auto* list : {&spec.speeds, &spec.weights}) {
    const char* name = list == &spec.speeds ? "instances.speeds" : "instances.weights";
    if (!list->empty() && list->size() != spec.instances)
      fail(name, fmt::format("one value per Instance ({})", spec.instances),
           static_cast<double>(list->size()));
    for (double x : *list) above(name, x, 0.0);
  }

  at_least("arrivals.rate", spec.rate, 0.0);
  if (spec.until) above("arrivals.until", *spec.until, 0.0);
  if (spec.arrivals == 0 && !spec.until)
    throw InputError(fmt::format(
        "{}: field \"arrivals\": expected a \"count\" or an \"until\" (the trace must end)",
        origin));
  if (spec.on_off && spec.diurnal)
    throw InputError(fmt::format(
        "{}: field \"arrivals\": expected at most one of \"on_off\" and \"diurnal\"", origin));
  if (spec.on_off) {
    above("arrivals.on_off.on", spec.on_off->on, 0.0);
    above("arrivals.on_off.off", spec.on_off->off, 0.0);
    at_least("arrivals.on_off.off_rate", spec.on_off->off_rate, 0.0);
  }
  if (spec.diurnal) {
    above("arrivals.diurnal.period", spec.diurnal->period, 0.0);
    at_least("arrivals.diurnal.amplitude", spec.diurnal->amplitude, 0.0);
    if (spec.diurnal->amplitude > 1.0)
      fail("arrivals.diurnal.amplitude", "a number <= 1", spec.diurnal->amplitude);
    at_least("arrivals.diurnal.peak_at", spec.diurnal->peak_at, 0.0);
  }
  for (const Burst& b : spec.bursts) {
    at_least("arrivals.bursts.at", b.at, 0.0);
    above("arrivals.bursts.count", static_cast<double>(b.count), 0.0);
    at_least("arrivals.bursts.over", b.over, 0.0);
  }

  const DurationSpec& d = spec.durations;
  if (d.kind == DurationKind::kFixed) at_least("durations.value", d.value, 0.0);
  else above("durations.mean", d.value, 0.0);
  if (d.kind == DurationKind::kLognormal) at_least("durations.sigma", d.sigma, 0.0);
  if (spec.ttft) {
    const DurationSpec& f = *spec.ttft;
    if (f.kind == DurationKind::kFixed) at_least("ttft.value", f.value, 0.0);
    else above("ttft.mean", f.value, 0.0);
    if (f.kind == DurationKind::kLognormal) at_least("ttft.sigma", f.sigma, 0.0);
  }
  at_least("completions_share", spec.completions_share, 0.0);
  if (spec.completions_share > 1.0)
    fail("completions_share", "a number <= 1", spec.completions_share);

  if (spec.tokens) {
    for (const auto& [name, t] : {std::pair{"tokens.input", &spec.tokens->input},
                                  std::pair{"tokens.output", &spec.tokens->output}}) {
      const std::string field(name);
      if (t->dist.kind == DurationKind::kFixed) at_least(field + ".value", t->dist.value, 0.0);
      else above(field + ".mean", t->dist.value, 0.0);
      if (t->dist.kind == DurationKind::kLognormal) at_least(field + ".sigma", t->dist.sigma, 0.0);
      if (t->max < t->min)
        fail(field + ".max", fmt::format("an integer >= min ({})", t->min),
             static_cast<double>(t->max));
      if (t->max > (std::uint64_t{1} << 53))
        fail(field + ".max", "an integer <= 2^53", static_cast<double>(t->max));
      // A fixed count is every draw: outside [min, max] it would be clamped
      // on every arrival, so it is refused instead.
      const double fixed = std::round(t->dist.value);
      if (t->dist.kind == DurationKind::kFixed &&
          (fixed < static_cast<double>(t->min) || fixed > static_cast<double>(t->max)))
        fail(field + ".value",
             fmt::format("a count from {} to {} ({}'s min and max)", t->min, t->max, field),
             t->dist.value);
    }
  }
  const PrefixSpec& p = spec.prefixes;
  if (p.groups > 0) {
    if (!spec.tokens)
      throw InputError(fmt::format(
          "{}: field \"prefixes\": expected \"tokens\" too (a prompt's blocks follow its "
          "input tokens)",
          origin));
    above("prefixes.blocks", static_cast<double>(p.blocks), 0.0);
    above("prefixes.block_tokens", static_cast<double>(p.block_tokens), 0.0);
    if (p.block_tokens > (std::uint64_t{1} << 32))
      fail("prefixes.block_tokens", "an integer <= 2^32", static_cast<double>(p.block_tokens));
    at_least("prefixes.share", p.share, 0.0);
    if (p.share > 1.0) fail("prefixes.share", "a number <= 1", p.share);
    at_least("prefixes.zipf", p.zipf, 0.0);
    if (p.groups > 1'000'000) fail("prefixes.groups", "at most 1000000", static_cast<double>(p.groups));
    // An arrival's block ids, with its few other values, must fit what a
    // replay reads in one event.
    constexpr std::uint64_t kMaxArrivalBlocks = kMaxEventValues - 32;
    if (p.blocks > kMaxArrivalBlocks)
      fail("prefixes.blocks",
           fmt::format("at most {} (the block ids a replay reads in one arrival)",
                       kMaxArrivalBlocks),
           static_cast<double>(p.blocks));
    const std::uint64_t most_blocks = (spec.tokens->input.max - 1) / p.block_tokens + 1;
    if (most_blocks > kMaxArrivalBlocks)
      fail("tokens.input.max",
           fmt::format("at most {} x prefixes.block_tokens ({}) tokens (a prompt has a block id "
                       "per block_tokens, and a replay reads at most {} in one arrival)",
                       kMaxArrivalBlocks, p.block_tokens, kMaxArrivalBlocks),
           static_cast<double>(spec.tokens->input.max));
  }

  for (const ScheduledEvent& e : spec.events) at_least("events.at", e.at, 0.0);
  for (const Flap& f : spec.flaps) {
    at_least("flapping.start", f.start, 0.0);
    above("flapping.period", f.period, 0.0);
    above("flapping.down_for", f.down_for, 0.0);
    if (!(f.down_for < f.period)) fail("flapping.down_for", "a number < period", f.down_for);
    if (!f.until && !spec.until)
      throw InputError(fmt::format(
          "{}: field \"flapping.until\": expected a number (required when arrivals have no "
          "\"until\")",
          origin));
    if (f.until) above("flapping.until", *f.until, f.start);
  }
  for (const Join& j : spec.joins) {
    at_least("joins.at", j.at, 0.0);
    if (j.speed) above("joins.speed", *j.speed, 0.0);
    if (j.weight) above("joins.weight", *j.weight, 0.0);
  }

  const ReportingSpec& r = spec.reporting;
  at_least("reporting.interval", r.interval, 0.0);
  at_least("reporting.delay", r.delay, 0.0);
  at_least("reporting.silent_fraction", r.silent_fraction, 0.0);
  if (r.silent_fraction > 1.0)
    fail("reporting.silent_fraction", "a number <= 1", r.silent_fraction);
  const std::vector<std::string> ids = InitialInstanceIds(spec);
  for (const std::string& id : r.silent)
    if (std::find(ids.begin(), ids.end(), id) == ids.end())
      throw InputError(fmt::format(
          "{}: field \"reporting.silent\": expected initial Instance ids, got \"{}\"", origin,
          id));

  // What a replay refuses: an id longer than kMaxIdBytes, more than
  // kMaxInstances distinct ids.
  std::set<std::string_view> distinct(ids.begin(), ids.end());
  auto id_fits = [&](std::string_view field, const std::string& id) {
    if (id.empty() || id.size() > kMaxIdBytes)
      throw InputError(fmt::format(
          "{}: field \"{}\": expected an Instance id of 1 to {} bytes (the limit), got one of {}",
          origin, field, kMaxIdBytes, id.size()));
  };
  id_fits("instances.prefix", ids.back());
  for (const Join& j : spec.joins) {
    id_fits("joins.instance", j.instance);
    distinct.insert(j.instance);
  }
  for (const ScheduledEvent& e : spec.events) id_fits("events.instance", e.instance);
  for (const Flap& f : spec.flaps) id_fits("flapping.instance", f.instance);
  if (distinct.size() > kMaxInstances)
    throw InputError(fmt::format(
        "{}: field \"joins\": expected at most {} distinct Instances with the initial ones "
        "(the most a trace may have), got {}",
        origin, kMaxInstances, distinct.size()));

  BuildInstanceSchedule(spec, origin);  // checks every Instance reference
}

}  // namespace lbsim
