#pragma once

#include <optional>
#include <string>
#include <vector>

#include "traces/gen/gen_spec.h"

namespace lbsim {

// One change to the generated pool: an explicit event, a flap's down or up,
// or a join (an `up` of a new Instance).
struct InstanceChange {
  double at = 0.0;
  InstanceEventKind kind = InstanceEventKind::kUp;
  std::string instance;
  bool join = false;
  std::optional<double> speed;   // joins only
  std::optional<double> weight;  // joins only
  bool reports = true;           // joins only: whether it will report load
};

// The most instance changes a spec may expand to (flapping with a tiny
// period otherwise could exhaust memory).
inline constexpr std::size_t kMaxInstanceChanges = 1'000'000;

// Every instance change of `spec` in trace order: by time; at equal times
// joins first, then explicit events in spec order, then flaps. Checks that
// each down and remove names an Instance registered at that moment and that
// joins name new ids; throws InputError naming `origin` and the field.
std::vector<InstanceChange> BuildInstanceSchedule(const GenSpec& spec,
                                                  const std::string& origin);

// A time as the generator writes it: rounded to 1e-6 of the time unit
// (below 1e300; beyond, a double has no such fraction to round).
double QuantizeTime(double t);

}  // namespace lbsim
