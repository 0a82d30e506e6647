#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lbsim {

// One warning of a report: the name of the rule that raised it (a detector
// or a plain fact, see WarningNames) and a plain-language sentence.
struct Warning {
  std::string name;
  std::string text;

  bool operator==(const Warning&) const = default;
};

// Every warning name a report may carry, in the order reports list them:
//   unknown_starvation  an Instance never chosen while its load was unknown
//   never_chosen        a candidate never chosen for another reason
//   concentration       a share far beyond what weights and speeds justify
//   herding             runs of one Instance, or alternation between two,
//                       beyond what their expected share makes likely
//   overload            work beyond the slots' capacity, or queue waits
//                       growing window over window (service model)
//   fallback_burst      a window where least_load fell back on most decisions
//   no_instances        arrivals that found nothing alive
//   refused             decisions the strategy refused (the Proxy's 503s)
//   never_completed     routed requests the Proxy counts forever
//   proxy_differs       decisions of a recording's self-check that differ
//                       from what the recorded Proxy chose
//   stuck               requests the Proxy queue never forwarded or ended
//   parameters_changed  a pinned Proxy's strategy run with other parameters
//   ignored_inflight    (the Proxy's) load inflight values a heartbeat ignores
//   ignored_null_qps_1m (the Proxy's) qps_1m nulls a heartbeat leaves alone
//   engine_rejected     requests larger than an Instance's whole KV cache
//   misspelt_key        (the trace's) an event key one or two edits from a
//                       key of the format, passed over with its value
inline constexpr std::string_view kWarningNames[] = {
    "unknown_starvation", "never_chosen",      "concentration", "herding",
    "overload",           "fallback_burst",    "no_instances",  "refused",
    "never_completed",    "proxy_differs",     "stuck",             "parameters_changed", "ignored_inflight",
    "ignored_null_qps_1m", "engine_rejected", "misspelt_key"};

// Whether `name` is one of kWarningNames.
bool IsWarningName(std::string_view name);
// "unknown_starvation, never_chosen, ...": every name, for messages.
std::string WarningNameList();
// The names that --fail-on values select: each value a comma-separated
// list of warning names or "warning" (every warning). Throws UsageError
// naming `flag` for anything else.
std::vector<std::string> ParseFailOn(const std::vector<std::string>& values, std::string_view flag);

}  // namespace lbsim
