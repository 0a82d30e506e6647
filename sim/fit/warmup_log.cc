// CacheRoute's warmup benchmark log (instance/TTFT_predictor): B requests
// of PL prompt tokens sent at once, max_tokens 1, three repeats per
// configuration, one "[TTFT] BS=B, PL=PL, repeat=R, task=I/B, ttft=Xms" line
// per request (or "ttft=FAILED"); every other line is the benchmark's own
// talk and is skipped.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/median.h"
#include "sim/fit/measurement_files.h"

namespace lbsim {
namespace {

constexpr std::string_view kShape = "[TTFT] BS=N, PL=N, repeat=N, task=I/N, ttft=Xms";

// One "[TTFT]" line.
struct TtftLine {
  std::uint64_t batch = 0, prompt = 0, repeat = 0, task = 0, tasks = 0;
  std::optional<double> ms;  // nullopt: FAILED
};

// A cursor over a line that reads the fixed shape; false on any mismatch.
class LineReader {
 public:
  explicit LineReader(std::string_view line) : rest_(line) {}
  bool Literal(std::string_view s) {
    if (!rest_.starts_with(s)) return false;
    rest_.remove_prefix(s.size());
    return true;
  }
  bool Integer(std::uint64_t& out) {
    const auto [end, ec] = std::from_chars(rest_.data(), rest_.data() + rest_.size(), out);
    if (ec != std::errc() || end == rest_.data()) return false;
    rest_.remove_prefix(static_cast<std::size_t>(end - rest_.data()));
    return true;
  }
  bool Number(double& out) {
    if (rest_.empty() || !(rest_[0] >= '0' && rest_[0] <= '9')) return false;
    const auto [end, ec] = std::from_chars(rest_.data(), rest_.data() + rest_.size(), out,
                                           std::chars_format::fixed);
    if (ec != std::errc()) return false;
    rest_.remove_prefix(static_cast<std::size_t>(end - rest_.data()));
    return true;
  }
  bool AtEnd() const { return rest_.find_first_not_of(" \t") == std::string_view::npos; }

 private:
  std::string_view rest_;
};

std::optional<TtftLine> ParseTtftLine(std::string_view line) {
  TtftLine t;
  LineReader r(line);
  if (!r.Literal("[TTFT] BS=") || !r.Integer(t.batch) || !r.Literal(", PL=") ||
      !r.Integer(t.prompt) || !r.Literal(", repeat=") || !r.Integer(t.repeat) ||
      !r.Literal(", task=") || !r.Integer(t.task) || !r.Literal("/") || !r.Integer(t.tasks) ||
      !r.Literal(", ttft="))
    return std::nullopt;
  if (r.Literal("FAILED")) return r.AtEnd() ? std::optional(t) : std::nullopt;
  double ms = 0.0;
  if (!r.Number(ms) || !r.Literal("ms") || !r.AtEnd()) return std::nullopt;
  t.ms = ms;
  return t;
}

// One batch: the lines of one repeat of one configuration.
struct Batch {
  std::uint64_t batch = 0, prompt = 0, repeat = 0;
  std::size_t line = 0;             // its first line
  std::vector<std::uint64_t> seen;  // task numbers
  double slowest_ms = 0.0;
  std::size_t failed = 0;
};

}  // namespace

MeasurementFile ReadWarmupLog(const std::string& path, std::string_view text,
                              std::uint64_t template_tokens) {
  MeasurementFile file;
  file.path = path;
  file.format = MeasurementFormat::kWarmupLog;
  std::vector<Batch> batches;
  std::size_t lines = 0;
  ForEachLine(text, [&](std::string_view line, std::size_t number) {
    if (!line.starts_with("[TTFT]")) return;
    const std::string where = fmt::format("{}:{}", path, number);
    const std::optional<TtftLine> t = ParseTtftLine(line);
    if (!t)
      throw InputError(fmt::format("{}: expected a warmup line \"{}\", got \"{}\"", where, kShape,
                                   LineExcerpt(line)));
    if (t->batch < 1 || t->tasks != t->batch || t->task < 1 || t->task > t->tasks)
      throw InputError(fmt::format(
          "{}: expected task=I/BS with 1 <= I <= BS and BS >= 1, got BS={}, task={}/{}", where,
          t->batch, t->task, t->tasks));
    if (t->ms && !(std::isfinite(*t->ms) && *t->ms > 0.0))
      throw InputError(fmt::format("{}: ttft: expected a time > 0 in ms, got {}", where, *t->ms));
    if (t->prompt + template_tokens < 1)
      throw InputError(fmt::format(
          "{}: PL: expected a prompt of at least one token (PL + --template-tokens), got 0",
          where));
    ++lines;
    Batch* b = batches.empty() ? nullptr : &batches.back();
    if (!b || b->batch != t->batch || b->prompt != t->prompt || b->repeat != t->repeat ||
        std::find(b->seen.begin(), b->seen.end(), t->task) != b->seen.end()) {
      batches.emplace_back();
      batches.back().batch = t->batch;
      batches.back().prompt = t->prompt;
      batches.back().repeat = t->repeat;
      batches.back().line = number;
      b = &batches.back();
    }
    b->seen.push_back(t->task);
    if (t->ms) b->slowest_ms = std::max(b->slowest_ms, *t->ms);
    else ++b->failed;
  });
  if (lines == 0) throw InputError(fmt::format("{}: expected \"[TTFT]\" lines, got none", path));

  // A configuration's point: the median of its complete batches' slowest
  // TTFTs (a batch that lost a request has no slowest one).
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::pair<std::vector<double>, std::size_t>>
      configs;
  std::size_t incomplete = 0, complete = 0;
  for (const Batch& b : batches) {
    auto& [slowest, line] = configs[{b.batch, b.prompt}];
    if (slowest.empty()) line = b.line;
    if (b.failed > 0 || b.seen.size() != b.batch) {
      ++incomplete;
      continue;
    }
    ++complete;
    slowest.push_back(b.slowest_ms);
  }
  for (const auto& [key, value] : configs) {
    const auto& [slowest, line] = value;
    if (slowest.empty()) continue;
    Measurement m{.figure = MeasuredFigure::kTtft,
                  .batch = key.first,
                  .input_tokens = key.second + template_tokens,
                  .output_tokens = 1,
                  .value_us = Median(slowest) * 1000.0,
                  .where = fmt::format("{}:{}", path, line)};
    CheckMeasurementLimits(m);
    file.points.push_back(std::move(m));
  }
  if (file.points.empty())
    throw InputError(fmt::format(
        "{}: expected a complete batch (a time for every request of a repeat), got none of {} "
        "(a request FAILED or missing in each)",
        path, incomplete));
  file.summary = fmt::format(
      "{} [TTFT] lines, {} complete batches{}: the median slowest TTFT of each of {} "
      "configurations, prompts of PL + {} tokens",
      lines, complete,
      incomplete ? fmt::format(" ({} left out: a request FAILED or missing)", incomplete) : "",
      file.points.size(), template_tokens);
  return file;
}

}  // namespace lbsim
