#include "sim/replay/world.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "base/errors.h"

namespace lbsim {

// Completions and the engine's steps, in exact key order.
class World::InternalSource final : public EventSource {
 public:
  explicit InternalSource(World& w) : w_(w) {}
  std::optional<EventKey> NextKey() const override {
    if (w_.events_.empty()) return std::nullopt;
    return w_.events_.TopKey();
  }
  void RunNext(const Pool& pool) override { w_.RunInternal(pool); }

 private:
  World& w_;
};

// The stale-metrics view's snapshots and publications: a publication
// changes what the strategy sees of an Instance (or of every one).
class World::StaleViewSource final : public EventSource {
 public:
  explicit StaleViewSource(World& w) : w_(w) {}
  std::optional<EventKey> NextKey() const override { return w_.view_->NextKey(); }
  void RunNext(const Pool&) override {
    if (std::optional<InstanceIndex> seen = w_.view_->RunNext(w_.inflight_)) {
      if (*seen == MetricView::kEveryInstance) w_.candidates_.MarkAllChanged();
      else w_.candidates_.MarkChanged(*seen);
    }
  }

 private:
  World& w_;
};

// The engine signals' snapshots and publications; published signals reach
// strategies through each decision's hint.
class World::SignalSource final : public EventSource {
 public:
  explicit SignalSource(World& w) : w_(w) {}
  std::optional<EventKey> NextKey() const override { return w_.signals_->NextKey(); }
  void RunNext(const Pool& pool) override {
    w_.signals_->RunNext(
        [&](std::vector<EngineSignals>& values) { w_.engine_->Signals(values, pool); });
  }

 private:
  World& w_;
};

World::World(const StrategyRequest& request, const SimOptions& options,
             InflightSource inflight)
    : request_(request), inflight_source_(inflight), strategy_(request.Make()), index_(strategy_->Indexed()),
      wants_arrival_info_(strategy_->WantsArrivalInfo()),
      metrics_(request.info->reasons),
      caches_(options.cache_blocks),
      plain_(!options.timed()),
      candidates_(inflight_, metrics_, index_) {
  if (options.service()) service_ = std::make_unique<ServiceModel>(options.slots, options.windows());
  if (options.stale())
    view_ = std::make_unique<MetricView>(
        options.stale_interval, options.stale_delay, options.stale_jitter, options.seed,
        SnapshotLimits{kMaxSnapshotValues / options.runs,
                       kMaxPendingSnapshotValues / options.runs});
  candidates_.SetView(view_.get());
  // This run's share of the window figures of the replay and its seeds.
  const std::uint64_t window_figures =
      kMaxWindowFigures / (options.runs * std::max<std::size_t>(1, options.replays) *
                           (options.engine.on() ? kEngineWindowWeight : 1));
  if (options.timed())
    timeline_ = std::make_unique<LoadTimeline>(options.window, window_figures, options.charts);
  if (options.engine.on()) {
    engine_ = std::make_unique<EngineFleet>(options.engine.config, events_, options.window,
                                            window_figures);
    engine_->set_slo(options.engine.slo);
  }
  // What rewrites the hint does not reach a strategy reading it as JSON.
  auto refuse_raw_hint = [&](std::string_view option, std::string_view rewriter,
                             std::string_view pronoun) {
    if (strategy_->WantsRawHint())
      throw UsageError(fmt::format(
          "{}: strategy {} reads each arrival's hint as JSON, which {} not rewrite; {} "
          "the built-in strategies only",
          option, request.requested_as, rewriter, pronoun));
  };
  if (options.proxy_queue.on) {
    refuse_raw_hint("--proxy-queue", "the queue model's snapshot does", "it reaches");
    queue_options_ = options.proxy_queue;
  }
  if (options.signals()) {
    refuse_raw_hint("--signal-interval", "engine signals do", "they reach");
    signals_ = std::make_unique<SnapshotView<EngineSignals>>(
        options.engine.signal_interval, options.engine.signal_delay,
        options.engine.signal_jitter, options.seed,
        SnapshotLimits{kMaxSignalValues / options.runs, kMaxPendingSnapshotValues / options.runs},
        "--signal-interval");
  }
  if (!plain_) sources_.push_back(std::make_unique<InternalSource>(*this));
  if (view_) sources_.push_back(std::make_unique<StaleViewSource>(*this));
  if (signals_) sources_.push_back(std::make_unique<SignalSource>(*this));
}

void World::set_proxy(const ProxyProfile& profile) {
  inflight_source_ = profile.inflight;
  if (!queue_options_) return;
  if (!profile.pinned())
    throw UsageError(
        "--proxy-queue: the spec profile has no Proxy queue; name a pinned Proxy version "
        "(--proxy cacheroute@<commit> or latest)");
  ProxyQueueConfig config;
  config.ready_concurrency = queue_options_->ready_concurrency;
  config.prepare_concurrency = queue_options_->prepare_concurrency;
  config.predictor.coefficients = queue_options_->coefficients;
  config.max_dispatch_polls = queue_options_->max_dispatch_polls;
  switch (profile.least_load) {
    case LeastLoadForm::kFourQueueKeys: config.fields = QueueSnapshotFields::kFour; break;
    case LeastLoadForm::kSevenQueueKeys: config.fields = QueueSnapshotFields::kNine; break;
    default: config.fields = QueueSnapshotFields::kNone; break;
  }
  config.clears_ended_pending = profile.queue_clears_ended_pending;
  config.milliseconds = time_unit_ms_;
  config.instance_reports_times = engine_ || service_;
  queue_ = std::make_unique<ProxyQueue>(config);
  reads_queue_loads_ = strategy_->ReadsQueueLoads();
  if (reads_queue_loads_) candidates_.SetStandingLoads(queue_.get());
  if (engine_) engine_->set_listener(queue_.get());
  if (!journeys_) journeys_ = std::make_unique<RequestJourneys>(nullptr, request_.info->name);
}

void World::AddInFlight(std::string_view where) {
  if (in_flight_ >= kMaxInFlight)
    throw InputError(fmt::format(
        "{}more than the limit of {} requests in flight at once (routed, not yet completed) in "
        "strategy run {}",
        where, kMaxInFlight, request_.requested_as));
  ++in_flight_;
}

void World::SetInflight(InstanceIndex i, std::optional<std::int64_t> value) {
  if (inflight_.size() <= i) inflight_.resize(i + 1, -1);
  inflight_[i] = value ? *value : -1;
  candidates_.MarkChanged(i);
}

std::optional<std::int64_t> World::Inflight(InstanceIndex i) const {
  if (i >= inflight_.size() || inflight_[i] < 0) return std::nullopt;
  return inflight_[i];
}

void World::ScheduleCompletion(double time, const Completion& c) {
  events_.Push(time, EventClass::kCompletion,
               InternalEvent{InternalEvent::Kind::kCompletion, c.instance, c.registration});
}

void World::RunInternal(const Pool& pool) {
  const EventKey at = events_.TopKey();
  const InternalEvent e = events_.TopPayload();
  events_.Pop();
  if (e.kind == InternalEvent::Kind::kCompletion) Complete(Completion{e.instance, e.arg}, at.time, pool);
  else engine_->Run(e, at.time, pool);
}

[[gnu::noinline]] void World::CompleteWhatIf(const Completion& c, double time,
                                             const Pool& pool) {
  if (timeline_) timeline_->Completed(c.instance, time);
  if (service_) {
    if (auto next = service_->Release(c.instance, time, pool.at(c.instance).speed))
      ScheduleCompletion(next->end, Completion{c.instance, next->registration});
  }
}

inline World::Lowered World::LowerCounter(const Completion& c, const Pool& pool,
                                          std::int64_t*& counter) {
  switch (inflight_source_) {
    case InflightSource::kSpec: {
      if (!pool.IsRegistered(c.instance) ||
          pool.at(c.instance).registration != c.registration)
        return Lowered::kNothing;  // routed to a registration that was removed
      std::int64_t& n = inflight_[c.instance];
      if (n <= 0) return Lowered::kNothing;  // unknown (-1) stays unknown; 0 stays 0
      counter = &n;
      --n;
      return Lowered::kDecremented;
    }
    case InflightSource::kHeartbeats:
      return Lowered::kNothing;  // the Proxy counts nothing
    case InflightSource::kCounted:
    case InflightSource::kCountedFromZero: {
      // end_request(id): whatever registration holds the id now, down or
      // not; a removed one is not in the pool.
      if (!pool.IsRegistered(c.instance)) return Lowered::kNothing;
      std::int64_t& n = inflight_[c.instance];
      counter = &n;
      if (n < 0) {
        n = 0;  // max(0, (None or 0) - 1)
        return Lowered::kZeroed;
      }
      if (n == 0) return Lowered::kNothing;
      --n;
      return Lowered::kDecremented;
    }
  }
  return Lowered::kNothing;
}

inline void World::Complete(const Completion& c, double time, const Pool& pool) {
  last_time_ = time;
  --in_flight_;
  if (timeline_ || service_) CompleteWhatIf(c, time, pool);
  std::int64_t* counter = nullptr;
  if (LowerCounter(c, pool, counter) != Lowered::kNothing) candidates_.MarkChanged(c.instance);
}

void World::CompleteRouted(const RoutedArrival& routed, const Pool& pool) {
  // The order does not matter: the pool (so whether a registration still
  // holds) changes only at trace events, each completion only decrements a
  // counter clamped at 0, and the order of the candidates it refreshes
  // (CandidateSet::CompletionDropped) only orders refreshes whose end state
  // (the candidates, the metrics' per-Instance signal state and count, the
  // strategy index's score groups) does not depend on it. last_time_ only
  // serves the what-if parts, so a plain completion lowers the counter alone.
  --in_flight_;
  std::int64_t* counter = nullptr;
  switch (LowerCounter(routed, pool, counter)) {
    case Lowered::kNothing: return;
    case Lowered::kDecremented:
      candidates_.CompletionDropped(routed.instance, *counter, pool);
      return;
    case Lowered::kZeroed: candidates_.MarkChanged(routed.instance); return;
  }
}

void World::RunQueue(std::optional<EventKey> before, double latest, const Pool& pool) {
  // The queue's events and the engines' (the only internal events beside
  // it) in one time order, compared in the Proxy's clock; at one clock the
  // engines' run first (a response that arrives as a poll wakes is read).
  const std::optional<double> limit =
      before ? std::optional<double>(queue_->Clock(before->time)) : std::nullopt;
  for (;;) {
    const std::optional<double> next = queue_->NextClock();
    const bool queue_due = next && (!limit || *next < *limit);
    const bool internal_due = !events_.empty() && (!before || events_.TopKey() < *before);
    if (!queue_due && !internal_due) return;
    if (internal_due && (!queue_due || queue_->Clock(events_.TopKey().time) <= *next)) {
      engine_time_ = events_.TopKey().time;
      RunInternal(pool);
      continue;
    }
    // Its Instance's standing queue load may have changed.
    if (const std::optional<InstanceIndex> changed = queue_->RunNext(progress_))
      candidates_.MarkChanged(*changed);
    for (const ProxyQueue::Progress& p : progress_) {
      const double t = queue_->TraceTime(p.clock);
      switch (p.kind) {
        case ProxyQueue::Progress::Kind::kForwarded:
          journeys_->Forwarded(p.record, t, p.clock);
          if (engine_ || service_) ServeForwarded(p, t, pool);
          break;
        case ProxyQueue::Progress::Kind::kFirstToken:
          journeys_->FirstToken(p.record, t, p.clock);
          break;
        case ProxyQueue::Progress::Kind::kEnded:
          journeys_->Ended(p.record, t, p.clock, *table_);
          // end_request: the counter of whatever registration holds the id.
          Complete(Completion{p.instance, p.registration}, std::min(t, latest), pool);
          break;
      }
    }
  }
}

void World::ServeForwarded(const ProxyQueue::Progress& p, double t, const Pool& pool) {
  const HeldArrival& held = held_[p.task];
  const double speed = pool.at(p.instance).speed;
  if (service_) {
    // One request at a time reaches an Instance before its first token,
    // which the slots give at its end: a slot is always free.
    const std::optional<ServiceModel::Started> started =
        service_->Admit(p.instance, t, held.duration, speed, p.registration);
    if (!started)
      throw std::logic_error("the Proxy queue forwarded to an Instance with every slot busy");
    queue_->Ended(p.task, started->end);
    return;
  }
  const EngineArrival arrival{held.seq,          std::max(t, engine_time_), held.arrival,
                              held.input_tokens, held.output_tokens,     held.prefix_blocks,
                              p.task};
  if (!engine_->Admit(arrival, p.instance, p.registration, speed, *table_)) {
    journeys_->Rejected(p.record);
    queue_->Ended(p.task, arrival.t);  // rejected at once: an empty response
  }
}

void World::RunDueEventsBefore(const EventKey& key, const Pool& pool) {
  if (queue_) {
    if (!queue_->begun()) queue_->Begin(key.time);
    RunQueue(key, key.time, pool);
  }
  if (timeline_ && !timeline_->begun()) {
    timeline_->Begin(key.time);
    if (engine_) engine_->Begin(key.time);
  }
  if (view_ && !view_->started()) view_->Start(key.time);
  if (signals_ && !signals_->started()) signals_->Start(key.time);
  // The one place that decides what is due next: the earliest event before
  // the trace's next one, by (time, class); at equal (time, class) the
  // source first in sources_.
  for (;;) {
    EventSource* due = nullptr;
    EventKey first;
    for (const std::unique_ptr<EventSource>& source : sources_) {
      const std::optional<EventKey> next = source->NextKey();
      if (!next || !(*next < key)) continue;
      if (!due || next->time < first.time || (next->time == first.time && next->cls < first.cls)) {
        due = source.get();
        first = *next;
      }
    }
    if (!due) break;
    due->RunNext(pool);
  }
  last_time_ = std::max(last_time_, key.time);
}

void World::RunAllCompletions(const Pool& pool) {
  if (plain_) return;  // the replay's SharedCompletions hold its completions
  if (queue_) {
    // Until nothing can move: a request still unfinished then is stuck.
    RunQueue(std::nullopt, std::numeric_limits<double>::infinity(), pool);
    if (table_) journeys_->Finish(*table_, queue_->StalledBehindCompletions());
  }
  while (!events_.empty()) RunInternal(pool);
  if (timeline_) timeline_->End(last_time_, pool.size());
  if (service_) service_->CloseAt(last_time_);
  if (engine_) engine_->Close(timeline_->span_end());
}

void World::Finish(const Pool& pool) {
  RunAllCompletions(pool);
  std::vector<std::uint64_t> cached(caches_.instances(), 0);
  for (InstanceIndex i = 0; i < cached.size(); ++i)
    if (pool.IsRegistered(i)) cached[i] = caches_.CachedBlocks(i, pool.at(i).registration);
  metrics_.SetCachedBlocks(std::move(cached));
  metrics_.Finish();
}

void World::ServePrefix(const Hint& hint, InstanceIndex chosen, const Pool& pool) {
  if (hint.prefix_blocks.empty()) return;
  BlockCache& cache = caches_.For(chosen, pool.at(chosen).registration);
  metrics_.RecordPrefix(hint.prefix_blocks.size(), cache.MatchPrefix(hint.prefix_blocks));
  cache.Insert(hint.prefix_blocks);
}

bool World::Decide(const TraceEvent& arrival, std::uint64_t seq,
                   std::string_view request_id, const Pool& pool,
                   const InstanceTable& table, RoutedArrival* routed) {
  if (queue_) {
    DecideQueued(arrival, seq, request_id, pool, table);
    return false;
  }
  candidates_.Sync(pool, table);
  std::span<const Candidate> candidates = candidates_.candidates();
  if (candidates.empty()) {
    if (arrival.proxy_choice.present())
      CompareWithProxy(arrival, seq, request_id, nullptr, "no_instances", candidates,
                       arrival.hint);
    metrics_.RecordNoInstances(seq);
    if (timeline_) timeline_->Decision(arrival.t.value, nullptr, "no_instances", 0);
    if (log_)
      log_->Write(DecisionRecord{request_.info->name, seq, &arrival.t, request_id, nullptr,
                                 "no_instances", 0, {}, &arrival.proxy_choice});
    return false;
  }

  if (wants_arrival_info_) strategy_->BeforeSelect(ArrivalInfo{seq, arrival.t.value, request_id});
  const Hint& hint = signals_ ? SignalledHint(arrival.hint, candidates) : arrival.hint;
  Choice choice = index_ ? index_->SelectIndexed(candidates, hint)
                         : strategy_->Select(candidates, hint);
  if (arrival.proxy_choice.present())
    CompareWithProxy(arrival, seq, request_id,
                     choice.refused ? nullptr : &candidates[choice.index].id,
                     choice.refused ? "refused" : choice.reason, candidates, hint);
  if (choice.refused) {
    Refuse(arrival, seq, request_id, candidates.size());
    return false;
  }
  if (choice.index >= candidates.size())
    throw std::logic_error(fmt::format("strategy {} chose candidate {} of {}",
                                       request_.info->name, choice.index,
                                       candidates.size()));
  metrics_.RecordDecision(seq, candidates, hint, choice);
  InstanceIndex chosen = candidates[choice.index].instance;
  if (log_)
    log_->Write(DecisionRecord{request_.info->name, seq, &arrival.t, request_id,
                               &table.Id(chosen), choice.reason, candidates.size(), {},
                               &arrival.proxy_choice});
  if (timeline_) timeline_->Decision(arrival.t.value, &chosen, choice.reason, candidates.size());
  // With the engine model its own caches measure prefix reuse.
  if (!engine_) ServePrefix(arrival.hint, chosen, pool);

  if (engine_) {
    AdmitToEngine(arrival, seq, chosen, pool, table);
    return false;
  }
  CountRouted(chosen, choice.index, arrival.duration.has_value());
  if (arrival.duration) {
    AddInFlight("field \"duration\": ");
    // The candidate's, which Sync keeps equal to the pool's (a new
    // registration changes the pool's version): its line is already read.
    const std::uint64_t registration = candidates[choice.index].registration;
    if (timeline_) timeline_->Routed(chosen, arrival.t.value);
    if (plain_) {
      *routed = Completion{chosen, registration};
      return true;
    }
    if (service_) AdmitToService(arrival, chosen, registration, pool);
    else ScheduleCompletion(arrival.t.value + *arrival.duration, Completion{chosen, registration});
  }
  return false;
}

inline void World::CountRouted(InstanceIndex routed, std::size_t slot, bool has_duration) {
  if (inflight_.size() <= routed) inflight_.resize(routed + 1, -1);
  std::int64_t& n = inflight_[routed];
  switch (inflight_source_) {
    case InflightSource::kSpec:
      // The trace format's lifecycle counter: a request with a duration
      // moves a known counter; unknown stays unknown.
      if (!has_duration || n < 0) return;
      ++n;
      break;
    case InflightSource::kHeartbeats:
      return;  // the Proxy counts nothing
    case InflightSource::kCounted:
    case InflightSource::kCountedFromZero:
      // begin_request: (inflight or 0) + 1, for every routed request; one
      // without a duration never ends.
      if (n < 0) {
        n = 1;
        candidates_.MarkChanged(routed);
        if (!has_duration) metrics_.RecordNeverCompleted();
        return;
      }
      ++n;
      if (!has_duration) metrics_.RecordNeverCompleted();
      break;
  }
  if (plain_) candidates_.ChosenInflightChanged(slot, n);
  else candidates_.MarkChanged(routed);
}

[[gnu::noinline]] void World::CompareWithProxy(const TraceEvent& arrival, std::uint64_t seq,
                                               std::string_view request_id,
                                               const std::string_view* chosen,
                                               std::string_view reason,
                                               std::span<const Candidate> candidates,
                                               const Hint& hint) {
  std::optional<std::string_view> recorded;
  if (arrival.proxy_choice.state == FieldUpdate<std::string_view>::State::kValue)
    recorded = arrival.proxy_choice.value;
  metrics_.proxy_choices().Record(recorded, chosen ? std::optional(*chosen) : std::nullopt, seq,
                                  arrival.t.value, request_id, reason, candidates, hint);
}

[[gnu::noinline]] void World::Refuse(const TraceEvent& arrival, std::uint64_t seq,
                                     std::string_view request_id, std::size_t candidates,
                                     std::string_view queue_depths) {
  metrics_.RecordRefused(seq);
  if (timeline_) timeline_->Decision(arrival.t.value, nullptr, "refused", candidates);
  if (log_)
    log_->Write(DecisionRecord{request_.info->name, seq, &arrival.t, request_id, nullptr,
                               "refused", candidates, queue_depths, &arrival.proxy_choice});
}

[[gnu::noinline]] void World::AdmitToEngine(const TraceEvent& arrival, std::uint64_t seq,
                                            InstanceIndex chosen, const Pool& pool,
                                            const InstanceTable& table) {
  // Every arrival the engine takes completes: it counts as one with a
  // duration.
  const std::size_t slot = 0;  // unused: the candidates are marked, not patched
  CountRouted(chosen, slot, true);
  AddInFlight("");
  const std::uint64_t registration = pool.at(chosen).registration;
  const double t = arrival.t.value;
  timeline_->Routed(chosen, t);
  if (!engine_->Admit(arrival, seq, chosen, registration, pool.at(chosen).speed, table))
    Complete(Completion{chosen, registration}, t, pool);  // rejected at once
}

const Hint& World::SignalledHint(const Hint& traced, std::span<const Candidate> candidates) {
  signalled_.queues.clear();
  signalled_.any_overflow = false;
  signalled_.raw_json.clear();
  signalled_.prefix_blocks.assign(traced.prefix_blocks.begin(), traced.prefix_blocks.end());
  for (const Candidate& c : candidates) {
    const QueueLoad* from_trace = traced.QueueFor(c.instance);
    const EngineSignals* published = signals_->Seen(c.instance);
    if (!published) {
      if (from_trace) signalled_.queues.push_back({c.instance, *from_trace});
      continue;
    }
    Hint::Entry entry{c.instance, from_trace ? *from_trace : QueueLoad{}};
    for (std::size_t k = 0; k < published->value.size(); ++k) {
      const std::size_t key = EngineSignals::kFirstKey + k;
      entry.load.value[key] = published->value[k];
      entry.load.known[key] = true;
      entry.load.overflow[key] = false;
    }
    signalled_.queues.push_back(entry);
  }
  for (const Hint::Entry& e : signalled_.queues)
    for (bool overflow : e.load.overflow) signalled_.any_overflow = signalled_.any_overflow || overflow;
  return signalled_;
}

[[gnu::noinline]] void World::AdmitToService(const TraceEvent& arrival, InstanceIndex chosen,
                                             std::uint64_t registration, const Pool& pool) {
  if (auto started = service_->Admit(chosen, arrival.t.value, *arrival.duration,
                                     pool.at(chosen).speed, registration))
    ScheduleCompletion(started->end, Completion{chosen, started->registration});
}

}  // namespace lbsim

namespace lbsim {

Choice World::SelectQueued(double t, std::span<const Candidate> candidates) {
  signalled_.queues.clear();
  signalled_.any_overflow = false;
  if (reads_queue_loads_) {
    // The index reads the few loads that can matter; the run's metrics
    // read the listed ones only for a candidate without a signal of its own.
    queue_->PrepareTimed(t);
    if (index_ && !metrics_.ReadsHintQueues(candidates.size())) {
      if (std::optional<Choice> choice = index_->SelectTimed(candidates, signalled_, *queue_))
        return *choice;
    }
    queue_->ListTimed(signalled_);
  }
  return index_ ? index_->SelectIndexed(candidates, signalled_)
                : strategy_->Select(candidates, signalled_);
}

[[gnu::noinline]] void World::DecideQueued(const TraceEvent& arrival, std::uint64_t seq,
                                           std::string_view request_id, const Pool& pool,
                                           const InstanceTable& table) {
  // The Instance's times: from the engine (which needs the tokens), the
  // slots (the duration), else the arrival (both times), for every request
  // that may be routed.
  const bool completions = arrival.route == RequestRoute::kCompletions;
  if (engine_) {
    engine_->RequireTokens(arrival);
  } else if (!arrival.duration) {
    throw FieldError(fmt::format(
        "field \"duration\": expected a number >= 0 ({}): the Proxy queue model (--proxy-queue) "
        "needs it on every arrival, but it is missing",
        service_ ? "the request's service time on a slot" : "time from forwarding to the end"));
  } else if (!service_ && !completions && !arrival.ttft) {
    throw FieldError(
        "field \"ttft\": expected a number >= 0 (time from forwarding to the first chunk): the "
        "Proxy queue model (--proxy-queue) needs it on every chat-route arrival without --engine "
        "or --slots, but it is missing");
  }
  table_ = &table;
  const double t = arrival.t.value;
  const std::uint64_t record = journeys_->Arrived(seq, arrival.t, queue_->Clock(t), request_id);
  candidates_.Sync(pool, table);
  std::span<const Candidate> candidates = candidates_.candidates();
  if (candidates.empty()) {
    // select_instance returns before it builds a hint.
    if (arrival.proxy_choice.present())
      CompareWithProxy(arrival, seq, request_id, nullptr, "no_instances", candidates,
                       arrival.hint);
    metrics_.RecordNoInstances(seq);
    if (timeline_) timeline_->Decision(t, nullptr, "no_instances", 0);
    if (log_)
      log_->Write(DecisionRecord{request_.info->name, seq, &arrival.t, request_id, nullptr,
                                 "no_instances", 0, {}, &arrival.proxy_choice});
    journeys_->NotRouted(record, "no_instances", table);
    return;
  }
  if (wants_arrival_info_) strategy_->BeforeSelect(ArrivalInfo{seq, t, request_id});
  // hint["queue_depths"] = queue_pressure_snapshot(), in place of the
  // trace's; its prefix blocks stay.
  signalled_.raw_json.clear();
  signalled_.prefix_blocks.assign(arrival.hint.prefix_blocks.begin(),
                                  arrival.hint.prefix_blocks.end());
  std::string_view snapshot;
  if (log_) {
    snapshot_json_.clear();
    queue_->AppendSnapshotJson(t, table, snapshot_json_);
    snapshot = snapshot_json_;
  }
  const Choice choice = SelectQueued(t, candidates);
  if (arrival.proxy_choice.present())
    CompareWithProxy(arrival, seq, request_id,
                     choice.refused ? nullptr : &candidates[choice.index].id,
                     choice.refused ? "refused" : choice.reason, candidates, signalled_);
  if (choice.refused) {
    Refuse(arrival, seq, request_id, candidates.size(), snapshot);
    journeys_->NotRouted(record, "refused", table);
    return;
  }
  if (choice.index >= candidates.size())
    throw std::logic_error(fmt::format("strategy {} chose candidate {} of {}",
                                       request_.info->name, choice.index, candidates.size()));
  metrics_.RecordDecision(seq, candidates, signalled_, choice);
  const InstanceIndex chosen = candidates[choice.index].instance;
  const std::uint64_t registration = candidates[choice.index].registration;
  if (log_)
    log_->Write(DecisionRecord{request_.info->name, seq, &arrival.t, request_id,
                               &table.Id(chosen), choice.reason, candidates.size(), snapshot,
                               &arrival.proxy_choice});
  if (timeline_) timeline_->Decision(t, &chosen, choice.reason, candidates.size());
  // With the engine model its own caches measure prefix reuse.
  if (!engine_) ServePrefix(arrival.hint, chosen, pool);
  // begin_request, then enqueue_prepare.
  CountRouted(chosen, choice.index, true);
  AddInFlight("field \"duration\": ");
  if (timeline_) timeline_->Routed(chosen, t);
  journeys_->Routed(record, chosen);
  ProxyQueue::Request r;
  r.instance = chosen;
  r.registration = registration;
  r.record = record;
  if (!engine_ && !service_) {
    r.duration = *arrival.duration;
    r.ttft = arrival.ttft.value_or(r.duration);
  }
  r.completions = completions;
  r.input_tokens = arrival.input_tokens.value_or(0);
  r.knowledge_tokens = arrival.knowledge_tokens.value_or(0);
  const std::uint32_t task = queue_->Enqueue(r, t);
  candidates_.MarkChanged(chosen);  // its standing queue load
  if (!engine_ && !service_) return;
  // What the Instance model serves once the queue forwards it.
  if (held_.size() <= task) held_.resize(task + 1);
  HeldArrival& held = held_[task];
  held.seq = seq;
  held.arrival = t;
  held.duration = arrival.duration.value_or(0.0);
  held.input_tokens = arrival.input_tokens.value_or(0);
  held.output_tokens = arrival.output_tokens.value_or(0);
  held.prefix_blocks.assign(arrival.hint.prefix_blocks.begin(), arrival.hint.prefix_blocks.end());
}

}  // namespace lbsim
