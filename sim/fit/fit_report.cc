#include "sim/fit/fit_report.h"

#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "base/number_text.h"
#include "sim/io/printable.h"

namespace lbsim {
namespace {

constexpr const char* kBetaNames[] = {"beta[0] (a step)", "beta[1] (a prefill token)",
                                      "beta[2] (a decode token)"};

// A time in microseconds as the report shows it: 4 significant digits in
// us, ms or s.
std::string Time(double us) {
  const double a = std::fabs(us);
  if (a >= 1e6) return fmt::format("{:.4g} s", us / 1e6);
  if (a >= 1e3) return fmt::format("{:.4g} ms", us / 1e3);
  return fmt::format("{:.4g} us", us);
}

std::string Percent(double share, bool sign) {
  return sign ? fmt::format("{:+.1f}%", share * 100.0) : fmt::format("{:.2f}%", share * 100.0);
}

std::string ErrorRow(const FitError& e) {
  const Measurement& w = e.worst;
  const std::string batch = fmt::format("{} request{}", w.batch, w.batch == 1 ? "" : "s");
  const std::string what =
      w.decode_step ? fmt::format("a decode step of {} at {} tokens", batch, w.input_tokens)
      : w.figure == MeasuredFigure::kTtft
          ? fmt::format("{} of {} tokens", batch, w.input_tokens)
          : fmt::format("{} of {} tokens, {} out", batch, w.input_tokens, w.output_tokens);
  return fmt::format("  {:<5} {:>7}  {:>10}  {:>14}  {} ({}: measured {}, predicted {}) at {}\n",
                     MeasuredFigureName(e.figure), e.points, Time(e.rmse_us),
                     Percent(e.median_abs_error, false), Percent(e.worst_error, true), what,
                     Time(w.value_us), Time(e.worst_predicted_us), Printable(w.where));
}

std::string BatchList(const std::vector<std::uint64_t>& batches) {
  std::string out;
  for (std::uint64_t b : batches) out += fmt::format("{}{}", out.empty() ? "" : ", ", b);
  return out;
}

std::string FileNames(std::span<const MeasurementFile> files) {
  std::string out;
  const std::size_t shown = std::min<std::size_t>(files.size(), 3);
  for (std::size_t i = 0; i < shown; ++i)
    out += fmt::format("{}{}", i ? ", " : "",
                       std::filesystem::path(files[i].path).filename().string());
  if (files.size() > shown) out += fmt::format(" and {} more", files.size() - shown);
  return out;
}

}  // namespace

std::string FitReportText(const EngineFit& fit, std::span<const MeasurementFile> files,
                          const EngineFitOptions& options) {
  std::string out = "lbsim engines fit\n";
  for (const MeasurementFile& f : files)
    out += fmt::format("  {} ({}): {}\n", Printable(f.path), MeasurementFormatName(f.format),
                       f.summary);
  const EngineConfig& c = fit.config;
  out += fmt::format("beta (us): {} + {} x prefill tokens + {} x decode tokens\n",
                     NumberText(c.beta_us[0]), NumberText(c.beta_us[1]), NumberText(c.beta_us[2]));
  out += "alpha (us): 0, 0, 0: pre-processing and output processing are folded into beta (every "
         "request of a benchmark batch pays them alike)\n";
  for (int i = 0; i < 3; ++i) {
    if (!fit.fitted[i])
      out += fmt::format("{}: not determined by these measurements ({}); the base's {}\n",
                         kBetaNames[i],
                         i == 2 ? "no TPOT, and no E2E of more than one token"
                                : "no measurement depends on it",
                         NumberText(c.beta_us[i]));
    else if (fit.at_bound[i])
      out += fmt::format("{}: held at its bound {}: the best linear fit wants it lower{}\n",
                         kBetaNames[i], i == 0 ? "of 1 us" : "of 0",
                         i == 0 ? " (the measured times grow faster than linearly with the "
                                  "tokens, as attention does; TPOT measurements fix it)"
                                : "");
  }
  out += fmt::format(
      "KV cache and limits: {}'s: {} blocks of {} tokens, {} sequences, {} tokens a step\n",
      Printable(options.base.name), c.kv_blocks, c.block_tokens, c.max_running,
      c.max_batched_tokens);
  out += fmt::format("  {:<5} {:>7}  {:>10}  {:>14}  {}\n", "fit", "points", "RMSE",
                     "median |error|", "worst");
  for (const FitError& e : fit.errors) out += ErrorRow(e);
  if (!options.held_out.empty()) {
    out += fmt::format("held out, predicted (batch sizes {}):\n", BatchList(options.held_out));
    if (fit.held_out.empty()) out += "  no measurement has those batch sizes\n";
    for (const FitError& e : fit.held_out) out += ErrorRow(e);
  }
  return out;
}

std::string FitDescription(const EngineFit& fit, std::span<const MeasurementFile> files,
                           const EngineFitOptions& options) {
  std::string figures;
  for (const FitError& e : fit.errors)
    figures += fmt::format("{}{} {} (median error {}, worst {})", figures.empty() ? "" : ", ",
                           e.points, MeasuredFigureName(e.figure),
                           Percent(e.median_abs_error, false), Percent(e.worst_error, true));
  std::string undetermined;
  for (int i = 0; i < 3; ++i)
    if (!fit.fitted[i]) undetermined += fmt::format("; beta[{}] from the base", i);
  return fmt::format(
      "fitted by lbsim engines fit to {} from {}{}; KV cache and scheduler limits from {}",
      figures, FileNames(files), undetermined, options.base.name);
}

}  // namespace lbsim
