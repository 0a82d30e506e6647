#include "traces/gen/arrival_stream.h"

#include <cmath>
#include <numbers>

#include "traces/gen/instance_schedule.h"

namespace lbsim {

ArrivalStream::ArrivalStream(const GenSpec& spec)
    : spec_(spec),
      gaps_(spec.seed, RandomStream::kArrivals),
      thinning_(spec.seed, RandomStream::kThinning) {
  peak_rate_ = spec.rate;
  if (spec.on_off) peak_rate_ = std::max(spec.rate, spec.on_off->off_rate);
  if (spec.diurnal) peak_rate_ = spec.rate * (1.0 + spec.diurnal->amplitude);
  for (const Burst& b : spec.bursts) bursts_.push_back({b, 0});
  AdvancePoisson();
  Settle();
}

double ArrivalStream::Rate(double t) const {
  if (spec_.on_off) {
    const OnOffCurve& c = *spec_.on_off;
    return std::fmod(t, c.on + c.off) < c.on ? spec_.rate : c.off_rate;
  }
  if (spec_.diurnal) {
    const DiurnalCurve& c = *spec_.diurnal;
    return spec_.rate *
           (1.0 + c.amplitude * std::cos(2.0 * std::numbers::pi * (t - c.peak_at) / c.period));
  }
  return spec_.rate;
}

void ArrivalStream::AdvancePoisson() {
  if (!(peak_rate_ > 0.0)) {
    poisson_ = kNever;
    return;
  }
  const bool thinned = spec_.on_off || spec_.diurnal;
  for (;;) {
    poisson_ += gaps_.Exponential(1.0 / peak_rate_);
    if (spec_.until && poisson_ >= *spec_.until) {
      poisson_ = kNever;
      return;
    }
    // Thinning (Lewis-Shedler): keep a candidate with probability rate(t) / peak.
    if (!thinned || thinning_.Uniform() * peak_rate_ < Rate(poisson_)) return;
  }
}

void ArrivalStream::Settle() {
  double next = poisson_;
  from_burst_ = bursts_.size();
  for (std::size_t k = 0; k < bursts_.size(); ++k) {
    if (bursts_[k].next >= bursts_[k].burst.count) continue;
    const double t = bursts_[k].Time();
    if (t < next) {
      next = t;
      from_burst_ = k;
    }
  }
  const bool limit_reached = spec_.arrivals > 0 && emitted_ >= spec_.arrivals;
  if (next == kNever || (spec_.until && next >= *spec_.until) || limit_reached) {
    done_ = true;
    return;
  }
  time_ = QuantizeTime(next);
}

void ArrivalStream::Pop() {
  ++emitted_;
  if (from_burst_ < bursts_.size()) ++bursts_[from_burst_].next;
  else AdvancePoisson();
  Settle();
}

DurationSampler::DurationSampler(const GenSpec& spec)
    : DurationSampler(spec.durations, spec.seed, RandomStream::kDurations) {}

DurationSampler::DurationSampler(const DurationSpec& dist, std::uint64_t seed, RandomStream stream)
    : spec_(dist),
      log_median_(dist.kind == DurationKind::kLognormal
                      ? std::log(dist.value) - dist.sigma * dist.sigma / 2
                      : 0.0),
      random_(seed, stream) {}

double DurationSampler::Next() {
  double d = spec_.value;
  if (spec_.kind == DurationKind::kExponential) d = random_.Exponential(spec_.value);
  if (spec_.kind == DurationKind::kLognormal)
    d = std::exp(log_median_ + spec_.sigma * random_.Normal());
  return QuantizeTime(d);
}

}  // namespace lbsim
