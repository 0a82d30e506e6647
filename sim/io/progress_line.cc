#include "sim/io/progress_line.h"

#include <chrono>
#include <cmath>

#include <fmt/format.h>

namespace lbsim {
namespace {

constexpr double kQuietSeconds = 1.0;   // nothing is shown before this
constexpr double kRedrawSeconds = 0.2;  // at most this often

// 3100000 -> "3.1M".
std::string Count(double n) {
  if (n >= 1e9) return fmt::format("{:.1f}G", n / 1e9);
  if (n >= 1e6) return fmt::format("{:.1f}M", n / 1e6);
  if (n >= 1e3) return fmt::format("{:.1f}k", n / 1e3);
  return fmt::format("{:.0f}", n);
}

}  // namespace

ProgressLine::ProgressLine(std::FILE* out, Clock clock)
    : out_(out), clock_(std::move(clock)), start_(clock_()) {}

double ProgressLine::SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string ProgressLine::Render(std::uint64_t done, std::uint64_t total, std::uint64_t events,
                                 double elapsed) {
  std::string line = fmt::format("lbsim: {:.1f} MiB processed", done / 1048576.0);
  if (total > 0) line += fmt::format(" ({:.0f}%)", 100.0 * done / total);
  line += fmt::format(", {} events, {} events/s, {:.0f} s", Count(events), Count(events / elapsed),
                      std::floor(elapsed));
  if (total > 0 && done > 0 && done < total)
    line += fmt::format(", ETA {:.0f} s", std::ceil(elapsed * (total - done) / done));
  return line;
}

void ProgressLine::Update(std::uint64_t done, std::uint64_t total, std::uint64_t events) {
  double now = clock_();
  double elapsed = now - start_;
  if (elapsed < kQuietSeconds || now - last_draw_ < kRedrawSeconds) return;
  last_draw_ = now;
  shown_ = true;
  // Carriage return, the line, then erase whatever a longer line left.
  fmt::print(out_, "\r{}\033[K", Render(done, total, events, elapsed));
  std::fflush(out_);
}

void ProgressLine::Finish() {
  if (!shown_) return;
  fmt::print(out_, "\r\033[K");
  std::fflush(out_);
  shown_ = false;
}

}  // namespace lbsim
