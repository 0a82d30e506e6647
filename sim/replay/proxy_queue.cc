#include "sim/replay/proxy_queue.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/json/json_write.h"
#include "base/number_text.h"

namespace lbsim {
namespace {

// The Proxy clock's value at the trace's first event.
constexpr double kClockStart = 1000000.0;
// asyncio.Queue(maxsize=256): the prepare and ready queues' room.
constexpr std::size_t kQueueRoom = 256;
// _READY_DEQUEUE_INTERVAL_S and _wait_dispatch_turn's poll.
constexpr double kDequeueInterval = 0.02;
constexpr double kDispatchPoll = 0.005;

// Python's max(a, b): a unless b > a.
double PyMax(double a, double b) { return b > a ? b : a; }

}  // namespace

void AppendPythonFloat(std::string& out, double x) {
  if (std::isnan(x)) {
    out += "NaN";
    return;
  }
  if (std::isinf(x)) {
    out += x > 0 ? "Infinity" : "-Infinity";
    return;
  }
  if (x == 0.0) {
    out += std::signbit(x) ? "-0.0" : "0.0";
    return;
  }
  // The shortest digits that read back as x, and the decimal point's place
  // (x = 0.DIGITS x 10^point), as repr() has them.
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<std::size_t>(r.ptr - buf));
  const bool negative = sci.front() == '-';
  if (negative) sci.remove_prefix(1);
  const std::size_t e = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e))
    if (c != '.') digits += c;
  int exponent = 0;
  std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+'), sci.data() + sci.size(), exponent);
  const int point = exponent + 1;
  if (negative) out += '-';
  if (point > -4 && point <= 16) {
    if (point <= 0) {
      out += "0.";
      out.append(static_cast<std::size_t>(-point), '0');
      out += digits;
    } else if (static_cast<std::size_t>(point) >= digits.size()) {
      out += digits;
      out.append(static_cast<std::size_t>(point) - digits.size(), '0');
      out += ".0";
    } else {
      out.append(digits, 0, static_cast<std::size_t>(point));
      out += '.';
      out.append(digits, static_cast<std::size_t>(point));
    }
    return;
  }
  out += digits[0];
  if (digits.size() > 1) {
    out += '.';
    out.append(digits, 1);
  }
  const int shown = point - 1;
  out += fmt::format("e{}{:02d}", shown < 0 ? '-' : '+', shown < 0 ? -shown : shown);
}

ProxyQueue::ProxyQueue(const ProxyQueueConfig& config) : config_(config) {}

void ProxyQueue::Begin(double first_time) {
  begun_ = true;
  t0_ = first_time;
}

double ProxyQueue::Clock(double t) const {
  return config_.milliseconds ? kClockStart + (t - t0_) / 1000.0 : kClockStart + (t - t0_);
}

double ProxyQueue::TraceTime(double clock) const {
  return config_.milliseconds ? t0_ + (clock - kClockStart) * 1000.0
                              : t0_ + (clock - kClockStart);
}

ProxyQueue::InstanceState& ProxyQueue::StateOf(InstanceIndex i) {
  while (instances_.size() <= i) {
    const auto index = static_cast<InstanceIndex>(instances_.size());
    instances_.emplace_back().index = index;
    standing_.emplace_back();
  }
  return instances_[i];
}

void ProxyQueue::Push(double clock, EventKind kind, std::uint32_t target) {
  if (kind == EventKind::kPoll && ++polls_ > config_.max_dispatch_polls)
    throw UsageError(fmt::format(
        "--proxy-queue: the run needs more than {} dispatch polls (a forwarded request polls "
        "every 5 ms while an older one at its Instance waits for its first chunk; here past "
        "t = {}{}): a wait that long cannot be followed poll by poll",
        config_.max_dispatch_polls, NumberText(config_.milliseconds ? clock * 1000.0 : clock),
        config_.milliseconds ? " ms" : " s"));
  const Event e{clock, kind == EventKind::kRelease, seq_++, kind, target};
  // A step at the arrival's instant, a wake 20 ms after a fetch and a poll
  // every 5 ms come in order, each kind in its lane; a response's times
  // do not.
  if (kind == EventKind::kFirstChunk || kind == EventKind::kEnd) events_.Push(e);
  else events_.Push(e, static_cast<std::size_t>(kind));
}

ProxyQueue::TaskId ProxyQueue::NewTask(const Request& r) {
  TaskId id;
  if (!free_tasks_.empty()) {
    id = free_tasks_.back();
    free_tasks_.pop_back();
    tasks_[id] = Task{};
  } else {
    id = static_cast<TaskId>(tasks_.size());
    tasks_.emplace_back();
  }
  tasks_[id].request = r;
  return id;
}

void ProxyQueue::FreeTask(TaskId id) { free_tasks_.push_back(id); }

std::uint32_t ProxyQueue::Enqueue(const Request& request, double t) {
  const double now = Clock(t);
  InstanceState& s = StateOf(request.instance);
  if (!s.seen) {
    // _start_workers_for_instance: the reservation state at time.time(),
    // the workers started (one of them waits on the empty ready queue).
    s.seen = true;
    order_.push_back(request.instance);
    s.slots = SlotRing(config_.ready_concurrency);
    s.slots.Reset(now);
    s.prefill_free = now;
    s.fetcher = Fetcher::kWaitingTask;
    s.last_fetch = 0.0;
  }
  if (s.prepare_queue.size() >= kQueueRoom)
    throw InputError(fmt::format(
        "more than {} arrivals at one instant routed to one Instance under --proxy-queue: the "
        "Proxy's prepare queue holds {}, and its handlers would block (not modelled)",
        kQueueRoom, kQueueRoom));
  const TaskId id = NewTask(request);
  s.prepare_queue.push_back(id);
  ++unfinished_;
  if (!s.release_scheduled) {
    s.release_scheduled = true;
    Push(now, EventKind::kRelease, request.instance);
    Push(now, EventKind::kTake, request.instance);
  }
  return id;
}

std::optional<InstanceIndex> ProxyQueue::RunNext(std::vector<Progress>& out) {
  out.clear();
  const Event e = events_.Pop();
  now_ = e.clock;
  // The Instance of the event: its target, or its task's.
  const bool of_instance = e.kind == EventKind::kRelease || e.kind == EventKind::kTake ||
                           e.kind == EventKind::kFetcherWake;
  const InstanceIndex instance = of_instance ? e.target : tasks_[e.target].request.instance;
  switch (e.kind) {
    case EventKind::kRelease: Release(e.target, e.clock); break;
    case EventKind::kTake:
      // A worker that finds nothing changes no count.
      if (!TryDequeue(e.target, e.clock, out)) return std::nullopt;
      break;
    case EventKind::kFetcherWake:
      instances_[e.target].fetcher = Fetcher::kWaitingTask;
      if (!TryDequeue(e.target, e.clock, out)) return std::nullopt;
      break;
    case EventKind::kPoll:
      // Forwarding changes no count.
      Poll(e.target, e.clock, out);
      return std::nullopt;
    case EventKind::kFirstChunk: FirstChunk(e.target, e.clock, out); break;
    case EventKind::kEnd: End(e.target, e.clock, out); break;
  }
  return instance;
}

void ProxyQueue::Release(InstanceIndex i, double now) {
  // The prepare-dispatch loop takes every queued task; without knowledge
  // injection each prepares at once and is released in prepare order.
  InstanceState& s = instances_[i];
  s.release_scheduled = false;
  for (TaskId id : s.prepare_queue) s.prepare_stage.push_back(id);
  s.prepare_queue.clear();
  TryRelease(s, now);
}

void ProxyQueue::TryRelease(InstanceState& s, double now) {
  // Each released task is reserved, then put on the ready queue; a full
  // queue holds the putter (reserved) and every task behind it.
  while (!s.putter_blocked && !s.prepare_stage.empty()) {
    const TaskId id = s.prepare_stage.front();
    Reserve(s, id, now);
    if (s.ready.size() < kQueueRoom) {
      s.ready.push_back(id);
      s.prepare_stage.pop_front();
    } else {
      s.putter_blocked = true;
    }
  }
}

void ProxyQueue::Reserve(InstanceState& s, TaskId id, double now) {
  const Request& r = tasks_[id].request;
  const double service = config_.predictor.ServiceSeconds(r.input_tokens, r.knowledge_tokens);
  // The lowest slot (the ring's oldest), then the shared prefill chain.
  const double start = PyMax(PyMax(now, s.slots.Oldest()), s.prefill_free);
  const double first_token = start + service;
  s.slots.Write(first_token);
  s.prefill_free = first_token;
  MayBacklog(s, now);
  // Only int(service * 1000) ms is kept for rebuilds.
  const double kept_ms = std::trunc(service * 1000.0);
  s.pending.push_back(PendingTask{id, PyMax(0.0, kept_ms / 1000.0), false});
}

void ProxyQueue::Rebuild(InstanceState& s, double now) {
  // _recompute_pending_from_now: every slot and the cursor at now, then
  // each pending task in reservation order on the lowest slot.
  s.slots.Reset(now);
  double cursor = now;
  for (const PendingTask& p : s.pending) {
    const double start = PyMax(PyMax(now, s.slots.Oldest()), cursor);
    const double first_token = start + p.service_s;
    s.slots.Write(first_token);
    cursor = first_token;
  }
  s.prefill_free = cursor;
  MayBacklog(s, now);
}

void ProxyQueue::MayBacklog(InstanceState& s, double now) {
  // Ended ones go first, so that the ends held stay few when no decision
  // reads them (round_robin).
  DropEndedBacklogs(now);
  // Its backlog is positive until the clock reaches its latest time (the
  // difference of two distinct doubles is never 0).
  s.backlog_end = PyMax(s.slots.Oldest(), s.prefill_free);
  backlog_ends_.push_back(BacklogEnd{s.backlog_end, s.index});
  std::push_heap(backlog_ends_.begin(), backlog_ends_.end(), std::greater<>());
  if (s.backlogged) return;
  s.backlogged = true;
  s.backlog_place = backlogged_.size();
  backlogged_.push_back(s.index);
}

bool ProxyQueue::TryDequeue(InstanceIndex i, double now, std::vector<Progress>& out) {
  InstanceState& s = instances_[i];
  if (s.fetcher != Fetcher::kWaitingTask || s.ready.empty()) return false;
  const TaskId id = s.ready.front();
  s.ready.pop_front();
  s.last_fetch = now;
  ++s.active_ready;
  if (s.putter_blocked) {
    // The blocked put completes; the next task is reserved and waits for
    // room in its turn.
    s.ready.push_back(s.prepare_stage.front());
    s.prepare_stage.pop_front();
    s.putter_blocked = false;
    TryRelease(s, now);
  }
  // _wait_dispatch_turn's first look, at once.
  if (!s.pending.front().ended && s.pending.front().task == id) Forward(id, now, out);
  else if (!s.pending.front().ended) Push(now + kDispatchPoll, EventKind::kPoll, id);
  // The fetch lock passes to an idle worker, if any.
  if (s.active_ready < config_.ready_concurrency) LockTaken(i, now, out);
  else s.fetcher = Fetcher::kNoWorker;
  return true;
}

void ProxyQueue::LockTaken(InstanceIndex i, double now, std::vector<Progress>& out) {
  InstanceState& s = instances_[i];
  const double wait = kDequeueInterval - (now - s.last_fetch);
  if (wait > 0) {
    s.fetcher = Fetcher::kSleeping;
    Push(now + wait, EventKind::kFetcherWake, i);
    return;
  }
  s.fetcher = Fetcher::kWaitingTask;
  TryDequeue(i, now, out);
}

void ProxyQueue::WorkerFreed(InstanceIndex i, double now, std::vector<Progress>& out) {
  InstanceState& s = instances_[i];
  --s.active_ready;
  if (s.fetcher == Fetcher::kNoWorker) LockTaken(i, now, out);
}

void ProxyQueue::Poll(TaskId id, double now, std::vector<Progress>& out) {
  // _wait_dispatch_turn: forward when it is the oldest pending request,
  // else sleep 5 ms. Behind a completions request that ended but stays
  // pending nothing can change: the task waits for ever, unpolled.
  Task& task = tasks_[id];
  InstanceState& s = instances_[task.request.instance];
  const PendingTask& head = s.pending.front();
  if (!head.ended && head.task == id) {
    Forward(id, now, out);
    return;
  }
  if (!head.ended) Push(now + kDispatchPoll, EventKind::kPoll, id);
}

void ProxyQueue::Forward(TaskId id, double now, std::vector<Progress>& out) {
  const Request& r = tasks_[id].request;
  out.push_back(
      Progress{Progress::Kind::kForwarded, r.record, r.instance, r.registration, now, id});
  if (config_.instance_reports_times) return;
  const double scale = config_.milliseconds ? 1000.0 : 1.0;
  if (!r.completions) Push(now + r.ttft / scale, EventKind::kFirstChunk, id);
  Push(now + r.duration / scale, EventKind::kEnd, id);
}

void ProxyQueue::FirstToken(std::uint64_t task, double t) {
  const TaskId id = static_cast<TaskId>(task);
  Task& k = tasks_[id];
  if (k.request.completions) return;
  k.first_token_reported = true;
  Push(std::max(Clock(t), now_), EventKind::kFirstChunk, id);
}

void ProxyQueue::Ended(std::uint64_t task, double t) {
  const TaskId id = static_cast<TaskId>(task);
  const double at = std::max(Clock(t), now_);
  if (!tasks_[id].request.completions && !tasks_[id].first_token_reported)
    Push(at, EventKind::kFirstChunk, id);
  Push(at, EventKind::kEnd, id);
}

void ProxyQueue::FirstChunk(TaskId id, double now, std::vector<Progress>& out) {
  const Request& r = tasks_[id].request;
  InstanceState& s = instances_[r.instance];
  out.push_back(Progress{Progress::Kind::kFirstToken, r.record, r.instance, r.registration, now, id});
  // _mark_task_first_token_and_recompute: the task (the oldest pending
  // one, forwarded as such) decodes; the chain is rebuilt from now.
  ++s.decode;
  s.pending.pop_front();
  Rebuild(s, now);
}

void ProxyQueue::End(TaskId id, double now, std::vector<Progress>& out) {
  const Request r = tasks_[id].request;
  InstanceState& s = instances_[r.instance];
  if (r.completions) {
    // Its one chunk, at the end, is the client's first token; the task is
    // still the oldest pending one.
    out.push_back(Progress{Progress::Kind::kFirstToken, r.record, r.instance, r.registration, now, id});
    if (config_.clears_ended_pending) {
      s.pending.pop_front();
      Rebuild(s, now);
    } else {
      s.pending.front().ended = true;
    }
  } else {
    --s.decode;
  }
  out.push_back(Progress{Progress::Kind::kEnded, r.record, r.instance, r.registration, now, id});
  --unfinished_;
  FreeTask(id);
  WorkerFreed(r.instance, now, out);
}

bool ProxyQueue::StalledBehindCompletions() const {
  for (InstanceIndex i : order_)
    if (!instances_[i].pending.empty() && instances_[i].pending.front().ended) return true;
  return false;
}

QueueSnapshotEntry ProxyQueue::CountsOf(const InstanceState& s) const {
  QueueSnapshotEntry e;
  e.prepare_queue_depth = s.prepare_queue.size();
  e.ready_queue_depth = s.ready.size();
  e.active_prepare = std::min<std::uint64_t>(s.prepare_stage.size(), config_.prepare_concurrency);
  e.active_ready = s.active_ready;
  e.pending_prefill_count = s.pending.size();
  e.active_decode_count = s.decode;
  return e;
}

QueueSnapshotEntry ProxyQueue::EntryOf(const InstanceState& s, double now) const {
  QueueSnapshotEntry e = CountsOf(s);
  e.next_slot_ready_in_ms = PyMax(0.0, s.slots.Oldest() - now) * 1000.0;
  e.prefill_free_in_ms = PyMax(0.0, s.prefill_free - now) * 1000.0;
  e.predicted_total_backlog_ms = PyMax(e.next_slot_ready_in_ms, e.prefill_free_in_ms);
  return e;
}

void ProxyQueue::Snapshot(double t, std::vector<InstanceIndex>& instances,
                          std::vector<QueueSnapshotEntry>& entries) const {
  const double now = Clock(t);
  instances.assign(order_.begin(), order_.end());
  entries.clear();
  for (InstanceIndex i : order_) entries.push_back(EntryOf(instances_[i], now));
}

void ProxyQueue::FillHint(double t, Hint& hint) {
  PrepareTimed(t);
  ListTimed(hint);
}

void ProxyQueue::ListTimed(Hint& hint) const {
  hint.queues.clear();
  hint.any_overflow = false;
  for (InstanceIndex i : Instances()) {
    Hint::Entry& entry = hint.queues.emplace_back();
    entry.instance = i;
    LoadNow(i, entry.load);
  }
}

void ProxyQueue::PrepareTimed(double t) {
  const double now = Clock(t);
  timed_now_ = now;
  DropEndedBacklogs(now);
}

void ProxyQueue::DropEndedBacklogs(double now) {
  // Time only brings a backlog down, until a reservation or a rebuild
  // (which queue a later end).
  while (!backlog_ends_.empty() && backlog_ends_.front().clock <= now) {
    const InstanceIndex i = backlog_ends_.front().instance;
    std::pop_heap(backlog_ends_.begin(), backlog_ends_.end(), std::greater<>());
    backlog_ends_.pop_back();
    InstanceState& s = instances_[i];
    if (!s.backlogged || s.backlog_end > now) continue;  // gone, or moved later
    s.backlogged = false;
    backlogged_[s.backlog_place] = backlogged_.back();
    instances_[backlogged_.back()].backlog_place = s.backlog_place;
    backlogged_.pop_back();
  }
}

std::span<const InstanceIndex> ProxyQueue::Instances() const {
  if (config_.fields == QueueSnapshotFields::kNone) return {};
  return backlogged_;
}

void ProxyQueue::LoadNow(InstanceIndex i, QueueLoad& load) const {
  SetLoad(EntryOf(instances_[i], timed_now_), load);
}

const QueueLoad* ProxyQueue::StandingLoad(InstanceIndex i) const {
  if (config_.fields == QueueSnapshotFields::kNone || i >= instances_.size()) return nullptr;
  const QueueSnapshotEntry e = CountsOf(instances_[i]);
  if (e.prepare_queue_depth == 0 && e.ready_queue_depth == 0 && e.active_prepare == 0 &&
      e.active_ready == 0 && e.pending_prefill_count == 0 && e.active_decode_count == 0)
    return nullptr;
  QueueLoad& load = standing_[i];
  SetLoad(e, load);
  return &load;
}

void ProxyQueue::SetLoad(const QueueSnapshotEntry& e, QueueLoad& load) const {
  // kQueueFields order: queue_depth (never sent), then the keys below.
  const double values[] = {0.0,
                           static_cast<double>(e.active_prepare),
                           static_cast<double>(e.active_ready),
                           static_cast<double>(e.prepare_queue_depth),
                           static_cast<double>(e.ready_queue_depth),
                           static_cast<double>(e.pending_prefill_count),
                           static_cast<double>(e.active_decode_count),
                           e.predicted_total_backlog_ms};
  const std::size_t last = config_.fields == QueueSnapshotFields::kNine ? 7 : 4;
  for (std::size_t k = 1; k <= last; ++k) {
    load.value[k] = values[k];
    load.known[k] = true;
  }
}

void ProxyQueue::AppendSnapshotJson(double t, const InstanceTable& names,
                                    std::string& out) const {
  if (config_.fields == QueueSnapshotFields::kNone) return;
  const double now = Clock(t);
  std::uint64_t prepare_total = 0, ready_total = 0;
  for (InstanceIndex i : order_) {
    prepare_total += instances_[i].prepare_queue.size();
    ready_total += instances_[i].ready.size();
  }
  out += fmt::format("{{\"prepare_queue_depth\":{},\"ready_queue_depth\":{},\"per_instance\":{{",
                     prepare_total, ready_total);
  bool first = true;
  for (InstanceIndex i : order_) {
    const QueueSnapshotEntry e = EntryOf(instances_[i], now);
    if (!first) out += ',';
    first = false;
    AppendJsonString(out, names.Id(i));
    out += fmt::format(
        ":{{\"prepare_queue_depth\":{},\"ready_queue_depth\":{},\"active_prepare\":{},"
        "\"active_ready\":{}",
        e.prepare_queue_depth, e.ready_queue_depth, e.active_prepare, e.active_ready);
    if (config_.fields == QueueSnapshotFields::kNine) {
      out += fmt::format(",\"pending_prefill_count\":{},\"active_decode_count\":{}",
                         e.pending_prefill_count, e.active_decode_count);
      out += ",\"next_slot_ready_in_ms\":";
      AppendPythonFloat(out, e.next_slot_ready_in_ms);
      out += ",\"prefill_free_in_ms\":";
      AppendPythonFloat(out, e.prefill_free_in_ms);
      out += ",\"predicted_total_backlog_ms\":";
      AppendPythonFloat(out, e.predicted_total_backlog_ms);
    }
    out += '}';
  }
  out += "}}";
}

}  // namespace lbsim
