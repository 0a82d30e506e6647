#pragma once

#include <string_view>

#include "strategies/hint.h"
#include "traces/instance_table.h"
#include "traces/trace_event.h"

namespace lbsim {

// Decodes the event line `line` (followed in memory by a NUL byte) the
// general way, JsonScanner then EventDecoder reading hints by `reading`,
// into `event`: the reference the line fast paths are checked against.
// False when either rejects it.
bool DecodeEventLine(std::string_view line, InstanceTable& table, double not_before,
                     TraceEvent& event, HintReading reading = {});

}  // namespace lbsim
