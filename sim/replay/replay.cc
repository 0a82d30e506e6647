#include "sim/replay/replay.h"

#include <algorithm>

#include <memory>

#include <fmt/format.h>

#include "base/errors.h"
#include "sim/replay/auto_request_ids.h"
#include "sim/replay/pool.h"
#include "sim/replay/shared_completions.h"
#include "sim/replay/world.h"
#include "traces/decision_log.h"
#include "base/json/json_write.h"

namespace lbsim {
namespace {

// Replays the trace for some of a replay's strategy runs: `requests` are
// runs first .. first + requests.size() - 1 of `total`, which number its
// failures' ranks (FailureRank) as one Replayer of all of them would meet
// them: at an event, every run's due internal events in run order, then
// the event itself, then every run's decision in run order.
class Replayer final : public TraceVisitor {
 public:
  // The worlds are made for the Proxy options.proxy names, or latest; the
  // trace header may name another (OnHeader).
  Replayer(const std::vector<StrategyRequest>& requests,
           const std::vector<DecisionSink*>& logs, const SimOptions& options,
           const std::vector<EngineLog*>& engine_logs,
           const std::vector<RequestSink*>& request_logs, std::size_t first, std::size_t total)
      : speeds_(options.speeds), options_(options), requests_(requests),
        logs_(logs), engine_logs_(engine_logs), request_logs_(request_logs),
        run_(options.proxy.Resolve(nullptr)),
        plain_(!options.timed()), completions_(requests.size()), first_(first), total_(total),
        rank_(total) {
    for (std::size_t i = 0; i < requests.size(); ++i) {
      worlds_.push_back(MakeWorld(i));
      wants_raw_hint_ = wants_raw_hint_ || worlds_.back()->strategy().WantsRawHint();
      reads_request_ids_ = reads_request_ids_ || worlds_.back()->ReadsRequestIds();
    }
  }

  bool WantsRawHint() const override { return wants_raw_hint_; }
  ProxyChoice Proxy() const override { return options_.proxy; }
  std::size_t FailureRank() const override { return rank_; }

  void OnHeader(const TraceHeader& header, const InstanceTable& table) override {
    header_ = header;
    table_ = &table;
    const ProxyRun run = options_.proxy.Resolve(header.proxy, header.python);
    if (run.profile != run_.profile || run.python != run_.python) {
      // The header names another Proxy: strategies that differ under it
      // are made again (no event has reached them); the others only take
      // its pool rules.
      run_ = run;
      ForEachWorld(0, [&](std::unique_ptr<World>& world, std::size_t i) {
        try {
          if (!requests_[i].info->under_proxy) world->set_proxy(*run_.profile);
          else world = MakeWorld(i);
        } catch (const UsageError& e) {
          throw FieldError(fmt::format("field \"proxy\": {}", e.what()));
        }
      });
    }
    ForEachWorld(1, [&](std::unique_ptr<World>& world, std::size_t) { world->SetTrace(header); });
    for (const HeaderInstance& inst : header.instances) {
      InstanceIndex i = *table.Find(inst.id);
      pool_.Up(i);
      Pool::Entry& e = pool_.at(i);
      e.weight = inst.weight;
      e.qps_1m = inst.qps_1m;
      e.speed = SpeedOf(i, inst.speed);
      if (!inst.alive) pool_.Down(i);
      for (auto& w : worlds_) w->SetInflight(i, inst.inflight);
    }
  }

  void OnEvent(const TraceEvent& e) override {
    last_time_ = e.t.value;
    EventKey key{e.t.value, EventClass::kTrace, ++trace_seq_};
    if (plain_) {
      // Completions run before the trace event iff their time is <= the
      // event's (kCompletion < kTrace); they cannot fail.
      const std::span<const std::uint32_t> due = completions_.DueBy(e.t.value);
      if (!due.empty()) CompleteRouted(due);
    } else {
      ForEachWorld(0, [&](std::unique_ptr<World>& world, std::size_t) {
        world->RunEventsBefore(key, pool_);
      });
    }

    switch (e.type) {
      case EventType::kArrival: {
        ++arrivals_;
        // An arrival without a request id gets "r<arrival number>", made
        // only for a run that reads ids.
        const std::string_view auto_id = reads_request_ids_ ? auto_ids_.Next() : std::string_view{};
        const std::string_view id = e.request ? *e.request : auto_id;
        if (!plain_ || !e.duration) {
          ForEachWorld(1, [&](std::unique_ptr<World>& world, std::size_t) {
            world->Decide(e, arrivals_, id, pool_, *table_);
          });
          return;
        }
        const std::uint32_t slot = completions_.Take();
        const std::span<RoutedArrival> routes = completions_.Routes(slot);
        bool routed = false;
        ForEachWorld(1, [&](std::unique_ptr<World>& world, std::size_t i) {
          routed |= world->Decide(e, arrivals_, id, pool_, *table_, &routes[i]);
        });
        if (!routed) {
          completions_.Release(slot);
          return;
        }
        // Each run holds at most kMaxInFlight (World::Decide); runs that
        // refuse different arrivals could together hold more.
        if (completions_.pending() == kMaxInFlight) {
          rank_ = 2 * total_ + 1;  // after every run's decision
          throw InputError(fmt::format(
              "field \"duration\": more than the limit of {} requests in flight at once "
              "(routed by some strategy run, not yet completed)",
              kMaxInFlight));
        }
        completions_.Schedule(e.t.value + *e.duration, slot);
        return;
      }
      case EventType::kUp: {
        InstanceIndex i = *e.index;
        bool fresh = pool_.Up(i);
        Pool::Entry& entry = pool_.at(i);
        if (fresh || e.speed) entry.speed = SpeedOf(i, e.speed.value_or(entry.speed));
        if (run_.profile->pinned()) {
          RegisterAtProxy(i, fresh, e);
          return;
        }
        if (e.weight) entry.weight = *e.weight;
        if (e.qps_1m.present()) entry.qps_1m = e.qps_1m.AsOptional();
        for (auto& w : worlds_) {
          if (e.inflight.present()) w->SetInflight(i, e.inflight.AsOptional());
          else if (fresh) w->SetInflight(i, std::nullopt);
        }
        return;
      }
      case EventType::kDown:
        pool_.Down(Registered(e));
        return;
      case EventType::kRemove:
        pool_.Remove(Registered(e));
        return;
      case EventType::kLoad: {
        InstanceIndex i = Registered(e);
        if (run_.profile->pinned()) {
          pool_.Revive(i);  // a heartbeat refreshes liveness
          Heartbeat(i, e);
          return;
        }
        if (e.qps_1m.present()) {
          pool_.at(i).qps_1m = e.qps_1m.AsOptional();
          for (auto& w : worlds_) w->PoolLoadChanged(i);
        }
        if (e.inflight.present())
          for (auto& w : worlds_) w->SetInflight(i, e.inflight.AsOptional());
        return;
      }
    }
  }

  // A pinned Proxy's `up`: a registration (upsert: the weight given or 1;
  // the inflight counter of a new registration unknown, or 0 from 55b32e9
  // on, which also sets an unknown counter of a re-registration to 0), then
  // a heartbeat carrying the event's load fields.
  void RegisterAtProxy(InstanceIndex i, bool fresh, const TraceEvent& e) {
    pool_.at(i).weight = e.weight.value_or(1.0);
    const bool from_zero = run_.profile->inflight == InflightSource::kCountedFromZero;
    for (auto& w : worlds_) {
      if (fresh) w->SetInflight(i, from_zero ? std::optional<std::int64_t>(0) : std::nullopt);
      else if (from_zero && !w->Inflight(i)) w->SetInflight(i, 0);
    }
    Heartbeat(i, e);
  }

  // A pinned Proxy's heartbeat: qps_1m when given and not null; inflight
  // when given and not null, but only where heartbeats set it (df8382d).
  // What it leaves alone is counted, for the report.
  void Heartbeat(InstanceIndex i, const TraceEvent& e) {
    if (e.qps_1m.state == FieldUpdate<double>::State::kValue) {
      pool_.at(i).qps_1m = e.qps_1m.value;
      for (auto& w : worlds_) w->PoolLoadChanged(i);
    } else if (e.qps_1m.present()) {
      ++ignored_.null_qps_1m;
    }
    if (!e.inflight.present()) return;
    if (e.inflight.state == FieldUpdate<std::int64_t>::State::kValue &&
        run_.profile->inflight == InflightSource::kHeartbeats) {
      for (auto& w : worlds_) w->SetInflight(i, e.inflight.value);
      return;
    }
    ++ignored_.inflight;
  }

  void Finish() {
    CompleteRouted(completions_.All());
    for (auto& w : worlds_) w->Finish(pool_);
  }

  // Completes, for each world, the arrivals at `slots` it routed.
  void CompleteRouted(std::span<const std::uint32_t> slots) {
    for (const std::uint32_t slot : slots) {
      const std::span<const RoutedArrival> routes = completions_.Routes(slot);
      for (std::size_t i = 0; i < routes.size(); ++i)
        if (routes[i].instance != SharedCompletions::kNotRouted)
          worlds_[i]->CompleteRouted(routes[i], pool_);
    }
  }

  // Calls step(world, i) for each of its worlds in order; a failure in
  // world i is ranked in `phase` (0: before the event itself, 1: after it).
  template <typename Step>
  void ForEachWorld(std::size_t phase, Step step) {
    // The vector's size and storage read once: a step cannot change them.
    std::unique_ptr<World>* const worlds = worlds_.data();
    const std::size_t count = worlds_.size();
    std::size_t i = 0;
    try {
      for (; i < count; ++i) step(worlds[i], i);
    } catch (...) {
      rank_ = phase * (total_ + 1) + first_ + i;
      throw;
    }
  }

  TraceHeader& header() { return header_; }
  const Pool& pool() const { return pool_; }
  double last_time() const { return last_time_; }
  std::vector<std::unique_ptr<World>>& worlds() { return worlds_; }
  const ProxyRun& run() const { return run_; }
  const IgnoredLoadFields& ignored() const { return ignored_; }

 private:
  // The world of strategy run `i` under the current Proxy.
  std::unique_ptr<World> MakeWorld(std::size_t i) {
    auto w = std::make_unique<World>(BindToProxy(requests_[i], run_), options_,
                                     run_.profile->inflight);
    w->set_proxy(*run_.profile);
    if (i < logs_.size()) w->set_log(logs_[i]);
    if (i < request_logs_.size()) w->set_request_log(request_logs_[i]);
    if (i < engine_logs_.size()) w->set_engine_log(engine_logs_[i]);
    return w;
  }

  InstanceIndex Registered(const TraceEvent& e) const {
    if (!e.index || !pool_.IsRegistered(*e.index)) {
      // The id as a JSON string: escaped, so the message stays one line.
      std::string id;
      AppendJsonString(id, e.instance);
      throw FieldError(fmt::format(
          "field \"instance\": expected a registered Instance, got {}{}", id,
          e.index ? " (it was removed)" : " (never registered)"));
    }
    return *e.index;
  }

  // The service speed of `i`: a --speed override for its id, else `traced`.
  double SpeedOf(InstanceIndex i, double traced) const {
    for (const auto& [id, speed] : speeds_)
      if (id == table_->Id(i)) return speed;
    return traced;
  }

  TraceHeader header_;
  const InstanceTable* table_ = nullptr;
  std::vector<std::pair<std::string, double>> speeds_;  // --speed overrides
  const SimOptions& options_;
  const std::vector<StrategyRequest>& requests_;  // as asked, before binding
  const std::vector<DecisionSink*>& logs_;
  const std::vector<EngineLog*>& engine_logs_;
  const std::vector<RequestSink*>& request_logs_;
  ProxyRun run_;
  IgnoredLoadFields ignored_;
  Pool pool_;
  std::vector<std::unique_ptr<World>> worlds_;
  bool wants_raw_hint_ = false;
  std::uint64_t trace_seq_ = 0;
  std::uint64_t arrivals_ = 0;
  double last_time_ = 0.0;  // of the last trace event
  // No what-if part and no charts: the worlds keep no events, and the
  // completions of the arrivals they route are completions_.
  bool plain_;
  SharedCompletions completions_;
  bool reads_request_ids_ = false;  // some world's Decide reads its request_id
  AutoRequestIds auto_ids_;  // in step with arrivals_ when reads_request_ids_
  std::size_t first_;  // of the replay's runs, this one's first
  std::size_t total_;  // the replay's runs
  // After a failure: its rank (see FailureRank); total_, between the two
  // phases, when no world failed (the event itself).
  std::size_t rank_;
};

}  // namespace

void CheckStrategyRunCount(std::size_t count) {
  if (count > kMaxStrategyRuns)
    throw UsageError(fmt::format(
        "{} strategy runs requested; one replay takes at most {} (the limit)", count,
        kMaxStrategyRuns));
}

std::size_t ReplayGroups(const std::vector<StrategyRequest>& requests,
                         const ParallelFeed& parallel) {
  if (!parallel.read || requests.size() < 3) return 1;
  for (const StrategyRequest& r : requests)
    if (r.info->runs_program) return 1;
  // The reading thread keeps a CPU of its own: two groups and a reader on
  // two CPUs took longer than one group for four least_loads.
  const std::size_t spare = parallel.threads > 1 ? parallel.threads - 1 : 1;
  return std::min(spare, (requests.size() + 1) / 2);
}

namespace {

// Some of a replay's strategy runs, with what their Replayer refers to and
// the table of the ids it has seen.
struct ReplayGroup {
  std::vector<StrategyRequest> requests;
  std::vector<DecisionSink*> logs;
  std::vector<EngineLog*> engine_logs;
  std::vector<RequestSink*> request_logs;
  InstanceTable table;
  std::unique_ptr<Replayer> replayer;
};

}  // namespace

ReplayResult Replay(const std::string& display_path, const TraceFeed& feed,
                    const std::vector<StrategyRequest>& requests,
                    const std::vector<DecisionSink*>& logs,
                    const SimOptions& options,
                    const std::vector<EngineLog*>& engine_logs,
                    const ParallelFeed& parallel,
                    const std::vector<RequestSink*>& request_logs) {
  CheckStrategyRunCount(requests.size());
  ReplayResult result;
  result.trace_path = display_path;
  result.requests = requests;
  result.options = options;
  SimOptions shared = options;  // the runs share the what-if limits
  shared.runs = std::max<std::size_t>(1, requests.size());

  // Consecutive runs to each group, the first groups one more when they
  // do not divide evenly.
  const std::size_t group_count = ReplayGroups(requests, parallel);
  std::vector<std::unique_ptr<ReplayGroup>> groups;
  for (std::size_t g = 0, begin = 0; g < group_count; ++g) {
    const std::size_t size =
        requests.size() / group_count + (g < requests.size() % group_count ? 1 : 0);
    auto group = std::make_unique<ReplayGroup>();
    for (std::size_t i = begin; i < begin + size; ++i) {
      group->requests.push_back(requests[i]);
      if (i < logs.size()) group->logs.push_back(logs[i]);
      if (i < engine_logs.size()) group->engine_logs.push_back(engine_logs[i]);
      if (i < request_logs.size()) group->request_logs.push_back(request_logs[i]);
    }
    group->replayer =
        std::make_unique<Replayer>(group->requests, group->logs, shared, group->engine_logs,
                                   group->request_logs, begin, requests.size());
    groups.push_back(std::move(group));
    begin += size;
  }
  if (group_count == 1) {
    result.counts = feed(result.instances, *groups[0]->replayer);
  } else {
    std::vector<TraceConsumer> consumers;
    for (std::size_t g = 0; g < group_count; ++g)
      consumers.push_back({g == 0 ? &result.instances : &groups[g]->table,
                           groups[g]->replayer.get()});
    result.counts = parallel.read(consumers);
  }
  for (auto& group : groups) group->replayer->Finish();

  // Every group saw the same trace and the same pool: the first tells.
  Replayer& lead = *groups[0]->replayer;
  result.header = std::move(lead.header());
  for (const auto& [id, speed] : options.speeds)
    if (!result.instances.Find(id))
      throw UsageError(fmt::format("{} {}={}: no Instance \"{}\" in {}", options.speeds_origin,
                                   id, speed, id, display_path));
  result.proxy = lead.run();
  result.ignored = lead.ignored();
  result.last_event_time = lead.last_time();
  for (InstanceIndex i = 0; i < result.instances.size(); ++i) {
    const bool known = i < lead.pool().size();
    result.weights.push_back(known ? lead.pool().at(i).weight : 1.0);
    result.speeds.push_back(known ? lead.pool().at(i).speed : 1.0);
  }
  result.requests.clear();
  for (auto& group : groups)
    for (auto& w : group->replayer->worlds()) {
      result.requests.push_back(w->request());
      result.metrics.push_back(std::move(w->metrics()));
      if (options.timed())
        result.what_if.push_back({w->TakeTimeline(), w->TakeService(), w->TakeEngine(),
                                  w->TakeQueueStats(), w->ReadsEngineSignals()});
    }
  return result;
}

ReplayResult Replay(const std::string& path, TraceEncoding encoding,
                    const std::vector<StrategyRequest>& requests,
                    const std::vector<DecisionSink*>& logs,
                    const SimOptions& options, TraceProgress* progress) {
  return Replay(
      path,
      [&](InstanceTable& table, TraceVisitor& visitor) {
        return ReadTrace(path, encoding, table, visitor, progress);
      },
      requests, logs, options);
}

}  // namespace lbsim
