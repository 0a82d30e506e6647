#include "sim/decision_log.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace lbsim {

void AppendJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) fmt::format_to(std::back_inserter(out), "\\u{:04x}", c);
        else out += ch;
    }
  }
  out += '"';
}

void AppendTraceTime(std::string& out, const TraceTime& t) {
  if (t.integral) {
    fmt::format_to(std::back_inserter(out), "{}", t.integer);
    return;
  }
  // The same text nlohmann::json (and Python's json) prints for a double.
  out += nlohmann::json(t.value).dump();
}

void DecisionLogWriter::Write(const DecisionRecord& r) {
  line_.clear();
  line_ += "{\"strategy\":";
  AppendJsonString(line_, r.strategy);
  fmt::format_to(std::back_inserter(line_), ",\"seq\":{},\"t\":", r.seq);
  AppendTraceTime(line_, *r.t);
  line_ += ",\"request\":";
  AppendJsonString(line_, r.request);
  line_ += ",\"instance\":";
  if (r.instance) AppendJsonString(line_, *r.instance);
  else line_ += "null";
  line_ += ",\"reason\":";
  AppendJsonString(line_, r.reason);
  fmt::format_to(std::back_inserter(line_), ",\"candidates\":{}}}\n", r.candidates);
  std::fwrite(line_.data(), 1, line_.size(), out_);
}

}  // namespace lbsim
