#pragma once

#include <string_view>

#include "strategies/hint.h"
#include "traces/instance_table.h"
#include "traces/trace_event.h"

namespace lbsim {

// Hints read as a pinned Proxy reads them, with Python's float(): the
// reading a line fast path must agree with as well as the spec's.
inline constexpr HintReading kPythonFloatReading{true, PythonVersion::k312};

// Decodes the event line `line` (followed in memory by a NUL byte) the
// general way, JsonScanner then EventDecoder reading hints by `reading`,
// into `event`: the reference the line fast paths are checked against.
// False when either rejects it. What the event views of the decoder's own
// text (a request id with escapes, decoded) lasts until the next call.
bool DecodeEventLine(std::string_view line, InstanceTable& table, double not_before,
                     TraceEvent& event, HintReading reading = {});

}  // namespace lbsim
