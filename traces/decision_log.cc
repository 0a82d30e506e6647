#include "traces/decision_log.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace lbsim {

namespace {

// Whether `c` must be escaped inside a JSON string.
bool NeedsEscape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

void AppendInteger(std::string& out, std::uint64_t n) {
  const fmt::format_int text(n);
  out.append(text.data(), text.size());
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view s) {
  out += '"';
  // Runs that need no escape (all of most ids) are appended whole.
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (!NeedsEscape(c)) continue;
    out.append(s, start, i - start);
    start = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: fmt::format_to(std::back_inserter(out), "\\u{:04x}", c);
    }
  }
  out.append(s, start, s.size() - start);
  out += '"';
}

void AppendTraceTime(std::string& out, const TraceTime& t) {
  if (t.integral) {
    AppendInteger(out, t.integer);
    return;
  }
  // The same text nlohmann::json (and Python's json) prints for a double.
  out += nlohmann::json(t.value).dump();
}

void DecisionLogWriter::Write(const DecisionRecord& r) {
  line_.clear();
  line_ += "{\"strategy\":";
  AppendJsonString(line_, r.strategy);
  line_ += ",\"seq\":";
  AppendInteger(line_, r.seq);
  line_ += ",\"t\":";
  AppendTraceTime(line_, *r.t);
  line_ += ",\"request\":";
  AppendJsonString(line_, r.request);
  line_ += ",\"instance\":";
  if (r.instance) AppendJsonString(line_, *r.instance);
  else line_ += "null";
  line_ += ",\"reason\":";
  AppendJsonString(line_, r.reason);
  line_ += ",\"candidates\":";
  AppendInteger(line_, r.candidates);
  line_ += "}\n";
  std::fwrite(line_.data(), 1, line_.size(), out_);
}

}  // namespace lbsim
