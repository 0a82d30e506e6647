#include "sim/sweep/sweep.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <exception>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/number_text.h"
#include "base/signal_cleanup.h"
#include "base/split_text.h"
#include "sim/replay/replay.h"
#include "sim/replay/what_if_keys.h"
#include "sim/report/report.h"

namespace lbsim {
namespace {

bool ParseCount(std::string_view text, std::size_t& out) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

bool Declares(const StrategyInfo& info, std::string_view param) {
  return std::any_of(info.params.begin(), info.params.end(),
                     [&](const ParamSpec& p) { return p.name == param; });
}

// `s` without what a sweep row does not keep: its per-Instance and
// per-window parts and its warnings' texts (the row keeps their names).
StrategyReport RunOfSweep(const StrategyReport& s) {
  StrategyReport run = s;
  run.instances.clear();
  run.expected_share.clear();
  run.warnings.clear();
  if (run.what_if) {
    WhatIfReport& w = *run.what_if;
    w.inflight_mean.clear();
    w.inflight_peak.clear();
    w.instance_service.clear();
    w.windows.clear();
    w.instance_engine.clear();
  }
  return run;
}

// Replays the cells `cells` (indices into `all`), all on one trace, in one
// pass, and fills their rows.
void RunCellGroup(const SweepGrid& grid, const std::vector<SweepCell>& all,
                  const std::vector<std::size_t>& cells, std::vector<SweepRow>& rows,
                  std::size_t first_row) {
  std::vector<StrategyRequest> requests;
  for (std::size_t c : cells) requests.push_back(all[c].request);
  const std::string& trace = grid.traces[all[cells.front()].trace];
  SimOptions options = all[cells.front()].options;
  options.proxy = grid.proxy;
  const ReplayResult replay = Replay(trace, grid.encoding, requests, {}, options);
  Report report = BuildReport(replay);
  for (std::size_t k = 0; k < cells.size(); ++k) {
    const SweepCell& cell = all[cells[k]];
    const StrategyReport& s = report.strategies[k];
    SweepRow& row = rows[cell.index - first_row];
    row.cell = cell.index;
    row.trace = trace;
    row.strategy = s.strategy;
    row.spec = cell.spec;
    row.seed = cell.seed;
    row.proxy = report.proxy.profile;
    row.python = report.proxy.python;
    row.params = replay.requests[k].params.All();  // every value in force, defaults too
    row.events = report.events;
    row.arrivals = report.arrivals;
    row.run = RunOfSweep(s);
    row.sim_values = cell.sim_values;
    for (const Warning& w : s.warnings)
      if (std::find(row.warnings.begin(), row.warnings.end(), w.name) == row.warnings.end())
        row.warnings.push_back(w.name);
  }
}

}  // namespace

const ServiceFigures* SweepRow::service() const {
  return run.what_if && run.what_if->service ? &*run.what_if->service : nullptr;
}

const EngineFigures* SweepRow::engine() const {
  return run.what_if && run.what_if->engine ? &*run.what_if->engine : nullptr;
}

const ProxyQueueFigures* SweepRow::proxy_queue() const {
  return run.proxy_queue ? &*run.proxy_queue : nullptr;
}

SweepAxis SweepAxis::Parse(std::string_view text) {
  std::size_t eq = text.find('=');
  // "sim.KEY": the key may hold dots (speed.ID).
  std::size_t dot = text.substr(0, 4) == "sim." ? 3 : text.substr(0, eq).rfind('.');
  if (eq == std::string_view::npos || dot == std::string_view::npos || dot == 0 ||
      dot + 1 == eq || eq + 1 == text.size())
    throw UsageError(fmt::format(
        "--vary: expected STRATEGY.PARAMETER=VALUE[,VALUE...], got '{}'", text));
  SweepAxis axis;
  axis.strategy = std::string(text.substr(0, dot));
  axis.key = std::string(text.substr(dot + 1, eq - dot - 1));
  std::string_view values = text.substr(eq + 1);
  for (std::string_view value : SplitAt(values, ',')) {
    if (value.empty())
      throw UsageError(fmt::format("--vary {}: empty value in '{}'", axis.Name(), values));
    axis.values.emplace_back(value);
  }
  return axis;
}

void SetSimOption(SimOptions& o, std::string_view key, std::string_view value,
                  std::string_view where) {
  double x = 0.0;
  const bool number = ParseFiniteNumber(value, x);
  auto bad = [&](std::string_view expected) {
    throw UsageError(fmt::format("{}: expected {}, got '{}'", where, expected, value));
  };
  if (key.substr(0, 6) == "speed." && key.size() > 6) {
    if (!number || !(x > 0.0)) bad("a number > 0 (a service speed)");
    const std::string id(key.substr(6));
    auto it = std::find_if(o.speeds.begin(), o.speeds.end(),
                           [&](const auto& s) { return s.first == id; });
    if (it != o.speeds.end()) it->second = x;
    else o.speeds.emplace_back(id, x);
    return;
  }
  const WhatIfKey* option = FindWhatIfKey(key);
  if (!option) {
    std::string keys;
    for (const WhatIfKey& k : WhatIfKeys()) keys += fmt::format("{}, ", k.key);
    throw UsageError(fmt::format("{}: unknown what-if option '{}'; expected {}or speed.ID", where,
                                 key, keys));
  }
  if (option->kind == WhatIfKey::Kind::kSwitch) {
    if (value != "true" && value != "false") bad(ExpectedValue(*option));
    x = value == "true" ? 1.0 : 0.0;
  } else if (!number || !Accepts(*option, x, ZeroTime::kOff)) {
    bad(ExpectedValue(*option, ZeroTime::kOff));
  }
  option->set(o, x);
}

std::vector<SweepCell> ExpandSweep(const SweepGrid& grid, const StrategyRegistry& registry) {
  if (grid.traces.empty()) throw UsageError("sweep: no trace given");
  std::vector<std::string> specs = grid.strategies;
  if (specs.empty()) specs.emplace_back(registry.Default().name);

  // The combinations of the what-if axes' values (the first varies slowest),
  // each checked as a replay's options are.
  std::vector<const SweepAxis*> sim_axes;
  for (const SweepAxis& axis : grid.axes)
    if (axis.IsSim()) sim_axes.push_back(&axis);
  std::vector<std::pair<SimOptions, std::vector<std::pair<std::string, std::string>>>> combos;
  {
    std::vector<std::size_t> at(sim_axes.size(), 0);
    for (bool more = true; more;) {
      SimOptions o = grid.sim;
      std::vector<std::pair<std::string, std::string>> values;
      std::string where;
      for (std::size_t a = 0; a < sim_axes.size(); ++a) {
        const std::string& value = sim_axes[a]->values[at[a]];
        SetSimOption(o, sim_axes[a]->key, value, fmt::format("--vary {}", sim_axes[a]->Name()));
        values.emplace_back(sim_axes[a]->key, value);
        where += fmt::format("{}{}={}", where.empty() ? "" : " ", sim_axes[a]->Name(), value);
      }
      // A cell where a varied interval is 0 has no stale metrics (or no
      // signals): their delay and jitter do not apply there, so --vary
      // sim.stale_interval=0,2 --set sim.stale_delay=1 compares live
      // metrics with stale ones.
      for (const SweepAxis* axis : sim_axes) {
        if (axis->key == "stale_interval" && o.stale_interval == 0.0)
          o.stale_delay = o.stale_jitter = 0.0;
        if (axis->key == "signal_interval" && o.engine.signal_interval == 0.0)
          o.engine.signal_delay = o.engine.signal_jitter = 0.0;
      }
      try {
        CheckSimOptions(o);
      } catch (const UsageError& e) {
        throw UsageError(where.empty() ? std::string(e.what())
                                       : fmt::format("--vary {}: {}", where, e.what()));
      }
      combos.emplace_back(std::move(o), std::move(values));
      more = false;
      for (std::size_t a = sim_axes.size(); a-- > 0;) {
        if (++at[a] < sim_axes[a]->values.size()) {
          more = true;
          break;
        }
        at[a] = 0;
      }
    }
  }

  // Which strategies each axis and the seeds apply to.
  std::vector<const StrategyInfo*> infos;
  for (const std::string& spec : specs)
    infos.push_back(&registry.Require(spec.substr(0, spec.find(':'))));
  for (const SweepAxis& axis : grid.axes) {
    if (axis.IsSim()) continue;
    const StrategyInfo& target = registry.Require(axis.strategy);
    if (std::find(infos.begin(), infos.end(), &target) == infos.end())
      throw UsageError(fmt::format("--vary {}: strategy {} is not among the strategies of the sweep",
                                   axis.Name(), target.name));
    if (!Declares(target, axis.key))
      throw UsageError(fmt::format("--vary {}: strategy {} has no parameter '{}'", axis.Name(),
                                   target.name, axis.key));
  }
  if (!grid.seeds.empty() &&
      std::none_of(infos.begin(), infos.end(),
                   [](const StrategyInfo* i) { return Declares(*i, "seed"); }))
    throw UsageError("--seeds: none of the strategies of the sweep takes a seed");

  // A key varied twice would give cells whose spec names it twice, the
  // second value silently winning.
  auto same_target = [&](const SweepAxis& x, const SweepAxis& y) {
    if (x.IsSim() || y.IsSim()) return x.IsSim() && y.IsSim();
    return &registry.Require(x.strategy) == &registry.Require(y.strategy);
  };
  for (std::size_t a = 0; a < grid.axes.size(); ++a)
    for (std::size_t b = 0; b < a; ++b)
      if (same_target(grid.axes[a], grid.axes[b]) && grid.axes[a].key == grid.axes[b].key)
        throw UsageError(fmt::format(
            "--vary {}: {} is varied twice (also by --vary {}); give all its values in one --vary",
            grid.axes[a].Name(), grid.axes[a].key, grid.axes[b].Name()));

  // The number of cells, counted before any is made (saturating).
  std::uint64_t count = 0;
  for (std::size_t s = 0; s < specs.size(); ++s) {
    std::uint64_t per_trace = 1;
    auto times = [&](std::uint64_t n) {
      per_trace = per_trace > kMaxSweepCells ? per_trace : per_trace * std::max<std::uint64_t>(n, 1);
    };
    for (const SweepAxis& axis : grid.axes)
      if (axis.IsSim() || &registry.Require(axis.strategy) == infos[s]) times(axis.values.size());
    if (Declares(*infos[s], "seed")) times(grid.seeds.size());
    times(grid.traces.size());
    count = std::min<std::uint64_t>(count + per_trace, kMaxSweepCells + 1);
  }
  if (count > kMaxSweepCells)
    throw UsageError(fmt::format(
        "the sweep has more than the limit of {} cells (traces x strategies x varied values x "
        "seeds); vary fewer values, or run several sweeps",
        kMaxSweepCells));

  std::vector<SweepCell> cells;
  cells.reserve(count);
  for (std::size_t t = 0; t < grid.traces.size(); ++t) {
    for (std::size_t combo = 0; combo < combos.size(); ++combo) {
    for (std::size_t s = 0; s < specs.size(); ++s) {
      std::vector<const SweepAxis*> mine;
      for (const SweepAxis& axis : grid.axes)
        if (!axis.IsSim() && &registry.Require(axis.strategy) == infos[s]) mine.push_back(&axis);
      std::vector<std::optional<std::uint64_t>> seeds = {std::nullopt};
      if (Declares(*infos[s], "seed") && !grid.seeds.empty())
        seeds.assign(grid.seeds.begin(), grid.seeds.end());
      // Odometer over the values of this strategy's axes; the last varies fastest.
      std::vector<std::size_t> at(mine.size(), 0);
      for (bool more = true; more;) {
        std::string base = specs[s];
        for (std::size_t a = 0; a < mine.size(); ++a)
          base += fmt::format(":{}={}", mine[a]->key, mine[a]->values[at[a]]);
        for (const std::optional<std::uint64_t>& seed : seeds) {
          SweepCell cell;
          cell.index = cells.size();
          cell.trace = t;
          cell.sim = combo;
          cell.options = combos[combo].first;
          cell.sim_values = combos[combo].second;
          cell.spec = seed ? fmt::format("{}:seed={}", base, *seed) : base;
          cell.seed = seed;
          cell.request = ParseStrategyRequest(
              registry, cell.spec, grid.settings,
              {{"cache_blocks", fmt::format("{}", cell.options.cache_blocks)}});
          cells.push_back(std::move(cell));
        }
        more = false;
        for (std::size_t a = mine.size(); a-- > 0;) {
          if (++at[a] < mine[a]->values.size()) {
            more = true;
            break;
          }
          at[a] = 0;
        }
      }
    }
    }
  }
  std::vector<StrategyRequest> requests;
  for (const SweepCell& cell : cells) requests.push_back(cell.request);
  CheckSettingsUsed(registry, requests, grid.settings);
  return cells;
}

SweepShard SweepShard::Parse(std::string_view text) {
  std::size_t slash = text.find('/');
  SweepShard shard;
  if (slash == std::string_view::npos || !ParseCount(text.substr(0, slash), shard.index) ||
      !ParseCount(text.substr(slash + 1), shard.count) || shard.index < 1 ||
      shard.index > shard.count)
    throw UsageError(fmt::format(
        "--shard: expected I/N with 1 <= I <= N (shard I of N), got '{}'", text));
  return shard;
}

std::pair<std::size_t, std::size_t> SweepShard::Range(std::size_t cells) const {
  return {cells * (index - 1) / count, cells * index / count};
}

SweepResult RunSweep(const SweepGrid& grid, const StrategyRegistry& registry,
                     std::optional<SweepShard> shard, unsigned jobs) {
  std::vector<SweepCell> cells = ExpandSweep(grid, registry);
  SweepResult result;
  result.grid = grid;
  result.cells = cells.size();
  result.shard = shard;
  for (const SweepCell& cell : cells)
    for (std::string_view word : cell.request.info->reasons)
      if (std::find(result.reason_words.begin(), result.reason_words.end(), word) ==
          result.reason_words.end())
        result.reason_words.emplace_back(word);

  // Plain variables, not a structured binding: the worker lambda below
  // captures `first`, which clang 14 (the fuzz build) does not allow for
  // bindings.
  const std::pair<std::size_t, std::size_t> range =
      shard ? shard->Range(cells.size()) : std::pair<std::size_t, std::size_t>{0, cells.size()};
  const std::size_t first = range.first;
  const std::size_t last = range.second;
  result.rows.resize(last - first);
  if (first == last) return result;

  // Cell groups: the cells of one trace and what-if combination (one
  // replay's options), split so that every thread has work.
  auto same_run = [&](const SweepCell& a, const SweepCell& b) {
    return a.trace == b.trace && a.sim == b.sim;
  };
  std::size_t traces = 1;
  for (std::size_t c = first + 1; c < last; ++c)
    if (!same_run(cells[c], cells[c - 1])) ++traces;
  jobs = std::max(1u, jobs);
  const std::size_t parts = std::max<std::size_t>(1, (jobs + traces - 1) / traces);
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t c = first; c < last;) {
    std::size_t end = c;
    while (end < last && same_run(cells[end], cells[c])) ++end;
    const std::size_t n = end - c;
    // Enough groups for the threads, none larger than one replay takes.
    const std::size_t split =
        std::max(std::min(parts, n), (n + kMaxStrategyRuns - 1) / kMaxStrategyRuns);
    for (std::size_t p = 0; p < split; ++p) {
      std::vector<std::size_t> group;
      for (std::size_t k = c + n * p / split; k < c + n * (p + 1) / split; ++k) group.push_back(k);
      groups.push_back(std::move(group));
    }
    c = end;
  }

  std::vector<std::exception_ptr> errors(groups.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t g; (g = next++) < groups.size();) {
      try {
        RunCellGroup(grid, cells, groups[g], result.rows, first);
      } catch (...) {
        errors[g] = std::current_exception();
      }
    }
  };
  const std::size_t wanted = std::min<std::size_t>(jobs, groups.size());
  std::vector<std::thread> threads;
  threads.reserve(wanted);
  try {
    // Signals stay with this thread, which the cleanup handler expects.
    TerminationSignalsBlocked blocked;
    for (std::size_t t = 1; t < wanted; ++t) threads.emplace_back(work);
  } catch (const std::system_error& e) {
    // A process or memory limit: the threads that started take no more
    // cells and are joined; the run is refused rather than run narrower.
    next = groups.size();
    for (std::thread& t : threads) t.join();
    throw UsageError(fmt::format(
        "sweep -j {}: only {} of {} threads could start ({}; a process or memory limit such as "
        "ulimit -u or -v); give a smaller -j",
        jobs, threads.size() + 1, wanted, e.code().message()));
  }
  work();
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  return result;
}

}  // namespace lbsim
