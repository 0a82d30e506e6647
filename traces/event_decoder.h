#pragma once

// Turns parsed JSON values into validated trace structures. Only the trace
// readers include this header (it pulls in nlohmann/json.hpp).

#include <nlohmann/json.hpp>

#include "traces/instance_table.h"
#include "traces/trace_event.h"

namespace lbsim {

// Validates a header object. `document` says whether `events` belongs in it
// (JSON document) or must not appear (JSON Lines). Throws FieldError.
TraceHeader DecodeHeader(const nlohmann::json& header, bool document);

// Validates one event object into `event` (reused; every field is reset).
// Ids of `up` events are interned in `table`; other ids and hint keys are
// only looked up. Throws FieldError.
void DecodeEvent(const nlohmann::json& object, InstanceTable& table,
                 TraceEvent& event);

}  // namespace lbsim
