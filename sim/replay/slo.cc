#include "sim/replay/slo.h"

#include <cmath>

#include <fmt/format.h>

#include "base/number_text.h"
#include "base/split_text.h"
#include "base/time_units.h"

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
    // A number, then its unit (letters) if any: none is the trace's.
    std::string_view value = item.substr(eq + 1);
    const std::size_t letters = value.find_last_not_of("abcdefghijklmnopqrstuvwxyz") + 1;
    const std::string_view unit = value.substr(letters);
    value.remove_suffix(unit.size());
    const double scale = unit.empty() ? 1.0 : MicrosecondsPer(unit);
    double x = 0.0;
    if (scale == 0.0 || !ParseFiniteNumber(value, x) || !(x > 0.0) || !std::isfinite(x * scale)) {
      error = fmt::format("{}, got \"{}\"", kExpected, text);
      return std::nullopt;
    }
    *bound = unit.empty() ? SloBound{x, false} : SloBound{x * scale, true};
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
