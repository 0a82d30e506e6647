#include "traces/gen/trace_generator.h"

#include <cmath>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "base/errors.h"
#include "traces/gen/arrival_stream.h"
#include "traces/gen/in_flight_bound.h"
#include "traces/gen/instance_schedule.h"
#include "traces/gen/load_reporter.h"
#include "traces/gen/random_source.h"
#include "traces/gen/reference_proxy.h"
#include "traces/gen/token_sampler.h"
#include "traces/gen/trace_line_writer.h"

namespace lbsim {
namespace {

// The ids that never report: the named ones, round(fraction x count) of the
// initial Instances chosen by the seed, and joins that do not report.
std::set<std::string> SilentIds(const GenSpec& spec, const std::vector<std::string>& ids) {
  std::set<std::string> silent(spec.reporting.silent.begin(), spec.reporting.silent.end());
  const auto chosen = static_cast<std::size_t>(
      std::floor(spec.reporting.silent_fraction * static_cast<double>(ids.size()) + 0.5));
  std::vector<std::size_t> order(ids.size());
  std::iota(order.begin(), order.end(), 0);
  RandomSource random(spec.seed, RandomStream::kSilent);
  for (std::size_t k = 0; k < chosen; ++k) {  // partial Fisher-Yates shuffle
    std::swap(order[k], order[k + random.Index(order.size() - k)]);
    silent.insert(ids[order[k]]);
  }
  for (const Join& j : spec.joins)
    if (!j.reports) silent.insert(j.instance);
  return silent;
}

}  // namespace

GenCounts GenerateTrace(const GenSpec& asked, std::FILE* out, TraceEncoding encoding) {
  GenSpec spec = asked;
  spec.reporting.inflight = ReportsInflight(asked);
  // A Proxy that counts its own requests holds a counter for every
  // Instance from the start: 0, nothing being in flight yet.
  const bool counted = (spec.proxy ? *spec.proxy : LatestProxyProfile()).counts_requests();
  const std::vector<std::string> ids = InitialInstanceIds(spec);
  const std::vector<InstanceChange> schedule = BuildInstanceSchedule(spec, "gen spec");
  LoadReporter reporter(spec, SilentIds(spec, ids));
  const bool reporting = std::isfinite(reporter.NextTime());
  const double qps_window = spec.reporting.qps_1m ? (spec.time_unit == "ms" ? 60000.0 : 60.0) : 0.0;
  ReferenceProxy proxy(ids, qps_window);

  TraceLineWriter writer(out, encoding);
  std::vector<GeneratedInstance> header;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    GeneratedInstance inst;
    inst.id = ids[i];
    if (!spec.weights.empty()) inst.weight = spec.weights[i];
    if (!spec.speeds.empty()) inst.speed = spec.speeds[i];
    if (counted) inst.inflight = 0;
    if (reporter.Reports(ids[i])) {
      if (spec.reporting.inflight) inst.inflight = 0;
      if (spec.reporting.qps_1m) inst.qps_1m = 0.0;
    }
    header.push_back(std::move(inst));
  }
  writer.Header(spec.name, spec.description, spec.time_unit, spec.seed, spec.proxy, header,
                spec.prefixes.groups > 0 ? std::optional(spec.prefixes.block_tokens)
                                         : std::nullopt);

  ArrivalStream arrivals(spec);
  DurationSampler durations(spec);
  std::optional<TokenSampler> tokens;
  if (spec.tokens) tokens.emplace(spec);
  std::optional<DurationSampler> ttfts;
  if (spec.ttft) ttfts.emplace(*spec.ttft, spec.seed, RandomStream::kTtft);
  RandomSource routes(spec.seed, RandomStream::kRoutes);
  std::vector<std::uint64_t> blocks;
  InFlightBound in_flight;
  std::size_t next_change = 0;
  for (; !arrivals.done(); arrivals.Pop()) {
    const double t = arrivals.time();
    for (;;) {
      const bool change_due = next_change < schedule.size() && schedule[next_change].at <= t;
      const double report_at = reporter.NextTime();
      if (change_due && schedule[next_change].at <= report_at) {
        const InstanceChange& c = schedule[next_change++];
        writer.Change(c);
        proxy.Apply(c);
      } else if (report_at <= t) {
        reporter.Step(proxy, writer);
      } else {
        break;
      }
    }
    const double d = durations.Next();
    if (!in_flight.Arrive(t, d))
      throw InputError(fmt::format(
          "gen: arrivals: more than the limit of {} requests in flight at once (arrived, "
          "their duration not over) at time {}, which a replay refuses; lower the rate or the "
          "durations",
          kMaxInFlight, t));
    TraceLineWriter::Response response;
    if (ttfts) response.ttft = std::min(ttfts->Next(), d);
    if (spec.completions_share > 0.0) response.completions = routes.Uniform() < spec.completions_share;
    if (tokens) {
      TraceLineWriter::Tokens counts;
      tokens->Next(counts.input, counts.output, blocks);
      writer.Arrival(t, d, blocks, counts, response);
    } else {
      writer.Arrival(t, d, {}, std::nullopt, response);
    }
    if (reporting) proxy.Arrive(t, d);
  }
  writer.Finish();
  return {writer.events(), writer.arrivals()};
}

}  // namespace lbsim
