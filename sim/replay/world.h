#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/replay/candidate_set.h"
#include "sim/replay/engine_fleet.h"
#include "sim/replay/event_queue.h"
#include "sim/replay/event_source.h"
#include "sim/replay/internal_event.h"
#include "sim/replay/load_timeline.h"
#include "sim/replay/metric_view.h"
#include "sim/replay/pool.h"
#include "sim/replay/proxy_queue.h"
#include "sim/replay/request_journeys.h"
#include "sim/replay/run_metrics.h"
#include "sim/replay/service_model.h"
#include "sim/replay/shared_completions.h"
#include "sim/replay/sim_options.h"
#include "strategies/block_cache.h"
#include "strategies/registry.h"
#include "traces/decision_log.h"
#include "traces/instance_table.h"
#include "traces/request_log.h"
#include "traces/trace_event.h"
#include "traces/trace_reader.h"

namespace lbsim {

// (kMaxInFlight, traces/trace_reader.h, bounds the requests one strategy
// run keeps in flight.)

// One strategy's own view of a run: its strategy state, the inflight
// counters and Instance KV caches its own decisions move, its pending
// completions and its metrics. Registration state comes from the shared Pool. The what-if parts
// (service model or LLM engines, stale-metrics and engine-signal views,
// load timeline) exist only when their options are on; with every option
// off a World replays trace format v1.
class World {
 public:
  // `inflight`: where the inflight values its strategy reads come from, as
  // the run's Proxy profile says (spec: the trace format's rules).
  explicit World(const StrategyRequest& request, const SimOptions& options = {},
                 InflightSource inflight = InflightSource::kSpec);

  const StrategyRequest& request() const { return request_; }
  // Changes where inflight values come from; only before the first event.
  void set_inflight_source(InflightSource inflight) { inflight_source_ = inflight; }
  // Makes `profile` the Proxy this world replays: its inflight source and,
  // with the Proxy queue model, its queue manager. Only before the first
  // event; throws UsageError when the queue model is on and `profile` has
  // no queue (spec).
  void set_proxy(const ProxyProfile& profile);
  const Strategy& strategy() const { return *strategy_; }
  RunMetrics& metrics() { return metrics_; }

  // Sends this world's decisions to `log` (not owned; may be nullptr).
  void set_log(DecisionSink* log) { log_ = log; }
  // Sends the Proxy queue model's request log to `log` (not owned; may be
  // nullptr); only with that model, before the first event.
  void set_request_log(RequestSink* log) {
    if (journeys_) journeys_ = std::make_unique<RequestJourneys>(log, request_.info->name);
  }
  // Sends its LLM engine log to `log` (not owned; may be nullptr); only
  // with the engine model.
  void set_engine_log(EngineLog* log) {
    if (engine_) engine_->set_log(log, std::string(request_.info->name));
  }
  // The trace's header, before the first event: the engine model's time
  // unit and prefix unit. Throws FieldError for a prefix unit the engine
  // cannot hold.
  void SetTrace(const TraceHeader& header) {
    time_unit_ms_ = header.time_unit == "ms";
    if (queue_) queue_->set_milliseconds(time_unit_ms_);
    if (journeys_) journeys_->set_clock_unit(time_unit_ms_ ? 1000.0 : 1.0);
    if (engine_) engine_->SetTrace(header.time_unit, header.prefix_block_tokens);
  }
  // Whether Decide reads its request_id argument (for the log or the
  // strategy); when not, any id will do.
  bool ReadsRequestIds() const { return log_ != nullptr || wants_arrival_info_ || queue_; }

  // Runs every pending internal event (completion, metric snapshot or
  // publication) ordered before `key`, the next trace event's key; nothing
  // in a plain world.
  void RunEventsBefore(const EventKey& key, const Pool& pool) {
    if (!plain_) RunDueEventsBefore(key, pool);
  }
  // Runs every pending completion (the trace has ended; metric events stop)
  // and closes the what-if measurements at the run's last event.
  void RunAllCompletions(const Pool& pool);
  // Ends the run: runs every pending completion and closes the metrics,
  // which then hold each Instance's cached blocks.
  void Finish(const Pool& pool);

  // The what-if results, handed over once the run is over; null when off.
  std::shared_ptr<const LoadTimeline> TakeTimeline() { return std::move(timeline_); }
  std::shared_ptr<const ServiceModel> TakeService() { return std::move(service_); }
  std::shared_ptr<const EngineStats> TakeEngine() {
    return engine_ ? engine_->TakeStats() : nullptr;
  }
  // Whether the run's strategy reads what engine signals publish.
  bool ReadsEngineSignals() const { return strategy_->ReadsEngineSignals(); }
  std::shared_ptr<const ProxyQueueStats> TakeQueueStats() {
    return journeys_ ? std::make_shared<const ProxyQueueStats>(journeys_->TakeStats()) : nullptr;
  }

  // Sets (or with nullopt, forgets) the inflight counter of `i`.
  void SetInflight(InstanceIndex i, std::optional<std::int64_t> value);
  // The pool's load fields of `i` (qps_1m) changed.
  void PoolLoadChanged(InstanceIndex i) { candidates_.MarkChanged(i); }
  std::optional<std::int64_t> Inflight(InstanceIndex i) const;

  // Makes the decision for arrival number `seq`. A plain world (its
  // options not timed(): no what-if part, no charts) keeps no events: an
  // arrival with a duration comes with `routed`, this run's record of it
  // in the replay's SharedCompletions, and Decide fills it and returns true
  // when it routed the arrival, for CompleteRouted to complete once due.
  // Throws InputError when it would put more than kMaxInFlight requests in
  // flight.
  bool Decide(const TraceEvent& arrival, std::uint64_t seq,
              std::string_view request_id, const Pool& pool,
              const InstanceTable& table, RoutedArrival* routed = nullptr);
  // The strategy's choice among `candidates` at trace time `t` under the
  // Proxy queue's snapshot (signalled_ holds its listed part, if any).
  Choice SelectQueued(double t, std::span<const Candidate> candidates);
  // Decide's part under the Proxy queue model, out of line.
  void DecideQueued(const TraceEvent& arrival, std::uint64_t seq, std::string_view request_id,
                    const Pool& pool, const InstanceTable& table);
  // A plain world: completes an arrival Decide routed, now due. Plain
  // completions between two trace events may come in any order.
  void CompleteRouted(const RoutedArrival& routed, const Pool& pool);

 private:
  using Completion = RoutedArrival;
  // RunEventsBefore past its inline check.
  void RunDueEventsBefore(const EventKey& key, const Pool& pool);
  // What completion `c` does to an inflight counter.
  enum class Lowered : std::uint8_t {
    kNothing,     // no counter moves
    kDecremented, // a known counter fell by one (to `*counter`)
    kZeroed,      // an unknown counter became 0 (a Proxy that counts)
  };
  // Lowers the counter completion `c` lowers, per the profile: spec, the
  // counter of the registration it was routed to when it is known and
  // above 0; a Proxy that counts, max(0, counter - 1) of whatever
  // registration holds the id now (unknown counting as 0); df8382d, none.
  Lowered LowerCounter(const Completion& c, const Pool& pool, std::int64_t*& counter);
  // Counts `routed` (chosen at candidate `slot`) as the profile counts it.
  void CountRouted(InstanceIndex routed, std::size_t slot, bool has_duration);
  // Counts one more request in flight; past kMaxInFlight throws InputError,
  // its message starting with `where` (a field, or empty).
  void AddInFlight(std::string_view where);
  // Compares a decision (`chosen` null: none) with the arrival's recorded
  // proxy_choice (present).
  void CompareWithProxy(const TraceEvent& arrival, std::uint64_t seq, std::string_view request_id,
                        const std::string_view* chosen, std::string_view reason,
                        std::span<const Candidate> candidates, const Hint& hint);
  // A refused decision: logged and counted, nothing routed.
  void Refuse(const TraceEvent& arrival, std::uint64_t seq, std::string_view request_id,
              std::size_t candidates, std::string_view queue_depths = {});
  void Complete(const Completion& c, double time, const Pool& pool);
  // Runs the Proxy queue's events and the engines' in one time order,
  // those before `before` (every one when nullopt); each request end
  // completes a request at most at `latest`.
  void RunQueue(std::optional<EventKey> before, double latest, const Pool& pool);
  // Hands the request the queue forwarded (`p`, at trace time `t`) to the
  // Instance model (engine or slots), which reports its times to the queue.
  void ServeForwarded(const ProxyQueue::Progress& p, double t, const Pool& pool);
  // Complete's what-if part (load timeline, service model), out of line so
  // the common part inlines where completions run.
  void CompleteWhatIf(const Completion& c, double time, const Pool& pool);
  // Schedules a completion in key order (with a what-if part on).
  void ScheduleCompletion(double time, const Completion& c);
  // Runs the internal event at the top of events_.
  void RunInternal(const Pool& pool);
  // The event sources RunDueEventsBefore merges, one class each (world.cc).
  class InternalSource;
  class StaleViewSource;
  class SignalSource;
  // Hands `arrival`, routed to `chosen`, to its engine; out of line.
  void AdmitToEngine(const TraceEvent& arrival, std::uint64_t seq, InstanceIndex chosen,
                     const Pool& pool, const InstanceTable& table);
  // The hint strategies see for `arrival` among `candidates`: the trace's,
  // with engine signals published for a candidate in place of its values
  // of the keys they cover.
  const Hint& SignalledHint(const Hint& traced, std::span<const Candidate> candidates);
  // Hands `arrival` (with a duration), routed to `chosen`, to the service
  // model, which may hold it back; schedules its completion once it starts.
  // Out of line so Decide's common path stays small.
  void AdmitToService(const TraceEvent& arrival, InstanceIndex chosen,
                      std::uint64_t registration, const Pool& pool);
  // Serves the arrival's prefix_blocks from the chosen Instance's cache,
  // counting the leading blocks it already held, then caches them.
  void ServePrefix(const Hint& hint, InstanceIndex chosen, const Pool& pool);

  StrategyRequest request_;
  InflightSource inflight_source_;
  std::unique_ptr<Strategy> strategy_;
  IndexedSelect* index_;  // the strategy's fast path, or null
  bool wants_arrival_info_;  // call the strategy's BeforeSelect
  RunMetrics metrics_;
  DecisionSink* log_ = nullptr;
  std::vector<std::int64_t> inflight_;  // -1: unknown
  InstanceBlockCaches caches_;
  // Pending completions (and engine events) in exact key order when a
  // what-if part is on (they act on each other and on metric events
  // there). A plain world's are in the replay's SharedCompletions.
  bool plain_;  // no what-if part and no charts: no load timeline
  InternalEvents events_;
  std::size_t in_flight_ = 0;  // routed with a duration, not yet completed
  CandidateSet candidates_;

  // What-if parts; null when their options are off.
  std::unique_ptr<ServiceModel> service_;
  std::unique_ptr<MetricView> view_;
  std::unique_ptr<LoadTimeline> timeline_;
  std::unique_ptr<EngineFleet> engine_;
  std::unique_ptr<SnapshotView<EngineSignals>> signals_;
  // Internal events, stale-metrics view, engine signals: those on, in the
  // order they run at equal (time, class).
  std::vector<std::unique_ptr<EventSource>> sources_;
  Hint signalled_;  // SignalledHint's, or the Proxy queue's snapshot hint
  // The Proxy queue model: the queue manager, each request's journey, the
  // progress of a queue event, the run's Instances, the log line's snapshot.
  std::optional<ProxyQueueOptions> queue_options_;  // with the model on
  std::unique_ptr<ProxyQueue> queue_;
  bool reads_queue_loads_ = false;  // the strategy reads the queue's snapshot
  std::unique_ptr<RequestJourneys> journeys_;
  std::vector<ProxyQueue::Progress> progress_;
  // What the engine or the slots serve of each queued request, by task
  // number (reused as the queue reuses them).
  struct HeldArrival {
    std::uint64_t seq = 0;
    double arrival = 0.0;  // at the Proxy
    double duration = 0.0;
    std::uint64_t input_tokens = 0;
    std::uint64_t output_tokens = 0;
    std::vector<std::uint64_t> prefix_blocks;
  };
  std::vector<HeldArrival> held_;
  double engine_time_ = 0.0;  // of the latest engine event run
  const InstanceTable* table_ = nullptr;
  std::string snapshot_json_;
  bool time_unit_ms_ = false;  // the trace's times are in ms
  double last_time_ = 0.0;  // of the latest event run
};

}  // namespace lbsim
