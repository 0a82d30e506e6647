#include "event_line_decoding.h"

#include "traces/event_decoder.h"
#include "base/json/json_scanner.h"
#include "traces/trace_reader.h"

namespace lbsim {

bool DecodeEventLine(std::string_view line, InstanceTable& table, double not_before,
                     TraceEvent& event, HintReading reading) {
  JsonScanner scanner;
  JsonView value;
  if (scanner.ScanText(line, value) != JsonScanner::Status::kOk) return false;
  // Kept: an escaped request id is decoded into it, and the event views it.
  static thread_local EventDecoder decoder;
  decoder.set_hint_reading(reading);
  try {
    decoder.Decode(value, scanner.members(), table, event, false, not_before);
  } catch (const FieldError&) {
    return false;
  }
  return true;
}

}  // namespace lbsim
