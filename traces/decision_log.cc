#include "traces/decision_log.h"

#include <array>
#include <bit>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/background_writer.h"
#include "traces/json_bytes.h"

namespace lbsim {

namespace {

using namespace std::string_view_literals;

// Whether `c` must be escaped inside a JSON string.
bool NeedsEscape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

// How many of the first eight bytes at `p` need no escape, up to 8.
std::size_t PlainPrefix(const char* p) {
  const std::uint64_t flags = json_bytes::EscapeBytes(json_bytes::LoadWord(p));
  return flags == 0 ? 8 : static_cast<std::size_t>(std::countr_zero(flags)) / 8;
}

void AppendInteger(std::string& out, std::uint64_t n) {
  const fmt::format_int text(n);
  out.append(text.data(), text.size());
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view s) {
  out += '"';
  // Runs that need no escape (all of most ids) are appended whole, found
  // eight bytes at a time.
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s.size() - i >= 8) {
      const std::size_t plain = PlainPrefix(s.data() + i);
      if (plain == 8) {
        i += 7;
        continue;
      }
      i += plain;
    }
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
  // The same text nlohmann::json (and Python's json) prints for a double:
  // its dump() writes what this function of its own writes, for a finite
  // IEEE double, without building a value and a string first.
  if (!std::isfinite(t.value)) {
    out += "null"sv;
    return;
  }
  std::array<char, 64> text;
  const char* end = nlohmann::detail::to_chars(text.data(), text.data() + text.size(), t.value);
  out.append(text.data(), static_cast<std::size_t>(end - text.data()));
}

void DecisionLogWriter::Write(const DecisionRecord& r) {
  if (!background_) line_.clear();
  line_ += "{\"strategy\":"sv;
  AppendJsonString(line_, r.strategy);
  line_ += ",\"seq\":"sv;
  AppendInteger(line_, r.seq);
  line_ += ",\"t\":"sv;
  AppendTraceTime(line_, *r.t);
  line_ += ",\"request\":"sv;
  AppendJsonString(line_, r.request);
  line_ += ",\"instance\":"sv;
  if (r.instance) AppendJsonString(line_, *r.instance);
  else line_ += "null"sv;
  line_ += ",\"reason\":"sv;
  AppendJsonString(line_, r.reason);
  line_ += ",\"candidates\":"sv;
  AppendInteger(line_, r.candidates);
  line_ += "}\n"sv;
  if (!background_) std::fwrite(line_.data(), 1, line_.size(), out_);
  else if (line_.size() >= BackgroundWriter::kBlockBytes) background_->Submit(out_, line_);
}

void DecisionLogWriter::Flush() {
  if (background_ && !line_.empty()) background_->Submit(out_, line_);
}

}  // namespace lbsim
