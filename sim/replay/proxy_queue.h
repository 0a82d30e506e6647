#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/replay/candidate_set.h"
#include "sim/replay/fifo.h"
#include "sim/replay/laned_heap.h"
#include "sim/replay/queue_predictor.h"
#include "sim/replay/slot_ring.h"
#include "sim/replay/response_listener.h"
#include "strategies/hint.h"
#include "strategies/timed_queue_loads.h"
#include "traces/instance_table.h"

namespace lbsim {

// Which fields of its queue snapshot a Proxy version hands least_load in
// hint["queue_depths"] (../shared/spec/proxy-queue.md).
enum class QueueSnapshotFields : std::uint8_t {
  kNone,  // df8382d, 2f1019a, 55b32e9: no queue hint
  kFour,  // 8b116b6: the four depths (queue_depth_snapshot)
  kNine,  // d4bd47f, 28e857c: the depths and the predicted pressure
};

// How one Proxy version's queue manager behaves, and its operator settings.
struct ProxyQueueConfig {
  std::uint32_t ready_concurrency = 8;    // READY_CONCURRENCY: ready workers
  std::uint32_t prepare_concurrency = 8;  // PREPARE_CONCURRENCY
  QueuePredictor predictor;
  QueueSnapshotFields fields = QueueSnapshotFields::kNine;
  // 28e857c (0927797): a request that ends while still pending (the
  // completions route) leaves the pending list; before, it never did.
  bool clears_ended_pending = true;
  // The trace's time unit is ms (the Proxy's clock is in seconds).
  bool milliseconds = false;
  // The Instance model (--engine, --slots) reports each forwarded request's
  // first token and end through the queue's ResponseListener side, tagged
  // with Progress::task; otherwise they follow forwarding by Request::ttft
  // and Request::duration.
  bool instance_reports_times = false;
  // A forwarded request waiting for an older one polls every 5 ms: past
  // this many polls in all, the run stops with a UsageError (a wait that
  // long cannot be followed poll by poll; ~2^30 take about a minute).
  std::uint64_t max_dispatch_polls = std::uint64_t{1} << 30;
};

// One Instance's queue state as the Proxy's snapshot reports it.
struct QueueSnapshotEntry {
  std::uint64_t prepare_queue_depth = 0;
  std::uint64_t ready_queue_depth = 0;
  std::uint64_t active_prepare = 0;
  std::uint64_t active_ready = 0;
  std::uint64_t pending_prefill_count = 0;
  std::uint64_t active_decode_count = 0;
  double next_slot_ready_in_ms = 0.0;
  double prefill_free_in_ms = 0.0;
  double predicted_total_backlog_ms = 0.0;
};

// The Proxy's queue manager (CacheRoute proxy/queue/manager.py) between one
// strategy run and its Instances, in the Proxy's own clock: time.time()
// reads 1000000 + (t - t0) seconds at trace time t (t0: the first event's
// time), and every timer and prediction is that clock's float arithmetic.
// Per Instance, from its first request: arrivals wait on the prepare queue
// until the instant's arrivals are all in; they are released to the ready
// queue (at most 256) in order, each reserving its predicted prefill; 8
// ready workers dequeue one at a time at least 20 ms apart and hold a
// request until it ends; a dequeued request is forwarded only when it is
// the oldest one without a first token (polled every 5 ms). A chat
// request's first token comes `ttft` after forwarding; a completions
// request has none before its end, and before 0927797 stays pending forever
// (every later request on its Instance is stuck). With
// instance_reports_times the Instance model says when those come instead
// (ResponseListener, in trace time; a chat response that ends without a
// first token gets its first chunk at its end).
class ProxyQueue : public ResponseListener, public StandingQueueLoads, public TimedQueueLoads {
 public:
  // A request the queue holds, as the caller identifies it.
  struct Request {
    InstanceIndex instance = 0;
    std::uint64_t registration = 0;  // the caller's tag, handed back at the end
    std::uint64_t record = 0;        // the caller's record of it
    double ttft = 0.0;               // trace units, from forwarding (unless
    double duration = 0.0;           // the Instance model reports them)
    bool completions = false;        // the completions route
    std::uint64_t input_tokens = 0;
    std::uint64_t knowledge_tokens = 0;
  };
  // What happened to a request, in the Proxy's clock.
  struct Progress {
    enum class Kind : std::uint8_t { kForwarded, kFirstToken, kEnded };
    Kind kind = Kind::kForwarded;
    std::uint64_t record = 0;
    InstanceIndex instance = 0;
    std::uint64_t registration = 0;
    double clock = 0.0;
    std::uint32_t task = 0;  // the tag of ResponseListener calls about it
  };

  explicit ProxyQueue(const ProxyQueueConfig& config);

  // The trace's time unit is ms; before Begin.
  void set_milliseconds(bool ms) { config_.milliseconds = ms; }
  // Sets t0 from the first event's trace time; once, before anything else.
  void Begin(double first_time);
  bool begun() const { return begun_; }
  // The Proxy's clock at trace time `t`, and back.
  double Clock(double t) const;
  double TraceTime(double clock) const;

  // The handler's synchronous part after select and begin_request, at trace
  // time `t`: the request joins its Instance's prepare queue. Returns its
  // task number (Progress::task), which is reused once the request ends.
  std::uint32_t Enqueue(const Request& request, double t);

  // The clock of the next queue event, if any.
  std::optional<double> NextClock() const {
    if (events_.empty()) return std::nullopt;
    return events_.Top().clock;
  }
  // Runs the next queue event; each request it forwards, gives a first
  // token or ends is appended to `out` (cleared first). Returns the
  // Instance whose counts (StandingLoad) the event may have changed, if
  // any: a dispatch poll changes none.
  std::optional<InstanceIndex> RunNext(std::vector<Progress>& out);

  // ResponseListener (instance_reports_times): the forwarded request
  // `task` got its first token / ended at trace time `t`, no earlier than
  // the event being run. A completions request's first token is ignored:
  // the Proxy reads its one chunk at the end.
  void FirstToken(std::uint64_t task, double t) override;
  void Ended(std::uint64_t task, double t) override;

  // The snapshot at trace time `t`, as queue_pressure_snapshot builds it:
  // Instances in the order of their first request, with `entries` parallel
  // to `instances`.
  void Snapshot(double t, std::vector<InstanceIndex>& instances,
                std::vector<QueueSnapshotEntry>& entries) const;
  // The snapshot least_load reads at trace time `t`, in two parts. The
  // hint gets the entries (the configured fields) of the Instances with a
  // predicted backlog now, the only fields that change with time; every
  // other Instance's entry is its standing load (StandingLoad: its counts,
  // backlog 0), which changes only at the events of its Instance (RunNext
  // and Enqueue name it). An idle Instance has neither: its entry (every
  // field 0) adds only zero terms to a score its known inflight already
  // gives (every Instance the queue has seen counts its requests), so
  // leaving it out changes no decision.
  void FillHint(double t, Hint& hint);
  // FillHint in two steps: the snapshot at trace time `t`, then its entries
  // listed in `hint`, or read on demand (TimedQueueLoads); valid until the
  // next event or PrepareTimed.
  void PrepareTimed(double t);
  void ListTimed(Hint& hint) const;
  std::span<const InstanceIndex> Instances() const override;
  void LoadNow(InstanceIndex i, QueueLoad& load) const override;
  // StandingQueueLoads: the configured fields of Instance `i` with a
  // backlog of 0, or null while every count is 0 (or the version passes no
  // queue hint).
  const QueueLoad* StandingLoad(InstanceIndex i) const override;
  // The snapshot at trace time `t` as JSON, in the Proxy's key order and
  // number forms (counts as integers, *_ms as Python floats); `names`
  // gives each Instance's id. Empty when the version passes no queue hint.
  void AppendSnapshotJson(double t, const InstanceTable& names, std::string& out) const;

  // Requests never forwarded or never ended so far.
  std::uint64_t unfinished() const { return unfinished_; }
  // Whether some Instance's oldest pending request is a completions request
  // that ended but stayed pending (before 0927797): every later request on
  // it waits forever.
  bool StalledBehindCompletions() const;

 private:
  using TaskId = std::uint32_t;
  struct Task {
    Request request;
    bool first_token_reported = false;  // instance_reports_times
  };
  struct PendingTask {
    TaskId task;
    double service_s;  // max(0, int(predicted ms) / 1000)
    bool ended = false;
  };
  enum class Fetcher : std::uint8_t { kWaitingTask, kSleeping, kNoWorker };
  struct InstanceState {
    InstanceIndex index = 0;
    bool seen = false;
    Fifo<TaskId> prepare_queue;  // enqueued this instant, not yet taken
    Fifo<TaskId> prepare_stage;  // taken, not yet on the ready queue
    bool putter_blocked = false; // prepare_stage.front() is reserved, waiting for room
    Fifo<TaskId> ready;
    Fifo<PendingTask> pending;   // reserved, no first token, reservation order
    std::uint64_t decode = 0;
    std::uint32_t active_ready = 0;
    Fetcher fetcher = Fetcher::kWaitingTask;
    double last_fetch = 0.0;
    // The slots' free times (the oldest is the lowest) and the
    // prefill-free time, which is always the highest of them.
    SlotRing slots;
    double prefill_free = 0.0;
    bool release_scheduled = false;
    bool backlogged = false;  // in backlogged_, at backlog_place
    std::size_t backlog_place = 0;
    double backlog_end = 0.0;  // the clock at which its backlog reaches 0
  };
  // kRelease: the instant's arrivals are prepared and released to the
  // ready queue (reserving their prefill); kTake: then a waiting worker may
  // take one.
  enum class EventKind : std::uint8_t {
    kRelease, kTake, kFetcherWake, kPoll, kFirstChunk, kEnd };
  // The kinds before kFirstChunk have a lane each (LanedHeap).
  static constexpr std::size_t kLanedKinds = 4;
  // Events at one clock run releases first (the arrival handlers' own
  // tasks run before the steps that the timers due then wake), then in
  // the order they were scheduled.
  struct Event {
    double clock;
    bool release;
    std::uint64_t seq;
    EventKind kind;
    std::uint32_t target;  // the Instance (kRelease, kTake, kFetcherWake) or the task
    bool operator>(const Event& o) const {
      if (clock != o.clock) return clock > o.clock;
      if (release != o.release) return o.release;
      return seq > o.seq;
    }
  };

  InstanceState& StateOf(InstanceIndex i);
  void Push(double clock, EventKind kind, std::uint32_t target);
  void Release(InstanceIndex i, double now);
  void TryRelease(InstanceState& s, double now);
  void Reserve(InstanceState& s, TaskId id, double now);
  void Rebuild(InstanceState& s, double now);
  // `s` may have a backlog from `now`: it joins backlogged_ until its end.
  void MayBacklog(InstanceState& s, double now);
  // Drops from backlogged_ the Instances whose backlog ended by `now`.
  void DropEndedBacklogs(double now);
  // A waiting worker takes the oldest ready task, if any; whether it did.
  bool TryDequeue(InstanceIndex i, double now, std::vector<Progress>& out);
  void WorkerFreed(InstanceIndex i, double now, std::vector<Progress>& out);
  void LockTaken(InstanceIndex i, double now, std::vector<Progress>& out);
  // A worker's poll for its request's dispatch turn.
  void Poll(TaskId id, double now, std::vector<Progress>& out);
  void Forward(TaskId id, double now, std::vector<Progress>& out);
  void FirstChunk(TaskId id, double now, std::vector<Progress>& out);
  void End(TaskId id, double now, std::vector<Progress>& out);
  // The snapshot entry of `s` at the Proxy's clock `now`, and its counts
  // alone (the *_ms fields 0).
  QueueSnapshotEntry EntryOf(const InstanceState& s, double now) const;
  QueueSnapshotEntry CountsOf(const InstanceState& s) const;
  // Sets `load` to the configured fields of `e`.
  void SetLoad(const QueueSnapshotEntry& e, QueueLoad& load) const;
  TaskId NewTask(const Request& r);
  void FreeTask(TaskId id);

  ProxyQueueConfig config_;
  bool begun_ = false;
  double t0_ = 0.0;
  std::deque<InstanceState> instances_;  // by InstanceIndex; a deque: states stay put
  std::vector<InstanceIndex> order_;  // Instances by first request
  // Instances that may have a backlog: each joins when a reservation or a
  // rebuild moves its times and leaves once the clock passes its end.
  std::vector<InstanceIndex> backlogged_;
  // Each backlog's end as it was set, earliest first (a min-heap; an entry
  // whose Instance has since moved its end is passed over).
  struct BacklogEnd {
    double clock;
    InstanceIndex instance;
    bool operator>(const BacklogEnd& o) const { return clock > o.clock; }
  };
  std::vector<BacklogEnd> backlog_ends_;
  // StandingLoad's, by Instance (a deque: a load's address stays).
  mutable std::deque<QueueLoad> standing_;
  std::vector<Task> tasks_;
  std::vector<TaskId> free_tasks_;
  LanedHeap<Event, kLanedKinds> events_;  // by (clock, release, seq)
  std::uint64_t seq_ = 0;
  std::uint64_t polls_ = 0;  // dispatch polls scheduled
  double now_ = 0.0;  // the clock of the event being run, or last run
  double timed_now_ = 0.0;  // the clock of the last PrepareTimed
  std::uint64_t unfinished_ = 0;
};

// Appends `x` as Python's repr() writes a float ("0.0", "47.626",
// "1e+16", "1.5e-05").
void AppendPythonFloat(std::string& out, double x);

}  // namespace lbsim
