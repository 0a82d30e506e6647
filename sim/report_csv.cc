// The CSV report: one row per strategy x Instance.

#include <fmt/format.h>

#include "sim/report.h"

namespace lbsim {
namespace {

// RFC 4180 quoting when the field needs it.
std::string Field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string RenderCsv(const Report& report) {
  std::string out =
      "strategy,label,requested_as,instance,selections,share,"
      "candidate_decisions,fallback_selections,tie_selections,"
      "unknown_while_others_known,chosen_while_unknown\n";
  for (const StrategyReport& s : report.strategies) {
    for (const InstanceReport& i : s.instances) {
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", Field(s.strategy),
                         Field(s.label), Field(s.requested_as), Field(i.id),
                         i.selections, i.share, i.candidate_decisions,
                         i.fallback_selections, i.tie_selections,
                         i.unknown_while_others_known, i.chosen_while_unknown);
    }
  }
  return out;
}

}  // namespace lbsim
