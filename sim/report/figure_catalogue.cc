#include "sim/report/figure_catalogue.h"

#include <array>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "base/number_text.h"
#include "base/split_text.h"
#include "sim/report/report.h"

namespace lbsim {
namespace {

using F = DiffFamily;
constexpr Worse kUp = Worse::kHigher;
constexpr Worse kDown = Worse::kLower;
constexpr Worse kNone = Worse::kNeither;
constexpr std::optional<DiffFamily> kNotCompared = std::nullopt;

// A whole-run figure shown even unchanged.
constexpr bool kHeadline = true;
// Counted in the strategy's own words (compared only between runs of one
// strategy).
constexpr bool kWords = true;
// Null when nothing was found, which counts as 0.
constexpr bool kNullIsZero = true;

// The report's figures (docs/reports.md), most specific first: a figure takes
// the first entry that matches.
constexpr std::array kCatalogue = {
    // Names, parameters, positions and the seeds' spread: not figures.
    CatalogueEntry{"strategy.**", kNotCompared},
    CatalogueEntry{"requested_as.**", kNotCompared},
    CatalogueEntry{"label.**", kNotCompared},
    CatalogueEntry{"status.**", kNotCompared},
    CatalogueEntry{"params.**", kNotCompared},
    CatalogueEntry{"replays_proxy.**", kNotCompared},
    CatalogueEntry{"warnings.**", kNotCompared},
    CatalogueEntry{"expected_share.**", kNotCompared},
    CatalogueEntry{"spread.**", kNotCompared},
    CatalogueEntry{"**.first_seq", kNotCompared},
    CatalogueEntry{"**.start", kNotCompared},
    CatalogueEntry{"**.end", kNotCompared},
    CatalogueEntry{"**.capacity_blocks", kNotCompared},
    CatalogueEntry{"**.fired", kNotCompared},

    // Where the decisions went.
    CatalogueEntry{"decisions", F::kCount},
    CatalogueEntry{"no_instances", F::kCount, kUp},
    CatalogueEntry{"refused", F::kCount},
    CatalogueEntry{"never_completed", F::kCount},
    CatalogueEntry{"proxy_choices.share", F::kShare, kDown, kHeadline},
    CatalogueEntry{"proxy_choices.first_difference.**", kNotCompared},
    CatalogueEntry{"proxy_choices.self_check", kNotCompared},
    CatalogueEntry{"proxy_choices.**", F::kCount},
    CatalogueEntry{"selections.*", F::kCount},
    CatalogueEntry{"candidate_decisions.*", F::kCount},
    CatalogueEntry{"share.**", F::kShare, kNone, kHeadline},
    CatalogueEntry{"reasons.**", F::kReason, kNone, kHeadline, kWords},
    CatalogueEntry{"fallback.**", F::kCount, kNone, false, kWords},
    CatalogueEntry{"tie.**", F::kCount, kNone, false, kWords},
    CatalogueEntry{"unknown_excluded", F::kCount, kNone, false, kWords},
    CatalogueEntry{"unknown_load.**", F::kCount},
    CatalogueEntry{"fairness.jain", F::kFairness, kDown, kHeadline},
    CatalogueEntry{"fairness.jain_eligible", F::kFairness, kDown, kHeadline},
    CatalogueEntry{"fairness.**", F::kFairness, kUp, kHeadline},
    CatalogueEntry{"herded_decisions.**", F::kHerding, kUp, kHeadline},
    CatalogueEntry{"longest_run.length", F::kRun, kUp, kHeadline},
    CatalogueEntry{"longest_run.**", kNotCompared},
    CatalogueEntry{"prefix_cache.hit_rate", F::kRate, kDown},
    CatalogueEntry{"prefix_cache.**", F::kBlocks},

    // Detectors.
    CatalogueEntry{"detectors.**.run_decisions", F::kHerding, kUp, kHeadline},
    CatalogueEntry{"detectors.**.alternation_decisions", F::kHerding, kUp, kHeadline},
    CatalogueEntry{"detectors.**.length", F::kRun, kUp, false, false, kNullIsZero},
    CatalogueEntry{"detectors.**.offered_utilisation", F::kUtilisation},
    CatalogueEntry{"detectors.**.share", F::kShare},
    CatalogueEntry{"detectors.**.expected_share", F::kShare},
    CatalogueEntry{"detectors.**.highest_rate", F::kRate, kUp},
    CatalogueEntry{"detectors.**", F::kDetector},

    // What-if parts: the engine model, the service model, windows.
    CatalogueEntry{"what_if.span.**", kNotCompared},
    CatalogueEntry{"what_if.engine.slo.bounds.**", kNotCompared},
    CatalogueEntry{"what_if.engine.slo.requests", F::kCount},
    CatalogueEntry{"what_if.engine.slo.met.all", F::kRate, kDown, kHeadline},
    CatalogueEntry{"what_if.engine.slo.met.**", F::kRate, kDown},
    CatalogueEntry{"what_if.engine.slo.goodput.**", F::kEngine, kDown, kHeadline},
    CatalogueEntry{"what_if.engine.ttft.p50", F::kEngine, kUp, kHeadline},
    CatalogueEntry{"what_if.engine.ttft.p99", F::kEngine, kUp, kHeadline},
    CatalogueEntry{"what_if.engine.e2e.p50", F::kEngine, kUp, kHeadline},
    CatalogueEntry{"what_if.engine.e2e.p99", F::kEngine, kUp, kHeadline},
    CatalogueEntry{"what_if.engine.tpot.p50", F::kEngine, kUp, kHeadline},
    CatalogueEntry{"what_if.engine.queue_delay.mean", F::kEngine, kUp, kHeadline},
    CatalogueEntry{"what_if.engine.kv_utilisation.mean", F::kEngine, kNone, kHeadline},
    CatalogueEntry{"what_if.engine.batch.mean", F::kEngine, kNone, kHeadline},
    CatalogueEntry{"what_if.engine.throughput.output_tokens_per_s", F::kEngine, kDown, kHeadline},
    CatalogueEntry{"what_if.engine.preemptions", F::kEngine, kUp, kHeadline},
    CatalogueEntry{"what_if.**.engine.throughput.**", F::kEngine, kDown},
    CatalogueEntry{"what_if.**.engine.ttft.**", F::kEngine, kUp},
    CatalogueEntry{"what_if.**.engine.ttft_mean.**", F::kEngine, kUp},
    CatalogueEntry{"what_if.**.engine.tpot.**", F::kEngine, kUp},
    CatalogueEntry{"what_if.**.engine.itl.**", F::kEngine, kUp},
    CatalogueEntry{"what_if.**.engine.e2e.**", F::kEngine, kUp},
    CatalogueEntry{"what_if.**.engine.queue_delay.**", F::kEngine, kUp},
    CatalogueEntry{"what_if.**.engine.preemptions", F::kEngine, kUp},
    CatalogueEntry{"what_if.**.engine.preempted_requests", F::kEngine, kUp},
    CatalogueEntry{"what_if.**.engine.**", F::kEngine},
    CatalogueEntry{"what_if.service", F::kCount},
    CatalogueEntry{"what_if.service.latency.**", F::kLatency, kUp, kHeadline},
    CatalogueEntry{"what_if.service.wait.**", F::kWait, kUp, kHeadline},
    CatalogueEntry{"what_if.service.mean_queue_wait", F::kWait, kUp, kHeadline},
    CatalogueEntry{"what_if.service.utilisation", F::kUtilisation, kNone, kHeadline},
    CatalogueEntry{"what_if.service.offered_utilisation", F::kUtilisation, kNone, kHeadline},
    CatalogueEntry{"what_if.service.**", F::kCount, kNone, kHeadline},
    CatalogueEntry{"what_if.**.latency.**", F::kLatency, kUp},
    CatalogueEntry{"what_if.**.wait.**", F::kWait, kUp},
    CatalogueEntry{"what_if.**.mean_queue_wait", F::kWait, kUp},
    CatalogueEntry{"what_if.**.utilisation", F::kUtilisation},
    CatalogueEntry{"what_if.**.offered_utilisation", F::kUtilisation},
    CatalogueEntry{"what_if.**.inflight_mean", F::kInflight, kUp},
    CatalogueEntry{"what_if.**.inflight_peak", F::kInflight, kUp},
    CatalogueEntry{"what_if.**.mean_inflight.**", F::kInflight, kUp},
    CatalogueEntry{"what_if.**.share.**", F::kShare},
    CatalogueEntry{"what_if.**.fallback_rate", F::kRate, kUp},
    CatalogueEntry{"what_if.**", F::kCount},

    // The Proxy queue model (--proxy-queue): times from arrival.
    CatalogueEntry{"proxy_queue.requests", F::kCount},
    CatalogueEntry{"proxy_queue.forwarded", F::kCount},
    CatalogueEntry{"proxy_queue.stuck", F::kCount, kUp, kHeadline},
    CatalogueEntry{"proxy_queue.*.count", F::kCount},
    CatalogueEntry{"proxy_queue.queue_wait.mean", F::kWait, kUp, kHeadline},
    CatalogueEntry{"proxy_queue.queue_wait.*", F::kWait, kUp},
    CatalogueEntry{"proxy_queue.client_ttft.p50", F::kLatency, kUp, kHeadline},
    CatalogueEntry{"proxy_queue.client_ttft.p99", F::kLatency, kUp, kHeadline},
    CatalogueEntry{"proxy_queue.client_ttft.*", F::kLatency, kUp},
    CatalogueEntry{"proxy_queue.end_to_end.p99", F::kLatency, kUp, kHeadline},
    CatalogueEntry{"proxy_queue.end_to_end.*", F::kLatency, kUp},
};

// Whether `path` matches `pattern` (segments; "*" one, "**" any number).
bool Matches(std::span<const std::string_view> pattern, std::span<const std::string> path) {
  if (pattern.empty()) return path.empty();
  if (pattern.front() == "**") {
    for (std::size_t skip = 0; skip <= path.size(); ++skip)
      if (Matches(pattern.subspan(1), path.subspan(skip))) return true;
    return false;
  }
  if (path.empty()) return false;
  if (pattern.front() != "*" && pattern.front() != path.front()) return false;
  return Matches(pattern.subspan(1), path.subspan(1));
}

// Each catalogue entry's path, split once.
const std::vector<std::vector<std::string_view>>& Patterns() {
  static const std::vector<std::vector<std::string_view>> patterns = [] {
    std::vector<std::vector<std::string_view>> out;
    for (const CatalogueEntry& entry : kCatalogue) out.push_back(SplitAt(entry.path, '.'));
    return out;
  }();
  return patterns;
}

// Per Instance or window (what-if parts), or about an Instance (the
// concentration and overload detectors).
bool Detail(std::span<const std::string> path) {
  if (path.size() < 2) return false;
  if (path[0] == "what_if") return path[1] == "instances" || path[1] == "windows";
  if (path[0] == "detectors") return path[1] == "concentration" || path[1] == "overload";
  return false;
}

std::optional<double> Whole(std::uint64_t n) { return static_cast<double>(n); }

// A statistic of a distribution of `figures`: none when it holds nothing.
template <class Figures, DistributionSummary Figures::*Of, double DistributionSummary::*Field>
std::optional<double> Stat(const Figures& figures) {
  const DistributionSummary& d = figures.*Of;
  if (d.count == 0) return std::nullopt;
  return d.*Field;
}

using R = StrategyReport;

// A fairness figure of a run.
template <std::optional<double> Fairness::*Field>
std::optional<double> Fair(const R& r) {
  return r.fairness.*Field;
}

// A prefix cache figure: none when the trace's arrivals carried no
// prefix_blocks.
template <class T, T PrefixCacheReport::*Field>
std::optional<double> Prefix(const R& r) {
  if (!r.prefix_cache) return std::nullopt;
  return static_cast<double>((*r.prefix_cache).*Field);
}

constexpr std::array kRunColumns = {
    // kRunColumnsBeforeReasons: the sweep's reason counts follow these.
    RunColumn{.column = "decisions", .path = "decisions", .spread = "decisions",
              .in_report = false, .whole = true,
              .value = [](const R& r) { return Whole(r.decisions); }},
    RunColumn{.column = "no_instances", .path = "no_instances",
              .title = "arrivals that found no Instance", .decimals = 0, .in_report = false,
              .whole = true, .value = [](const R& r) { return Whole(r.no_instances); }},
    RunColumn{.column = "unknown_excluded", .path = "unknown_excluded", .in_report = false,
              .whole = true, .value = [](const R& r) { return Whole(r.unknown_excluded); }},
    RunColumn{.column = "jain", .path = "fairness.jain",
              .title = "Jain's fairness index of the selections", .spread = "jain", .decimals = 4,
              .in_report = false, .value = Fair<&Fairness::jain>},
    RunColumn{.column = "jain_eligible", .path = "fairness.jain_eligible",
              .title = "Jain's index of selections per candidate decision", .decimals = 4,
              .in_report = false, .value = Fair<&Fairness::jain_eligible>},
    RunColumn{.column = "cv", .path = "fairness.cv",
              .title = "coefficient of variation of the selections", .decimals = 4,
              .in_report = false, .value = Fair<&Fairness::cv>},
    RunColumn{.column = "max_min_ratio", .path = "fairness.max_min_ratio",
              .title = "most / fewest selections", .decimals = 4, .in_report = false,
              .value = Fair<&Fairness::max_min_ratio>},
    RunColumn{.column = "max_mean_ratio", .path = "fairness.max_mean_ratio",
              .title = "most / mean selections", .decimals = 4, .in_report = false,
              .value = Fair<&Fairness::max_mean_ratio>},
    RunColumn{.column = "gini", .path = "fairness.gini",
              .title = "Gini coefficient of the selections", .spread = "gini", .decimals = 4,
              .in_report = false, .value = Fair<&Fairness::gini>},
    RunColumn{.column = "herded_decisions", .path = "herded_decisions",
              .title = "decisions in herding runs", .spread = "herded decisions", .decimals = 0,
              .in_report = false, .whole = true,
              .value = [](const R& r) { return Whole(r.herded_decisions); }},
    RunColumn{.column = "alternating_decisions",
              .path = "detectors.herding.alternation_decisions",
              .spread = "alternating decisions", .in_report = false, .whole = true,
              .value = [](const R& r) { return Whole(r.detectors.alternation_decisions); }},
    RunColumn{.column = "longest_run", .path = "longest_run.length",
              .title = "longest run of one Instance", .spread = "longest run", .decimals = 0,
              .in_report = false, .whole = true,
              .value = [](const R& r) { return Whole(r.longest_run); }},
    RunColumn{.column = "prefix_requested_blocks", .path = "prefix_cache.requested_blocks",
              .in_report = false, .whole = true,
              .value = Prefix<std::uint64_t, &PrefixCacheReport::requested_blocks>},
    RunColumn{.column = "prefix_matched_blocks", .path = "prefix_cache.matched_blocks",
              .in_report = false, .whole = true,
              .value = Prefix<std::uint64_t, &PrefixCacheReport::matched_blocks>},
    RunColumn{.column = "prefix_hit_rate", .path = "prefix_cache.hit_rate",
              .title = "prefix cache hit rate", .decimals = 4, .in_report = false,
              .value = Prefix<double, &PrefixCacheReport::hit_rate>},
};

using Q = ProxyQueueFigures;
using D = DistributionSummary;
constexpr std::array kQueueColumns = {
    QueueColumn{.column = "queue_forwarded", .path = "proxy_queue.forwarded",
                .title = "requests forwarded", .spread = "forwarded", .decimals = 0,
                .value = [](const Q& q) { return Whole(q.forwarded); }},
    QueueColumn{.column = "queue_stuck", .path = "proxy_queue.stuck",
                .title = "requests stuck in the Proxy queue", .spread = "stuck", .decimals = 0,
                .value = [](const Q& q) { return Whole(q.stuck); }},
    QueueColumn{.column = "queue_wait_mean", .path = "proxy_queue.queue_wait.mean",
                .title = "mean wait in the Proxy queue", .spread = "queue wait mean",
                .value = Stat<Q, &Q::wait, &D::mean>},
    QueueColumn{.column = "queue_wait_p50", .path = "proxy_queue.queue_wait.p50",
                .title = "median wait in the Proxy queue", .spread = "queue wait p50",
                .value = Stat<Q, &Q::wait, &D::p50>},
    QueueColumn{.column = "queue_wait_p99", .path = "proxy_queue.queue_wait.p99",
                .title = "p99 wait in the Proxy queue", .spread = "queue wait p99",
                .value = Stat<Q, &Q::wait, &D::p99>},
    QueueColumn{.column = "client_ttft_p50", .path = "proxy_queue.client_ttft.p50",
                .title = "median client TTFT", .spread = "client ttft p50",
                .value = Stat<Q, &Q::client_ttft, &D::p50>},
    QueueColumn{.column = "client_ttft_p99", .path = "proxy_queue.client_ttft.p99",
                .title = "p99 client TTFT", .spread = "client ttft p99",
                .value = Stat<Q, &Q::client_ttft, &D::p99>},
    QueueColumn{.column = "end_to_end_p50", .path = "proxy_queue.end_to_end.p50",
                .title = "median end to end", .spread = "end to end p50",
                .value = Stat<Q, &Q::end_to_end, &D::p50>},
    QueueColumn{.column = "end_to_end_p99", .path = "proxy_queue.end_to_end.p99",
                .title = "p99 end to end", .spread = "end to end p99",
                .value = Stat<Q, &Q::end_to_end, &D::p99>},
};

using E = EngineFigures;

// An SLO figure: none without --slo (and on an Instance's row).
template <std::optional<double> SloFigures::*Field>
std::optional<double> Slo(const E& e) {
  if (!e.slo) return std::nullopt;
  return (*e.slo).*Field;
}

constexpr std::array kEngineColumns = {
    EngineColumn{.column = "engine_served", .path = "what_if.engine.served", .spread = "served",
                 .whole = true,
                 .value = [](const E& e) { return Whole(e.counters.served); }},
    EngineColumn{.column = "engine_rejected", .path = "what_if.engine.rejected",
                 .in_sweep = false, .whole = true,
                 .value = [](const E& e) { return Whole(e.counters.rejected); }},
    EngineColumn{.column = "ttft_p50", .path = "what_if.engine.ttft.p50", .spread = "ttft p50",
                 .decimals = 4, .value = Stat<E, &E::ttft, &D::p50>},
    EngineColumn{.column = "ttft_p99", .path = "what_if.engine.ttft.p99", .spread = "ttft p99",
                 .decimals = 4, .value = Stat<E, &E::ttft, &D::p99>},
    EngineColumn{.column = "tpot_p50", .path = "what_if.engine.tpot.p50", .spread = "tpot p50",
                 .decimals = 4, .value = Stat<E, &E::tpot, &D::p50>},
    EngineColumn{.column = "tpot_p99", .path = "what_if.engine.tpot.p99", .spread = "tpot p99",
                 .decimals = 4, .value = Stat<E, &E::tpot, &D::p99>},
    EngineColumn{.column = "itl_p99", .path = "what_if.engine.itl.p99", .in_sweep = false,
                 .value = Stat<E, &E::itl, &D::p99>},
    EngineColumn{.column = "e2e_p50", .path = "what_if.engine.e2e.p50", .spread = "e2e p50",
                 .decimals = 4, .value = Stat<E, &E::e2e, &D::p50>},
    EngineColumn{.column = "e2e_p99", .path = "what_if.engine.e2e.p99", .spread = "e2e p99",
                 .decimals = 4, .value = Stat<E, &E::e2e, &D::p99>},
    EngineColumn{.column = "queue_delay_mean", .path = "what_if.engine.queue_delay.mean",
                 .spread = "queue delay mean", .decimals = 4,
                 .value = Stat<E, &E::queue_delay, &D::mean>},
    EngineColumn{.column = "prefix_hit_tokens", .path = "what_if.engine.tokens.prefix_hit",
                 .in_sweep = false, .whole = true,
                 .value = [](const E& e) { return Whole(e.counters.prefix_hit_tokens); }},
    EngineColumn{.column = "prefix_hit_token_rate", .path = "what_if.engine.prefix_hit_rate",
                 .in_report = false, .value = [](const E& e) { return e.prefix_hit_rate; }},
    EngineColumn{.column = "preemptions", .path = "what_if.engine.preemptions",
                 .spread = "preemptions", .whole = true,
                 .value = [](const E& e) { return Whole(e.counters.preemptions); }},
    EngineColumn{.column = "output_tokens_per_s",
                 .path = "what_if.engine.throughput.output_tokens_per_s",
                 .spread = "output tokens/s", .decimals = 1,
                 .value = [](const E& e) { return e.output_tokens_per_s; }},
    EngineColumn{.column = "kv_utilisation_mean", .path = "what_if.engine.kv_utilisation.mean",
                 .spread = "kv utilisation mean", .decimals = 4,
                 .value = [](const E& e) { return e.kv_utilisation_mean; }},
    EngineColumn{.column = "batch_mean", .path = "what_if.engine.batch.mean",
                 .spread = "batch size mean", .decimals = 2,
                 .value = [](const E& e) { return e.batch_mean; }},
    // The SLO figures (--slo): a strategy run's only.
    EngineColumn{.column = "slo_ttft", .path = "what_if.engine.slo.met.ttft",
                 .spread = "slo ttft met", .decimals = 4, .value = Slo<&SloFigures::ttft>},
    EngineColumn{.column = "slo_tpot", .path = "what_if.engine.slo.met.tpot",
                 .spread = "slo tpot met", .decimals = 4, .value = Slo<&SloFigures::tpot>},
    EngineColumn{.column = "slo_e2e", .path = "what_if.engine.slo.met.e2e",
                 .spread = "slo e2e met", .decimals = 4, .value = Slo<&SloFigures::e2e>},
    EngineColumn{.column = "slo_all", .path = "what_if.engine.slo.met.all",
                 .spread = "slo all met", .decimals = 4, .value = Slo<&SloFigures::all>},
    EngineColumn{.column = "goodput_requests_per_s",
                 .path = "what_if.engine.slo.goodput.requests_per_s", .spread = "goodput req/s",
                 .decimals = 2, .value = Slo<&SloFigures::requests_per_s>},
    EngineColumn{.column = "goodput_tokens_per_s",
                 .path = "what_if.engine.slo.goodput.output_tokens_per_s",
                 .spread = "goodput tokens/s", .decimals = 1,
                 .value = Slo<&SloFigures::output_tokens_per_s>},
};

// A latency or wait statistic: none when nothing was served.
template <double LatencySummary::*Field>
std::optional<double> Served(const ServiceFigures& f) {
  if (f.latency.served == 0) return std::nullopt;
  return f.latency.*Field;
}

using S = ServiceFigures;
using L = LatencySummary;
constexpr std::array kServiceColumns = {
    ServiceColumn{.column = "served", .path = "what_if.service.served", .whole = true,
                  .value = [](const S& f) { return Whole(f.latency.served); }},
    ServiceColumn{.column = "latency_p50", .path = "what_if.service.latency.p50",
                  .title = "median latency", .spread = "latency p50", .value = Served<&L::p50>},
    ServiceColumn{.column = "latency_p90", .path = "what_if.service.latency.p90",
                  .title = "p90 latency", .spread = "latency p90", .value = Served<&L::p90>},
    ServiceColumn{.column = "latency_p99", .path = "what_if.service.latency.p99",
                  .title = "p99 latency", .spread = "latency p99", .value = Served<&L::p99>},
    ServiceColumn{.column = "latency_max", .path = "what_if.service.latency.max",
                  .title = "longest latency", .spread = "latency max", .value = Served<&L::max>},
    ServiceColumn{.column = "latency_mean", .path = "what_if.service.latency.mean",
                  .in_report = false, .value = Served<&L::mean>},
    ServiceColumn{.column = "wait_p50", .path = "what_if.service.wait.p50", .in_report = false,
                  .value = Served<&L::wait_p50>},
    ServiceColumn{.column = "wait_p90", .path = "what_if.service.wait.p90", .in_report = false,
                  .value = Served<&L::wait_p90>},
    ServiceColumn{.column = "wait_p99", .path = "what_if.service.wait.p99",
                  .spread = "queue wait p99", .in_report = false,
                  .value = Served<&L::wait_p99>},
    ServiceColumn{.column = "wait_max", .path = "what_if.service.wait.max", .in_report = false,
                  .value = Served<&L::wait_max>},
    ServiceColumn{.column = "mean_queue_wait", .path = "what_if.service.mean_queue_wait",
                  .title = "mean queue wait", .spread = "mean queue wait",
                  .value = Served<&L::mean_wait>},
    ServiceColumn{.column = "utilisation", .path = "what_if.service.utilisation",
                  .spread = "utilisation", .decimals = 4,
                  .value = [](const S& f) { return f.utilisation; }},
    ServiceColumn{.column = "offered_utilisation", .path = "what_if.service.offered_utilisation",
                  .spread = "offered utilisation", .decimals = 4,
                  .in_report = false, .value = [](const S& f) { return f.offered_utilisation; }},
};

}  // namespace

std::span<const RunColumn> RunColumns() { return kRunColumns; }

std::span<const QueueColumn> QueueColumns() { return kQueueColumns; }

std::span<const ServiceColumn> ServiceColumns() { return kServiceColumns; }

std::span<const EngineColumn> EngineColumns() { return kEngineColumns; }

std::string CellText(const std::optional<double>& value, bool whole) {
  if (!value) return "";
  if (whole) return fmt::format("{}", static_cast<std::uint64_t>(*value));
  return FigureText(*value);
}

std::optional<FigureKind> FindFigure(std::string_view dotted) {
  const std::vector<std::string_view> parts = SplitAt(dotted, '.');
  return FindFigure(std::vector<std::string>(parts.begin(), parts.end()));
}

std::optional<FigureKind> FindFigure(std::span<const std::string> path) {
  if (path.empty()) return std::nullopt;
  const std::vector<std::vector<std::string_view>>& patterns = Patterns();
  for (std::size_t k = 0; k < kCatalogue.size(); ++k) {
    const CatalogueEntry& entry = kCatalogue[k];
    if (!Matches(patterns[k], path)) continue;
    FigureKind kind;
    kind.family = entry.family;
    kind.worse = entry.worse;
    kind.detail = Detail(path);
    kind.headline = entry.headline && !kind.detail;
    kind.strategy_words = entry.strategy_words;
    kind.null_is_zero = entry.null_is_zero;
    return kind;
  }
  return std::nullopt;
}

}  // namespace lbsim
