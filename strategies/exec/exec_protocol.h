#pragma once

// The JSON Lines protocol between lbsim and an external strategy program
// (exec:COMMAND), version 1. For each decision lbsim writes one request
// line and reads one reply line:
//
//   {"seq":3,"t":0.5,"request":"r3","candidates":[{"id":"inst-a","weight":1.0,
//    "inflight":2,"qps_1m":null}, ...],"hint":{...}}
//   {"instance":"inst-a","reason":"least"}
//
// Candidates come in pool order; an unknown load field is null. `hint` is
// the arrival's hint as JSON (null when it has none). The reply may echo
// "seq", which is then checked; other reply keys are ignored.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "strategies/candidate.h"
#include "strategies/hint.h"
#include "strategies/strategy.h"

namespace lbsim {

// Appends the request line for one decision, '\n' included.
void AppendExecRequest(std::string& out, const ArrivalInfo& arrival,
                       std::span<const Candidate> candidates, const Hint& hint);

// A reply that names one of the decision's candidates, or refuses the
// decision ("instance": null, as a Proxy whose select() raised answers 503).
struct ExecReply {
  std::size_t index = 0;  // into the candidates
  std::string reason;
  bool refused = false;
};

// Checks one reply line against the decision's candidates and `seq`. On
// success fills `reply` and returns true; otherwise sets `error` to what is
// wrong (one phrase naming the field and what was expected).
bool ParseExecReply(std::string_view line, std::span<const Candidate> candidates,
                    std::uint64_t seq, ExecReply& reply, std::string& error);

}  // namespace lbsim
