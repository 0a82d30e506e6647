#include "sim/replay/engine_stats.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/errors.h"
#include "sim/replay/window_series.h"

namespace lbsim {

void EngineCounters::Add(const EngineCounters& o) {
  served += o.served;
  rejected += o.rejected;
  preemptions += o.preemptions;
  preempted_requests += o.preempted_requests;
  input_tokens += o.input_tokens;
  prefix_hit_tokens += o.prefix_hit_tokens;
  prefill_tokens += o.prefill_tokens;
  decode_tokens += o.decode_tokens;
  output_tokens += o.output_tokens;
  steps += o.steps;
  busy += o.busy;
  slo_ttft += o.slo_ttft;
  slo_tpot += o.slo_tpot;
  slo_e2e += o.slo_e2e;
  slo_all += o.slo_all;
  slo_output_tokens += o.slo_output_tokens;
}

void EngineLatencies::Merge(const EngineLatencies& o) {
  queue_delay.Merge(o.queue_delay);
  ttft.Merge(o.ttft);
  tpot.Merge(o.tpot);
  e2e.Merge(o.e2e);
  itl.Merge(o.itl);
}

const EngineCounters& EngineStats::counters(InstanceIndex i) const {
  static const EngineCounters none;
  return i < counters_.size() ? counters_[i] : none;
}

const EngineLatencies& EngineStats::latencies(InstanceIndex i) const {
  static const EngineLatencies none;
  return i < latencies_.size() ? latencies_[i] : none;
}

std::int64_t EngineStats::IndexOf(double t) const { return WindowIndex(t, window_); }

EngineStats::WindowCell& EngineStats::Cell(std::int64_t window, InstanceIndex i) {
  const auto k = static_cast<std::size_t>(std::max<std::int64_t>(window - first_, 0));
  if (k >= WindowSeries::kMaxWindows) RefuseWindows(window_, WindowSeries::kMaxWindows);
  if (windows_.size() <= k) windows_.resize(k + 1);
  std::vector<WindowCell>& cells = windows_[k];
  if (cells.size() <= i) {
    cells_ += i + 1 - cells.size();
    if (cells_ > max_cells_) RefuseWindowFigures(window_, max_cells_);
    cells.resize(i + 1);
  }
  return cells[i];
}

void EngineStats::Begin(double t) {
  if (window_ > 0.0) first_ = IndexOf(t);
}

void EngineStats::AddArea(InstanceIndex i, const LevelTracker::Stretch& s,
                          double WindowCell::*area) {
  if (!(window_ > 0.0) || !(s.to > s.from) || s.level == 0) return;
  const double level = static_cast<double>(s.level);
  const std::int64_t last = IndexOf(s.to);
  std::int64_t k = IndexOf(s.from);
  if (k < first_) {  // before the run's first window: counted in it, in one step
    const double hi = std::min(s.to, static_cast<double>(first_) * window_);
    if (hi > s.from) Cell(first_, i).*area += level * (hi - s.from);
    k = first_;
  }
  for (; k <= last; ++k) {
    const double lo = std::max(s.from, static_cast<double>(k) * window_);
    const double hi = std::min(s.to, static_cast<double>(k + 1) * window_);
    if (hi > lo) Cell(k, i).*area += level * (hi - lo);
  }
}

void EngineStats::SetBatch(InstanceIndex i, double t, std::int64_t level) {
  AddArea(i, batch_.Add(i, t, level - batch_.Level(i)), &WindowCell::batch_area);
}

void EngineStats::SetKv(InstanceIndex i, double t, std::int64_t level) {
  AddArea(i, kv_.Add(i, t, level - kv_.Level(i)), &WindowCell::kv_area);
}

void EngineStats::OutputTokens(InstanceIndex i, double t, std::uint64_t n) {
  if (window_ > 0.0 && n > 0) Cell(IndexOf(t), i).output_tokens += n;
}

void EngineStats::FirstToken(InstanceIndex i, double t, double ttft) {
  if (!(window_ > 0.0)) return;
  WindowCell& c = Cell(IndexOf(t), i);
  c.ttft_sum += ttft;
  ++c.ttft_count;
}

void EngineStats::Close(double t) {
  batch_.CloseAt(t, [&](InstanceIndex i, const LevelTracker::Stretch& s) {
    AddArea(i, s, &WindowCell::batch_area);
  });
  kv_.CloseAt(t, [&](InstanceIndex i, const LevelTracker::Stretch& s) {
    AddArea(i, s, &WindowCell::kv_area);
  });
}

}  // namespace lbsim
