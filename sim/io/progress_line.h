#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

#include "traces/trace_reader.h"

namespace lbsim {

// Shows how far a replay got as one line rewritten in place on a terminal:
// "lbsim: 512.0 MiB processed (45%), 3.1M events, 2.9M events/s, 10 s, ETA
// 12 s": the bytes up to the events decided (not merely read), their share
// of the file, events decided, their rate, the time elapsed, what is left.
// It stays silent for the first second, so short replays print nothing,
// and redraws at most five times a second.
class ProgressLine final : public TraceProgress {
 public:
  // Seconds since some fixed point.
  using Clock = std::function<double()>;

  // Writes to `out` (a terminal); `clock` is the time source.
  explicit ProgressLine(std::FILE* out, Clock clock = SteadySeconds);
  ~ProgressLine() { Finish(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void Update(std::uint64_t done, std::uint64_t total, std::uint64_t events) override;

  // Erases the line, if one was shown.
  void Finish();

  // The line for `done` of `total` units (0: unknown) and `events` after
  // `elapsed` seconds.
  static std::string Render(std::uint64_t done, std::uint64_t total, std::uint64_t events,
                            double elapsed);

  static double SteadySeconds();

 private:
  std::FILE* out_;
  Clock clock_;
  double start_;
  double last_draw_ = -1.0;
  bool shown_ = false;
};

}  // namespace lbsim
