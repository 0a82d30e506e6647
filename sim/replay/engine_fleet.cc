#include "sim/replay/engine_fleet.h"

#include <fmt/format.h>

#include "base/errors.h"
#include "base/number_text.h"
#include "base/json/json_write.h"
#include "base/time_units.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

void AppendNumber(std::string& out, double x) { out += NumberText(x); }

// A time that may be missing (negative): null.
void AppendTime(std::string& out, double t) {
  if (t < 0.0) out += "null";
  else AppendNumber(out, t);
}

}  // namespace

EngineFleet::EngineFleet(std::shared_ptr<const EngineConfig> config, InternalEvents& events,
                         double window, std::uint64_t max_window_cells)
    : config_(std::move(config)),
      events_(events),
      unit_tokens_(config_->block_tokens),
      stats_(std::make_shared<EngineStats>(window, max_window_cells)) {}

void EngineFleet::SetTrace(const std::string& time_unit,
                           std::optional<std::uint64_t> prefix_block_tokens) {
  us_ = TraceUnitsPerMicrosecond(time_unit);
  limits_ = ResolveSlo(slo_, us_);
  unit_tokens_ = prefix_block_tokens.value_or(config_->block_tokens);
  if (unit_tokens_ % config_->block_tokens != 0)
    throw FieldError(fmt::format(
        "field \"prefix_block_tokens\": expected a multiple of the engine's block_tokens ({}, "
        "engine {}), got {}",
        config_->block_tokens, config_->name, unit_tokens_));
}

InstanceEngine& EngineFleet::EngineOf(InstanceIndex i) {
  if (slots_.size() <= i) slots_.resize(i + 1);
  Slot& s = slots_[i];
  if (!s.engine) s.engine = std::make_unique<InstanceEngine>(*config_, unit_tokens_);
  return *s.engine;
}

std::uint32_t EngineFleet::NewRequest() {
  if (!free_.empty()) {
    const std::uint32_t r = free_.back();
    free_.pop_back();
    return r;
  }
  requests_.emplace_back();
  return static_cast<std::uint32_t>(requests_.size() - 1);
}

void EngineFleet::RequireTokens(const TraceEvent& arrival) {
  for (const auto& [field, value] : {std::pair{"input_tokens", &arrival.input_tokens},
                                     std::pair{"output_tokens", &arrival.output_tokens}})
    if (!*value)
      throw FieldError(fmt::format(
          "field \"{}\": expected an integer >= 0 (a token count): the engine model (--engine) "
          "serves every arrival by its tokens, but it is missing",
          field));
  // One served request's own steps: each prefill chunk, each output token.
  // (Too long for the cache, it is rejected at once and costs nothing.)
  const std::uint64_t input = std::max<std::uint64_t>(*arrival.input_tokens, 1);
  const std::uint64_t output = *arrival.output_tokens;
  if (!FitsCache(*config_, input, output)) return;
  const std::uint64_t chunks = (input - 1) / config_->max_batched_tokens + 1;
  const bool by_output = output >= chunks;
  if (output <= kMaxEngineRequestSteps && chunks <= kMaxEngineRequestSteps - output) {
    run_steps_ += chunks + output;
    if (run_steps_ <= kMaxEngineRunSteps) return;
    throw FieldError(fmt::format(
        "field \"{}\": expected the trace's requests to need at most {} engine request-steps "
        "in all (the limit of one strategy run: each request's prefill chunks, input_tokens / "
        "max_batched_tokens {}, plus its output_tokens, summed), passed at this arrival",
        by_output ? "output_tokens" : "input_tokens", kMaxEngineRunSteps,
        config_->max_batched_tokens));
  }
  throw FieldError(fmt::format(
      "field \"{}\": expected a request the engine serves in at most {} steps (the limit: "
      "input_tokens / max_batched_tokens {} in prefill chunks, plus output_tokens), got {} "
      "input and {} output tokens",
      by_output ? "output_tokens" : "input_tokens", kMaxEngineRequestSteps,
      config_->max_batched_tokens, *arrival.input_tokens, output));
}

bool EngineFleet::Admit(const TraceEvent& arrival, std::uint64_t seq, InstanceIndex i,
                        std::uint64_t registration, double speed, const InstanceTable& table) {
  RequireTokens(arrival);
  return Admit(EngineArrival{seq, arrival.t.value, arrival.t.value, *arrival.input_tokens,
                             *arrival.output_tokens, arrival.hint.prefix_blocks, 0},
               i, registration, speed, table);
}

bool EngineFleet::Admit(const EngineArrival& arrival, InstanceIndex i,
                        std::uint64_t registration, double speed, const InstanceTable& table) {
  table_ = &table;
  EngineOf(i);
  const double t = arrival.t;
  const std::uint64_t seq = arrival.seq;
  const std::uint64_t input = std::max<std::uint64_t>(arrival.input_tokens, 1);
  const std::uint64_t output = arrival.output_tokens;
  const std::uint32_t id = NewRequest();
  EngineRequest& r = requests_[id];
  // A fresh request in a reused slot, keeping its vectors' memory.
  std::vector<std::uint64_t> units = std::move(r.units);
  std::vector<std::uint32_t> holds = std::move(r.holds);
  r = EngineRequest{};
  r.units = std::move(units);
  r.holds = std::move(holds);
  r.seq = seq;
  r.registration = registration;
  r.tag = arrival.tag;
  r.arrival = t;
  r.client_arrival = arrival.client_arrival;
  r.input = input;
  r.output = output;
  r.known = input;
  // Too long for the whole cache: the engine refuses it at once.
  if (!FitsCache(*config_, input, output)) {
    ++stats_->counters(i).rejected;
    if (log_) LogRequest(i, r, -1.0, t, true);
    free_.push_back(id);
    return false;
  }
  const std::size_t m = std::min<std::size_t>(arrival.prefix_blocks.size(), input / unit_tokens_);
  r.units.assign(arrival.prefix_blocks.begin(), arrival.prefix_blocks.begin() + m);
  r.units_size = static_cast<std::uint32_t>(m);
  r.holds.assign(m, KvCache::kNone);
  Slot& s = slots_[i];
  ++s.pending_prefill;
  const double pre = (config_->alpha_us[0] + config_->alpha_us[1] * static_cast<double>(input)) /
                     speed * us_;
  r.enqueued = t + pre;
  if (pre > 0.0) {
    ++s.preparing;
    s.preparing_tokens += input;
    events_.Push(r.enqueued, EventClass::kCompletion,
                 InternalEvent{InternalEvent::Kind::kEnqueue, i, id});
  } else {
    Enqueue(i, id, t);
  }
  return true;
}

void EngineFleet::Enqueue(InstanceIndex i, std::uint32_t r, double time) {
  InstanceEngine& engine = *slots_[i].engine;
  engine.Enqueue(requests_, r);
  if (engine.busy) return;
  engine.busy = true;
  events_.Push(time, EventClass::kEngineStep, InternalEvent{InternalEvent::Kind::kStepStart, i, 0});
}

void EngineFleet::Run(const InternalEvent& event, double time, const Pool& pool) {
  const InstanceIndex i = event.instance;
  switch (event.kind) {
    case InternalEvent::Kind::kEnqueue: {
      Slot& s = slots_[i];
      --s.preparing;
      s.preparing_tokens -= requests_[event.arg].input;
      Enqueue(i, static_cast<std::uint32_t>(event.arg), time);
      return;
    }
    case InternalEvent::Kind::kStepStart:
      StartStep(i, time, pool.at(i).speed);
      return;
    case InternalEvent::Kind::kStepEnd:
      EndStep(i, time);
      return;
    case InternalEvent::Kind::kCompletion:
      return;  // the World's
  }
}

void EngineFleet::StartStep(InstanceIndex i, double time, double speed) {
  Slot& s = slots_[i];
  InstanceEngine& engine = *s.engine;
  if (!engine.Form(requests_, time)) {
    engine.busy = false;
    return;
  }
  const InstanceEngine::Step& step = engine.step();
  EngineCounters& c = stats_->counters(i);
  c.preemptions += step.preempted.size();
  const double dt = (config_->beta_us[0] + config_->beta_us[1] * static_cast<double>(step.prefill_tokens) +
                     config_->beta_us[2] * static_cast<double>(step.decode_tokens)) /
                    speed * us_;
  if (!(time + dt > time))
    throw InputError(fmt::format(
        "engine {}: a step of {} us at time {} does not advance the clock (the trace's times "
        "are too large for the step's length in its unit)",
        config_->name, NumberText(dt / us_ * speed), NumberText(time)));
  s.step_start = time;
  s.step_speed = speed;
  ++s.steps;
  stats_->SetBatch(i, time, static_cast<std::int64_t>(step.batch_size));
  stats_->SetKv(i, time, static_cast<std::int64_t>(engine.cache().held()));
  events_.Push(time + dt, EventClass::kCompletion, InternalEvent{InternalEvent::Kind::kStepEnd, i, 0});
}

void EngineFleet::EndStep(InstanceIndex i, double time) {
  Slot& s = slots_[i];
  InstanceEngine& engine = *s.engine;
  const InstanceEngine::Step& step = engine.step();
  EngineCounters& c = stats_->counters(i);
  ++c.steps;
  c.busy += time - s.step_start;
  c.prefill_tokens += step.prefill_tokens;
  c.decode_tokens += step.decode_tokens;
  if (log_) LogStep(i, time);
  // BLIS's rule: the k-th token reaches the client k x alpha[2] after the
  // end of the step that made it (each gap between tokens carries one).
  const double post = config_->alpha_us[2] / s.step_speed * us_;
  engine.Finish(requests_, time, post);
  const InstanceEngine::Outcome& outcome = engine.outcome();
  EngineLatencies& latencies = stats_->latencies(i);
  c.output_tokens += outcome.tokens;
  stats_->OutputTokens(i, time, outcome.tokens);
  for (std::uint32_t id : outcome.first_tokens) {
    EngineRequest& r = requests_[id];
    --s.pending_prefill;
    ++s.decoding;
    r.first_out = time + post;
    latencies.ttft.Add(r.first_out - r.arrival);
    stats_->FirstToken(i, r.first_out, r.first_out - r.arrival);
    if (listener_) listener_->FirstToken(r.tag, r.first_out);
  }
  for (const auto& [gap, n] : outcome.gaps) latencies.itl.Add(gap, n);
  for (std::uint32_t id : outcome.finished)
    Served(i, id, time + static_cast<double>(std::max<std::uint64_t>(requests_[id].output, 1)) * post,
           post);
  stats_->SetBatch(i, time, 0);
  stats_->SetKv(i, time, static_cast<std::int64_t>(engine.cache().held()));
  if (engine.has_work()) {
    events_.Push(time, EventClass::kEngineStep, InternalEvent{InternalEvent::Kind::kStepStart, i, 0});
  } else {
    engine.busy = false;
  }
}

void EngineFleet::Served(InstanceIndex i, std::uint32_t id, double end, double post) {
  Slot& s = slots_[i];
  EngineRequest& r = requests_[id];
  if (r.output == 0) --s.pending_prefill;
  else --s.decoding;
  EngineCounters& c = stats_->counters(i);
  ++c.served;
  if (r.preemptions > 0) ++c.preempted_requests;
  c.input_tokens += r.input;
  c.prefix_hit_tokens += r.hit_tokens;
  EngineLatencies& l = stats_->latencies(i);
  l.queue_delay.Add(r.scheduled - r.arrival);
  l.e2e.Add(end - r.arrival);
  const double tpot =
      r.output >= 2 ? (r.last_token - r.first_token) / static_cast<double>(r.output - 1) + post : 0.0;
  if (r.output >= 2) l.tpot.Add(tpot);
  if (slo_.on()) {
    // From the client's side: its arrival at the Proxy, its first token
    // (none to make: its end).
    const double first = r.output ? r.first_out : end;
    const bool ttft = !limits_.ttft || first - r.client_arrival <= *limits_.ttft;
    const bool per_token = !limits_.tpot || r.output < 2 || tpot <= *limits_.tpot;
    const bool e2e = !limits_.e2e || end - r.client_arrival <= *limits_.e2e;
    c.slo_ttft += ttft;
    c.slo_tpot += per_token;
    c.slo_e2e += e2e;
    if (ttft && per_token && e2e) {
      ++c.slo_all;
      c.slo_output_tokens += r.output;
    }
  }
  if (log_) LogRequest(i, r, r.first_out, end, false);
  if (listener_) listener_->Ended(r.tag, end);
  else
    events_.Push(end, EventClass::kCompletion,
                 InternalEvent{InternalEvent::Kind::kCompletion, i, r.registration});
  free_.push_back(id);
}

void EngineFleet::Signals(std::vector<EngineSignals>& out, const Pool& pool) const {
  out.assign(pool.size(), EngineSignals{});
  for (InstanceIndex i = 0; i < slots_.size() && i < out.size(); ++i) {
    const Slot& s = slots_[i];
    if (!s.engine) continue;
    const InstanceEngine& engine = *s.engine;
    // Prefill work owed: requests without a token yet, each its step
    // overhead and its prompt tokens not yet computed.
    const std::uint64_t owed = s.preparing_tokens + engine.owed_prefill();
    const double speed = pool.at(i).speed;
    std::array<double, 7>& v = out[i].value;
    v[0] = static_cast<double>(s.preparing);            // active_prepare
    v[1] = static_cast<double>(engine.running().size());  // active_ready
    v[2] = 0.0;                                           // prepare_queue_depth
    v[3] = static_cast<double>(engine.waiting().size());  // ready_queue_depth
    v[4] = static_cast<double>(s.pending_prefill);        // pending_prefill_count
    v[5] = static_cast<double>(s.decoding);               // active_decode_count
    v[6] = (config_->beta_us[0] * static_cast<double>(s.pending_prefill) +
            config_->beta_us[1] * static_cast<double>(owed)) /
           speed / 1000.0;  // predicted_total_backlog_ms
  }
}

void EngineFleet::LogStep(InstanceIndex i, double end) {
  const Slot& s = slots_[i];
  const InstanceEngine::Step& step = s.engine->step();
  line_ = "{\"type\":\"step\",\"strategy\":";
  AppendJsonString(line_, strategy_);
  line_ += ",\"instance\":";
  AppendJsonString(line_, table_->Id(i));
  line_ += fmt::format(",\"step\":{},\"start\":", s.steps);
  AppendNumber(line_, s.step_start);
  line_ += ",\"end\":";
  AppendNumber(line_, end);
  line_ += fmt::format(",\"prefill_tokens\":{},\"decode_tokens\":{},\"batch\":[", step.prefill_tokens,
                       step.decode_tokens);
  for (std::size_t k = 0; k < step.batch_size; ++k)
    line_ += fmt::format("{}[{},{}]", k ? "," : "", requests_[s.engine->BatchRequest(k)].seq,
                         s.engine->BatchTokens(k, requests_));
  line_ += "],\"preempted\":[";
  for (std::size_t k = 0; k < step.preempted.size(); ++k)
    line_ += fmt::format("{}{}", k ? "," : "", requests_[step.preempted[k]].seq);
  line_ += fmt::format("],\"kv_blocks\":{}}}", s.engine->cache().held());
  log_->Line(line_);
}

void EngineFleet::LogRequest(InstanceIndex i, const EngineRequest& r, double first_token,
                             double end, bool rejected) {
  line_ = "{\"type\":\"request\",\"strategy\":";
  AppendJsonString(line_, strategy_);
  line_ += fmt::format(",\"request\":{},\"instance\":", r.seq);
  AppendJsonString(line_, table_->Id(i));
  line_ += ",\"arrival\":";
  AppendNumber(line_, r.arrival);
  line_ += ",\"enqueued\":";
  AppendTime(line_, rejected ? -1.0 : r.enqueued);
  line_ += ",\"scheduled\":";
  AppendTime(line_, r.scheduled);
  line_ += ",\"first_token\":";
  AppendTime(line_, first_token);
  line_ += ",\"end\":";
  AppendNumber(line_, end);
  line_ += fmt::format(
      ",\"input_tokens\":{},\"output_tokens\":{},\"prefix_hit_tokens\":{},\"prefill_tokens\":{},"
      "\"preemptions\":{},\"rejected\":{}}}",
      r.input, r.output, r.hit_tokens, r.prefill_tokens, r.preemptions, rejected ? "true" : "false");
  log_->Line(line_);
}

}  // namespace lbsim
