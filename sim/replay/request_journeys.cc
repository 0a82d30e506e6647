#include "sim/replay/request_journeys.h"

#include <optional>

namespace lbsim {
namespace {

std::optional<double> Known(double t) {
  return std::isnan(t) ? std::nullopt : std::optional<double>(t);
}

}  // namespace

std::uint64_t RequestJourneys::Arrived(std::uint64_t, const TraceTime& t, double clock,
                                       std::string_view request) {
  Journey& j = journeys_.emplace_back();
  j.arrival = t;
  j.arrival_clock = clock;
  if (log_) j.request.assign(request);
  ++stats_.requests;
  return next_++;
}

void RequestJourneys::Routed(std::uint64_t record, InstanceIndex instance) {
  Journey& j = At(record);
  j.instance = instance;
  j.routed = true;
}

void RequestJourneys::NotRouted(std::uint64_t record, std::string_view outcome,
                                const InstanceTable& table) {
  Journey& j = At(record);
  j.settled = true;
  j.outcome = outcome;
  Drain(table);
}

void RequestJourneys::Forwarded(std::uint64_t record, double t, double clock) {
  Journey& j = At(record);
  j.forwarded = t;
  ++stats_.forwarded;
  stats_.waits.push_back((clock - j.arrival_clock) * clock_unit_);
}

void RequestJourneys::FirstToken(std::uint64_t record, double t, double clock) {
  Journey& j = At(record);
  j.first_token = t;
  stats_.client_ttfts.push_back((clock - j.arrival_clock) * clock_unit_);
}

void RequestJourneys::Ended(std::uint64_t record, double t, double clock,
                            const InstanceTable& table) {
  Journey& j = At(record);
  j.end = t;
  j.settled = true;
  j.outcome = j.rejected ? "rejected" : "done";
  ++stats_.done;
  stats_.end_to_ends.push_back((clock - j.arrival_clock) * clock_unit_);
  Drain(table);
}

void RequestJourneys::Finish(const InstanceTable& table, bool stalled_behind_completions) {
  for (Journey& j : journeys_) {
    if (j.settled) continue;
    // Never forwarded or never ended: no time of its journey counts.
    j.settled = true;
    j.outcome = "stuck";
    j.forwarded = j.first_token = j.end = NAN;
    ++stats_.stuck;
  }
  stats_.stalled_behind_completions = stats_.stuck > 0 && stalled_behind_completions;
  Drain(table);
}

void RequestJourneys::Drain(const InstanceTable& table) {
  while (!journeys_.empty() && journeys_.front().settled) {
    if (log_) Write(journeys_.front(), table);
    journeys_.pop_front();
    ++first_;
  }
}

void RequestJourneys::Write(const Journey& j, const InstanceTable& table) const {
  RequestRecord r;
  r.request = j.request;
  r.strategy = strategy_;
  r.instance = j.routed ? &table.Id(j.instance) : nullptr;
  r.arrival = &j.arrival;
  r.forwarded = Known(j.forwarded);
  r.first_token = Known(j.first_token);
  r.end = Known(j.end);
  r.outcome = j.outcome;
  log_->Write(r);
}

}  // namespace lbsim
