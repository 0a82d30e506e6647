#include "sim/replay/slo.h"

#include <cmath>

#include <fmt/format.h>

#include "base/number_text.h"
#include "base/split_text.h"

namespace lbsim {

std::optional<SloOptions> ParseSlo(std::string_view text, std::string& error) {
  constexpr std::string_view kExpected =
      "expected KEY=TIME[,KEY=TIME...], KEY ttft, tpot or e2e (each once), TIME a number > 0 "
      "in the trace's unit or with a unit (ms, s, us)";
  SloOptions slo;
  for (std::string_view item : SplitAt(text, ',')) {
    const std::size_t eq = item.find('=');
    const std::string_view key = item.substr(0, eq);
    std::optional<SloBound>* bound = key == "ttft" ? &slo.ttft
                                     : key == "tpot" ? &slo.tpot
                                     : key == "e2e"  ? &slo.e2e
                                                     : nullptr;
    if (eq == std::string_view::npos || !bound || *bound) {
      error = fmt::format("{}, got \"{}\"", kExpected, text);
      return std::nullopt;
    }
    std::string_view value = item.substr(eq + 1);
    double scale = 0.0;  // microseconds per unit; 0: the trace's unit
    for (auto [suffix, us] : {std::pair{std::string_view("ms"), 1e3}, {"us", 1.0}, {"s", 1e6}})
      if (value.ends_with(suffix)) {
        value.remove_suffix(suffix.size());
        scale = us;
        break;
      }
    double x = 0.0;
    if (!ParseFiniteNumber(value, x) || !(x > 0.0) || !std::isfinite(x * (scale ? scale : 1.0))) {
      error = fmt::format("{}, got \"{}\"", kExpected, text);
      return std::nullopt;
    }
    *bound = scale ? SloBound{x * scale, true} : SloBound{x, false};
  }
  return slo;
}

SloLimits ResolveSlo(const SloOptions& slo, double us) {
  SloLimits out;
  if (slo.ttft) out.ttft = slo.ttft->InTraceUnit(us);
  if (slo.tpot) out.tpot = slo.tpot->InTraceUnit(us);
  if (slo.e2e) out.e2e = slo.e2e->InTraceUnit(us);
  return out;
}

}  // namespace lbsim
