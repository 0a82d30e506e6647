#include "sim/world.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace lbsim {

World::World(const StrategyRequest& request)
    : request_(request), strategy_(request.Make()),
      metrics_(request.info->reasons) {}

void World::SetInflight(InstanceIndex i, std::optional<std::int64_t> value) {
  if (inflight_.size() <= i) inflight_.resize(i + 1, -1);
  inflight_[i] = value ? *value : -1;
}

std::optional<std::int64_t> World::Inflight(InstanceIndex i) const {
  if (i >= inflight_.size() || inflight_[i] < 0) return std::nullopt;
  return inflight_[i];
}

void World::Complete(const Completion& c, const Pool& pool) {
  if (!pool.IsRegistered(c.instance) ||
      pool.at(c.instance).registration != c.registration)
    return;  // routed to a registration that was removed
  std::int64_t& n = inflight_[c.instance];
  if (n > 0) --n;  // unknown (-1) stays unknown; 0 stays 0
}

void World::RunCompletionsBefore(const EventKey& key, const Pool& pool) {
  while (!completions_.empty() && completions_.top().key < key) {
    Completion c = completions_.top().payload;
    completions_.Pop();
    Complete(c, pool);
  }
}

void World::RunAllCompletions(const Pool& pool) {
  while (!completions_.empty()) {
    Completion c = completions_.top().payload;
    completions_.Pop();
    Complete(c, pool);
  }
}

void World::Decide(const TraceEvent& arrival, std::uint64_t seq,
                   std::string_view request_id, const Pool& pool,
                   const InstanceTable& table) {
  const std::vector<InstanceIndex>& alive = pool.Alive();
  DecisionRecord record{request_.info->name, seq, &arrival.t, request_id,
                        nullptr, "no_instances", alive.size()};
  if (alive.empty()) {
    metrics_.RecordNoInstances(seq);
    if (log_) log_->Write(record);
    return;
  }

  candidates_.clear();
  for (InstanceIndex i : alive) {
    const Pool::Entry& e = pool.at(i);
    candidates_.push_back(Candidate{i, table.Id(i), e.weight, Inflight(i), e.qps_1m});
  }
  Choice choice = strategy_->Select(candidates_, arrival.hint);
  if (choice.index >= candidates_.size())
    throw std::logic_error(fmt::format("strategy {} chose candidate {} of {}",
                                       request_.info->name, choice.index,
                                       candidates_.size()));
  metrics_.RecordDecision(seq, candidates_, arrival.hint, choice);
  InstanceIndex chosen = candidates_[choice.index].instance;
  record.instance = &table.Id(chosen);
  record.reason = choice.reason;
  if (log_) log_->Write(record);

  if (arrival.duration) {
    if (inflight_.size() <= chosen) inflight_.resize(chosen + 1, -1);
    if (inflight_[chosen] >= 0) ++inflight_[chosen];
    EventKey due{arrival.t.value + *arrival.duration, EventClass::kCompletion,
                 completion_seq_++};
    completions_.Push(due, Completion{chosen, pool.at(chosen).registration});
  }
}

}  // namespace lbsim
