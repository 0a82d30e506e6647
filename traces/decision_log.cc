#include "traces/decision_log.h"

#include <cstring>

#include <fmt/format.h>

#include "base/background_writer.h"
#include "base/json/json_write.h"

namespace lbsim {

namespace {

// The most bytes WriteInteger and WriteTraceTime write.
constexpr std::size_t kNumberBound = kJsonNumberBound;

char* WriteInteger(char* p, std::uint64_t n) {
  const fmt::format_int text(n);
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}

// Writes a trace time as JSON: an integer literal as written, otherwise the
// shortest text that reads back as the same double. At most kNumberBound
// bytes.
char* WriteTraceTime(char* p, const TraceTime& t) {
  if (t.integral) return WriteInteger(p, t.integer);
  return WriteJsonDouble(p, t.value);
}

char* WriteLiteral(char* p, std::string_view text) {
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}

}  // namespace

void AppendTraceTime(std::string& out, const TraceTime& t) {
  char text[kNumberBound];
  out.append(text, static_cast<std::size_t>(WriteTraceTime(text, t) - text));
}

void DecisionLogWriter::Write(const DecisionRecord& r) {
  // The line is written into a buffer with room for the longest text it
  // can be, then appended whole: on the stack for the lines of every
  // common id length.
  static constexpr std::string_view kKeys[] = {
      "{\"strategy\":", ",\"seq\":", ",\"t\":", ",\"request\":", ",\"instance\":",
      ",\"reason\":", ",\"candidates\":", "}\n"};
  std::size_t bound = 3 * kNumberBound + JsonStringBound(r.strategy) +
                      JsonStringBound(r.request) + JsonStringBound(r.reason) +
                      (r.instance ? JsonStringBound(*r.instance) : 4) +
                      (r.queue_depths.empty() ? 0 : r.queue_depths.size() + 16) +
                      (r.proxy_choice ? JsonStringBound(r.proxy_choice->value) + 16 : 0);
  for (std::string_view key : kKeys) bound += key.size();
  char stack[1024];
  std::string heap;
  char* begin = stack;
  if (bound > sizeof stack) {
    heap.resize(bound);
    begin = heap.data();
  }
  char* p = WriteLiteral(begin, kKeys[0]);
  p = WriteJsonString(p, r.strategy);
  p = WriteLiteral(p, kKeys[1]);
  p = WriteInteger(p, r.seq);
  p = WriteLiteral(p, kKeys[2]);
  p = WriteTraceTime(p, *r.t);
  p = WriteLiteral(p, kKeys[3]);
  p = WriteJsonString(p, r.request);
  p = WriteLiteral(p, kKeys[4]);
  p = r.instance ? WriteJsonString(p, *r.instance) : WriteLiteral(p, "null");
  p = WriteLiteral(p, kKeys[5]);
  p = WriteJsonString(p, r.reason);
  p = WriteLiteral(p, kKeys[6]);
  p = WriteInteger(p, r.candidates);
  if (!r.queue_depths.empty()) {
    p = WriteLiteral(p, ",\"queue_depths\":");
    p = WriteLiteral(p, r.queue_depths);
  }
  if (r.proxy_choice && r.proxy_choice->present()) {
    p = WriteLiteral(p, ",\"proxy_choice\":");
    p = r.proxy_choice->state == FieldUpdate<std::string_view>::State::kValue
            ? WriteJsonString(p, r.proxy_choice->value)
            : WriteLiteral(p, "null");
  }
  p = WriteLiteral(p, kKeys[7]);
  const auto size = static_cast<std::size_t>(p - begin);
  if (!background_) {
    std::fwrite(begin, 1, size, out_);
    return;
  }
  line_.append(begin, size);
  if (line_.size() >= BackgroundWriter::kBlockBytes) background_->Submit(out_, line_);
}

void DecisionLogWriter::Flush() {
  if (background_ && !line_.empty()) background_->Submit(out_, line_);
}

}  // namespace lbsim
