// The table report's content: one column per strategy, one row per figure.

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/io/printable.h"
#include "sim/report/report_rows.h"

namespace lbsim {
namespace {

std::string Fixed(const std::optional<double>& v) {
  return v ? fmt::format("{:.4f}", *v) : std::string("n/a");
}

// "2 s", "0.5 ms": a duration in the trace's unit.
std::string Span(double x, const std::string& unit) { return fmt::format("{} {}", x, unit); }

// One line naming the what-if options in force.
std::string SimulationLine(const SimOptions& o, const std::string& unit, bool signals_read) {
  std::vector<std::string> parts;
  if (o.service())
    parts.push_back(fmt::format("service model, {} slot{} per Instance", o.slots,
                                o.slots == 1 ? "" : "s"));
  if (o.stale()) {
    std::string stale = fmt::format("stale metrics every {}, published {} later",
                                    Span(o.stale_interval, unit), Span(o.stale_delay, unit));
    if (o.stale_jitter > 0.0)
      stale += fmt::format(" + up to {} jitter (seed {})", Span(o.stale_jitter, unit), o.seed);
    parts.push_back(stale);
  }
  if (o.engine_model()) {
    // The configuration's name comes from its file: shown Printable.
    std::string engine = fmt::format("engine {}", Printable(o.engine.config->name));
    if (o.signals()) {
      engine += fmt::format(", signals every {}, published {} later",
                            Span(o.engine.signal_interval, unit), Span(o.engine.signal_delay, unit));
      if (o.engine.signal_jitter > 0.0)
        engine += fmt::format(" + up to {} jitter (seed {})", Span(o.engine.signal_jitter, unit),
                              o.seed);
      // Only least_load's weighted score reads them (the Proxy's L2 and L3).
      if (!signals_read)
        engine += " that no strategy here reads (least_load of a weighted Proxy version does)";
    }
    parts.push_back(engine);
  }
  if (o.windows()) parts.push_back(fmt::format("windows of {}", Span(o.window, unit)));
  std::string line;
  for (const std::string& p : parts) line += (line.empty() ? "" : "; ") + p;
  return line;
}

// Past this, whole units would print as hundreds of digits (an engine
// whose steps take 1e300 us): exponents are shown instead.
constexpr double kWholeUnitsUpTo = 1e15;

// An engine latency to four significant digits (whole units from 10000 on,
// so milliseconds do not turn into exponents, up to kWholeUnitsUpTo).
std::string Latency(double x) {
  return x < 10000 || x >= kWholeUnitsUpTo ? fmt::format("{:.4g}", x) : fmt::format("{:.0f}", x);
}

// Seconds per unit of a trace's times: the table shows every figure
// section in seconds, whatever the trace's unit (its header lines name
// their unit).
double SecondsPer(const std::string& unit) { return unit == "ms" ? 1e-3 : 1.0; }

// "p50 / p99" of a distribution in the trace's unit, in seconds (`scale`
// SecondsPer); "-" when empty.
std::string Quantiles(const DistributionSummary& d, double scale) {
  return d.count ? Latency(d.p50 * scale) + " / " + Latency(d.p99 * scale) : std::string("-");
}

// Rows of the SLO figures (--slo): the share within each bound given and
// within all, and the goodput. Every run has the same bounds.
template <typename Row>
void SloRows(const Report& report, Row row) {
  auto slo = [](const StrategyReport& s) -> const SloFigures& { return *s.what_if->engine->slo; };
  // `x` with `digits` after the point (a percentage with "%"), "-" when none.
  auto text = [](const std::optional<double>& x, int digits, bool percent) {
    if (!x) return std::string("-");
    return percent ? fmt::format("{:.{}f}%", 100.0 * *x, digits) : fmt::format("{:.{}f}", *x, digits);
  };
  const struct {
    const char* name;
    std::optional<double> SloLimits::*limit;
    std::optional<double> SloFigures::*share;
  } bounds[] = {{"ttft", &SloLimits::ttft, &SloFigures::ttft},
                {"tpot", &SloLimits::tpot, &SloFigures::tpot},
                {"e2e", &SloLimits::e2e, &SloFigures::e2e}};
  const SloLimits& limits = slo(report.strategies[0]).limits;
  const double scale = SecondsPer(report.time_unit);
  for (const auto& b : bounds) {
    if (!(limits.*b.limit)) continue;
    row(fmt::format("  slo {} <= {}", b.name, Latency(*(limits.*b.limit) * scale)),
        [&](const StrategyReport& s) { return text(slo(s).*b.share, 1, true); });
  }
  row("  slo all met", [&](const StrategyReport& s) { return text(slo(s).all, 1, true); });
  row("  goodput req/s",
      [&](const StrategyReport& s) { return text(slo(s).requests_per_s, 2, false); });
  row("  goodput tokens/s",
      [&](const StrategyReport& s) { return text(slo(s).output_tokens_per_s, 1, false); });
}

// Rows of the engine model's figures, strategies side by side.
template <typename Row>
void EngineRows(ReportRows& t, const Report& report, Row row) {
  auto engine = [](const StrategyReport& s) -> const EngineFigures& { return *s.what_if->engine; };
  const double scale = SecondsPer(report.time_unit);
  auto quantiles = [scale](const DistributionSummary& d) { return Quantiles(d, scale); };
  t.Blank();
  t.Section("engine (s; p50 / p99)");
  row("  served", [&](const StrategyReport& s) {
    const EngineCounters& c = engine(s).counters;
    return c.rejected ? fmt::format("{} ({} rejected)", c.served, c.rejected)
                      : fmt::format("{}", c.served);
  });
  row("  queue delay", [&](const StrategyReport& s) { return quantiles(engine(s).queue_delay); });
  row("  ttft", [&](const StrategyReport& s) { return quantiles(engine(s).ttft); });
  row("  tpot", [&](const StrategyReport& s) { return quantiles(engine(s).tpot); });
  row("  itl", [&](const StrategyReport& s) { return quantiles(engine(s).itl); });
  row("  e2e", [&](const StrategyReport& s) { return quantiles(engine(s).e2e); });
  row("  prefix hit tokens", [&](const StrategyReport& s) {
    const EngineFigures& e = engine(s);
    return e.prefix_hit_rate ? fmt::format("{:.1f}%", 100.0 * *e.prefix_hit_rate) : std::string("-");
  });
  row("  preemptions", [&](const StrategyReport& s) {
    return fmt::format("{}", engine(s).counters.preemptions);
  });
  row("  output tokens/s", [&](const StrategyReport& s) {
    const EngineFigures& e = engine(s);
    return e.output_tokens_per_s ? fmt::format("{:.1f}", *e.output_tokens_per_s) : std::string("-");
  });
  row("  kv utilisation", [&](const StrategyReport& s) {
    const EngineFigures& e = engine(s);
    return fmt::format("{} ({:.4f})", Fixed(e.kv_utilisation_mean), e.kv_utilisation_peak);
  });
  row("  batch size", [&](const StrategyReport& s) {
    const EngineFigures& e = engine(s);
    return fmt::format("{} ({})", Fixed(e.batch_mean), e.batch_peak);
  });
  if (!report.strategies.empty() && engine(report.strategies[0]).slo) SloRows(report, row);
  t.Blank();
  t.Section("ttft p99 by Instance");
  for (std::size_t i = 0; i < report.instances.size(); ++i) {
    row("  " + report.instances[i], [&, i](const StrategyReport& s) {
      const DistributionSummary& d = s.what_if->instance_engine[i].ttft;
      return d.count ? Latency(d.p99 * scale) : std::string("-");
    });
  }
}

// Rows of the Proxy queue model's figures, strategies side by side.
template <typename Row>
void ProxyQueueRows(ReportRows& t, const Report& report, Row row) {
  auto queue = [](const StrategyReport& s) -> const ProxyQueueFigures& { return *s.proxy_queue; };
  const double scale = SecondsPer(report.time_unit);
  auto quantiles = [scale](const DistributionSummary& d) { return Quantiles(d, scale); };
  t.Blank();
  t.Section("proxy queue (s; p50 / p99)");
  row("  forwarded", [&](const StrategyReport& s) {
    return fmt::format("{}", queue(s).forwarded);
  });
  row("  stuck", [&](const StrategyReport& s) { return fmt::format("{}", queue(s).stuck); });
  row("  queue wait mean", [&](const StrategyReport& s) {
    const DistributionSummary& d = queue(s).wait;
    return d.count ? Latency(d.mean * scale) : std::string("-");
  });
  row("  queue wait", [&](const StrategyReport& s) { return quantiles(queue(s).wait); });
  row("  client ttft", [&](const StrategyReport& s) { return quantiles(queue(s).client_ttft); });
  row("  end to end", [&](const StrategyReport& s) { return quantiles(queue(s).end_to_end); });
}

// A duration in the trace's unit, for the table in seconds: three decimals
// below 1000 s, whole seconds from there (a ms trace's 1676829.7 reads
// 1677) up to kWholeUnitsUpTo, so a column reads the same whatever the
// trace's unit.
std::string Seconds(double x, const std::string& unit) {
  const double s = unit == "ms" ? x / 1000.0 : x;
  if (s >= kWholeUnitsUpTo) return fmt::format("{:.4g}", s);
  return s < 1000.0 ? fmt::format("{:.3f}", s) : fmt::format("{:.0f}", s);
}

// Windows shown one by one in the table; the window CSV has every one.
constexpr std::size_t kShownWindows = 20;

// Rows of the what-if figures, strategies side by side.
template <typename Row>
void WhatIfRows(ReportRows& t, const Report& report, Row row) {
  auto what_if = [](const StrategyReport& s) -> const WhatIfReport& { return *s.what_if; };
  const bool service = report.simulation->service();
  if (service) {
    t.Blank();
    t.Section("service (s)");
    auto latency = [&](std::string title, double LatencySummary::*field) {
      row(std::move(title), [&, field](const StrategyReport& s) {
        const LatencySummary& l = what_if(s).service->latency;
        return l.served ? Seconds(l.*field, report.time_unit) : std::string("-");
      });
    };
    row("  served", [&](const StrategyReport& s) {
      return fmt::format("{}", what_if(s).service->latency.served);
    });
    latency("  latency p50", &LatencySummary::p50);
    latency("  latency p90", &LatencySummary::p90);
    latency("  latency p99", &LatencySummary::p99);
    latency("  latency max", &LatencySummary::max);
    latency("  mean queue wait", &LatencySummary::mean_wait);
    latency("  queue wait p99", &LatencySummary::wait_p99);
    row("  utilisation", [&](const StrategyReport& s) {
      return Fixed(what_if(s).service->utilisation);
    });
    row("  offered utilisation", [&](const StrategyReport& s) {
      return Fixed(what_if(s).service->offered_utilisation);
    });
    t.Blank();
    t.Section("p99 latency by Instance (s)");
    for (std::size_t i = 0; i < report.instances.size(); ++i) {
      row("  " + report.instances[i], [&, i](const StrategyReport& s) {
        const LatencySummary& l = what_if(s).instance_service[i].latency;
        return l.served ? Seconds(l.p99, report.time_unit) : std::string("-");
      });
    }
  }
  if (report.simulation->engine_model()) EngineRows(t, report, row);
  t.Blank();
  t.Section("mean inflight (peak) by Instance");
  for (std::size_t i = 0; i < report.instances.size(); ++i) {
    row("  " + report.instances[i], [&, i](const StrategyReport& s) {
      const WhatIfReport& w = what_if(s);
      return fmt::format("{} ({})", Fixed(w.inflight_mean[i]), w.inflight_peak[i]);
    });
  }
  t.Blank();
  row("herded decisions", [](const StrategyReport& s) {
    return fmt::format("{} ({:.1f}%)", s.herded_decisions,
                       s.decisions ? 100.0 * static_cast<double>(s.herded_decisions) /
                                         static_cast<double>(s.decisions)
                                   : 0.0);
  });
  if (report.simulation->windows()) {
    row("windows", [&](const StrategyReport& s) {
      return fmt::format("{}", what_if(s).windows.size());
    });
    row("  max fallback rate", [&](const StrategyReport& s) {
      std::optional<double> most;
      for (const WindowReport& w : what_if(s).windows)
        if (w.fallback_rate && (!most || *w.fallback_rate > *most)) most = w.fallback_rate;
      return Fixed(most);
    });
    // The windows one by one: decisions, fallback rate and, with the
    // service model, the p99 latency of the requests that arrived in each.
    const std::vector<WindowReport>& first = report.strategies.front().what_if->windows;
    t.Blank();
    t.Section(service ? "by window (decisions / fallback rate / latency p99 s)"
                      : "by window (decisions / fallback rate)");
    for (std::size_t k = 0; k < first.size() && k < kShownWindows; ++k) {
      row(fmt::format("  [{}, {}) {}", first[k].start, first[k].end, report.time_unit),
          [&, k](const StrategyReport& s) {
            const std::vector<WindowReport>& windows = what_if(s).windows;
            if (k >= windows.size()) return std::string("-");
            const WindowReport& w = windows[k];
            std::string cell = fmt::format(
                "{} / {}", w.decisions,
                w.fallback_rate ? fmt::format("{:.1f}%", 100.0 * *w.fallback_rate) : "-");
            if (service)
              cell += " / " + (w.service && w.service->served
                                   ? Seconds(w.service->p99, report.time_unit)
                                   : std::string("-"));
            return cell;
          });
    }
    if (first.size() > kShownWindows)
      t.Section(fmt::format("  ... {} more (--window-csv FILE writes every window)",
                            first.size() - kShownWindows));
  }
}

// `report` with every text that comes from the trace or the command line
// through Printable: ids, names and descriptions must not reach a terminal
// as control sequences, nor break the table's lines.
Report PrintableCopy(const Report& report) {
  Report out = report;
  out.trace_path = Printable(out.trace_path);
  out.trace_name = Printable(out.trace_name);
  out.trace_description = Printable(out.trace_description);
  for (std::string& id : out.instances) id = Printable(id);
  for (StrategyReport& s : out.strategies) {
    s.label = Printable(s.label);
    s.requested_as = Printable(s.requested_as);
    if (s.longest_run_instance) s.longest_run_instance = Printable(*s.longest_run_instance);
    for (Warning& w : s.warnings) w.text = Printable(w.text);
  }
  return out;
}

// Widest "requested as" cell: a longer spec (an exec command) is cut there;
// the parameters section under the table lists what it set in full.
constexpr std::size_t kShownSpec = 32;

std::string ShortSpec(const std::string& spec) {
  if (spec.size() <= kShownSpec) return spec;
  return spec.substr(0, kShownSpec - 3) + "...";
}

bool HasReason(const StrategyReport& s, std::string_view word) {
  return std::any_of(s.reasons.begin(), s.reasons.end(),
                     [&](const auto& r) { return r.first == word; });
}

}  // namespace

ReportRows BuildReportRows(const Report& raw) {
  const Report report = PrintableCopy(raw);
  ReportRows t;
  t.header.emplace_back("trace", report.trace_path);
  if (!report.trace_name.empty()) t.header.emplace_back("name", report.trace_name);
  if (!report.trace_description.empty())
    t.header.emplace_back("about", report.trace_description);
  t.header.emplace_back("events", fmt::format("{} ({} arrivals), {} Instances, time unit {}",
                                              report.events, report.arrivals,
                                              report.instances.size(), report.time_unit));
  t.header.emplace_back(
      "proxy", report.proxy.pinned
                   ? fmt::format("{} (least_load {}, Python {})", report.proxy.profile,
                                 report.proxy.least_load, report.proxy.python)
                   : "spec (lbsim's typed contract, not a Proxy version)");
  if (report.simulation)
    t.header.emplace_back("what-if", SimulationLine(*report.simulation, report.time_unit, report.engine_signals_read));
  if (report.proxy_queue) {
    const ProxyQueueOptions& q = *report.proxy_queue;
    t.header.emplace_back(
        "queue", fmt::format("the Proxy's queue manager, {} ready workers and {} prepare tasks "
                             "per Instance, predictor a,b,c,d {},{},{},{}",
                             q.ready_concurrency, q.prepare_concurrency, q.coefficients[0],
                             q.coefficients[1], q.coefficients[2], q.coefficients[3]));
  }

  const auto& runs = report.strategies;
  auto row = [&](std::string title, auto cell) {
    std::vector<std::string> cells{std::move(title)};
    for (const StrategyReport& s : runs) cells.push_back(cell(s));
    t.Row(std::move(cells));
  };
  row("strategy", [](const StrategyReport& s) { return s.label; });
  row("requested as", [](const StrategyReport& s) { return ShortSpec(s.requested_as); });
  row("decisions", [](const StrategyReport& s) { return fmt::format("{}", s.decisions); });

  t.Blank();
  t.Section("selections (share of decisions that chose)");
  for (std::size_t i = 0; i < report.instances.size(); ++i) {
    row("  " + report.instances[i], [i](const StrategyReport& s) {
      const InstanceReport& line = s.instances[i];
      return fmt::format("{} ({:.1f}%)", line.selections, 100.0 * line.share);
    });
  }

  t.Blank();
  t.Section("reasons");
  std::vector<std::string> words;
  for (const StrategyReport& s : runs)
    for (const auto& r : s.reasons)
      if (r.first != "no_instances" &&
          std::find(words.begin(), words.end(), r.first) == words.end())
        words.push_back(r.first);
  words.push_back("no_instances");
  for (const std::string& word : words) {
    row("  " + word, [&word](const StrategyReport& s) {
      for (const auto& r : s.reasons)
        if (r.first == word) return fmt::format("{}", r.second);
      return std::string("-");
    });
  }
  row("  unknown_excluded", [](const StrategyReport& s) {
    return HasReason(s, "fallback") ? fmt::format("{}", s.unknown_excluded) : std::string("-");
  });

  for (std::string_view kind : {"fallback", "tie"}) {
    bool any = std::any_of(runs.begin(), runs.end(),
                           [&](const StrategyReport& s) { return HasReason(s, kind); });
    if (!any) continue;
    t.Blank();
    t.Section(fmt::format("{} selections", kind));
    for (std::size_t i = 0; i < report.instances.size(); ++i) {
      row("  " + report.instances[i], [&, i](const StrategyReport& s) {
        if (!HasReason(s, kind)) return std::string("-");
        const InstanceReport& line = s.instances[i];
        return fmt::format("{}", kind == "tie" ? line.tie_selections : line.fallback_selections);
      });
    }
  }

  t.Blank();
  t.Section("fairness (Instances that were candidates)");
  row("  jain", [](const StrategyReport& s) { return Fixed(s.fairness.jain); });
  row("  jain_eligible", [](const StrategyReport& s) { return Fixed(s.fairness.jain_eligible); });
  row("  cv", [](const StrategyReport& s) { return Fixed(s.fairness.cv); });
  row("  max/min", [](const StrategyReport& s) { return Fixed(s.fairness.max_min_ratio); });
  row("  max/mean", [](const StrategyReport& s) { return Fixed(s.fairness.max_mean_ratio); });
  row("  gini", [](const StrategyReport& s) { return Fixed(s.fairness.gini); });
  t.Blank();
  row("longest run", [](const StrategyReport& s) {
    return s.longest_run_instance
               ? fmt::format("{} x{}", *s.longest_run_instance, s.longest_run)
               : std::string("-");
  });
  if (std::any_of(runs.begin(), runs.end(),
                  [](const StrategyReport& s) { return s.proxy_choices.has_value(); })) {
    t.Blank();
    t.Section("the recorded Proxy's choices");
    row("  equal", [](const StrategyReport& s) {
      if (!s.proxy_choices) return std::string("-");
      const ProxyChoicesReport& p = *s.proxy_choices;
      return fmt::format("{} of {} ({:.1f}%)", p.equal, p.compared,
                         100.0 * static_cast<double>(p.equal) / static_cast<double>(p.compared));
    });
    row("  first differs", [](const StrategyReport& s) {
      if (!s.proxy_choices || !s.proxy_choices->first_difference) return std::string("-");
      return fmt::format("arrival {}", s.proxy_choices->first_difference->seq);
    });
    row("  self-check", [](const StrategyReport& s) {
      return s.proxy_choices && s.proxy_choices->self_check ? std::string("yes")
                                                            : std::string("no");
    });
  }
  if (report.simulation) WhatIfRows(t, report, row);
  if (report.proxy_queue) ProxyQueueRows(t, report, row);

  auto with_cache = std::find_if(runs.begin(), runs.end(),
                                 [](const StrategyReport& s) { return s.prefix_cache; });
  if (with_cache != runs.end()) {
    t.Blank();
    t.Section(fmt::format("prefix cache ({} blocks per Instance)",
                          with_cache->prefix_cache->capacity_blocks));
    row("  hit rate", [](const StrategyReport& s) {
      return s.prefix_cache ? fmt::format("{:.1f}%", 100.0 * s.prefix_cache->hit_rate)
                            : std::string("-");
    });
    row("  matched blocks", [](const StrategyReport& s) {
      return s.prefix_cache ? fmt::format("{}", s.prefix_cache->matched_blocks) : std::string("-");
    });
    row("  requested blocks", [](const StrategyReport& s) {
      return s.prefix_cache ? fmt::format("{}", s.prefix_cache->requested_blocks) : std::string("-");
    });
    t.Section("  cached blocks at the end");
    for (std::size_t i = 0; i < report.instances.size(); ++i) {
      row("    " + report.instances[i], [i](const StrategyReport& s) {
        return s.prefix_cache ? fmt::format("{}", s.instances[i].cached_blocks) : std::string("-");
      });
    }
  }
  // Parameters that differ from their defaults, and those always echoed
  // (a seed); the JSON report lists all.
  for (const StrategyReport& s : runs) {
    if (s.params.empty()) continue;
    std::string shown;
    std::size_t omitted = 0;
    for (const ParamValues::Value& p : s.params) {
      if (!p.is_default || p.echo == ParamEcho::kAlways) shown += fmt::format(" {}={}", p.name, p.text);
      else ++omitted;
    }
    // `shown` starts with a space.
    t.params.emplace_back(s.label, shown.empty()  ? "all defaults"
                                   : omitted == 0 ? shown.substr(1)
                                                  : shown.substr(1) + " (others default)");
  }

  for (const Warning& w : report.proxy.warnings) t.warnings.emplace_back("proxy", w.text);
  for (const StrategyReport& s : runs)
    for (const Warning& w : s.warnings) t.warnings.emplace_back(s.label, w.text);
  return t;
}

}  // namespace lbsim
