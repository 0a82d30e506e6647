#include "cli/queue_options.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "base/errors.h"
#include "base/number_text.h"
#include "cli/option_checks.h"
#include "sim/replay/what_if_ranges.h"

namespace lbsim {

void QueueOptions::AddTo(CLI::App& app, const std::string& group) {
  app.add_flag("--proxy-queue", on,
               "Proxy queue model: the pinned Proxy's queue manager between each strategy and "
               "the Instances (8 ready workers, one forward before its first token, 20 ms "
               "dequeues); least_load reads its snapshot at every decision; the Instances' "
               "times come from --engine, else --slots, else each arrival's ttft and duration "
               "(docs/proxy-queue.md)")
      ->group(group);
  app.add_option("--ready-concurrency", ready_concurrency,
                 fmt::format("Proxy queue: READY_CONCURRENCY, ready workers per Instance, 1 to "
                             "{} (default 8)",
                             kMaxReadyConcurrency))
      ->check(IntegerIn(kReadyConcurrencyRange))
      ->type_name("N")
      ->group(group);
  app.add_option("--prepare-concurrency", prepare_concurrency,
                 "Proxy queue: PREPARE_CONCURRENCY, prepare tasks per Instance, >= 1 (default 8)")
      ->check(IntegerIn(kPrepareConcurrencyRange))
      ->type_name("N")
      ->group(group);
  app.add_option("--predictor-coefficients", coefficients,
                 "Proxy queue: the prefill predictor's fitted a,b,c,d (ttft_coefficients.json; "
                 "shipped: 0,0,0,0)")
      ->type_name("A,B,C,D")
      ->group(group);
}

std::array<double, 4> ParsePredictorCoefficients(std::string_view text, std::string_view flag) {
  std::array<double, 4> out{};
  std::size_t k = 0;
  std::string_view rest = text;
  for (; k < out.size(); ++k) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    if (!ParseFiniteNumber(item, out[k])) break;
    if (comma == std::string_view::npos) {
      ++k;
      rest = {};
      break;
    }
    rest.remove_prefix(comma + 1);
  }
  if (k != out.size() || !rest.empty())
    throw UsageError(fmt::format(
        "{} {}: expected four finite numbers A,B,C,D (the predictor's a, b, c, d)", flag, text));
  return out;
}

ProxyQueueOptions QueueOptions::Resolve() const {
  ProxyQueueOptions o;
  o.on = on;
  o.ready_concurrency = ready_concurrency;
  o.prepare_concurrency = prepare_concurrency;
  if (!coefficients.empty())
    o.coefficients = ParsePredictorCoefficients(coefficients, "--predictor-coefficients");
  return o;
}

}  // namespace lbsim
