#include "traces/layout_text.h"

namespace lbsim::layout_text {

const char* SkipPassedContainer(const char* p, const char* end, std::size_t depth) {
  if (p == end || (*p != '{' && *p != '[') || depth == 0) return nullptr;
  const bool object = *p == '{';
  const char close = object ? '}' : ']';
  KeysSeen<kMaxObjectKeys> keys;
  p = SkipBlanks(p + 1, end);
  if (p < end && *p == close) return p + 1;
  for (;;) {
    if (object) {
      std::string_view key;
      if (!(p = SkipPlainString(p, end, key)) || !keys.Add(key)) return nullptr;
      p = SkipBlanks(p, end);
      if (p == end || *p != ':') return nullptr;
      p = SkipBlanks(p + 1, end);
    }
    p = p != end && (*p == '{' || *p == '[') ? SkipPassedContainer(p, end, depth - 1)
                                             : SkipPassedScalar(p, end);
    if (!p) return nullptr;
    p = SkipBlanks(p, end);
    if (p == end) return nullptr;
    if (*p == close) return p + 1;
    if (*p != ',') return nullptr;
    p = SkipBlanks(p + 1, end);
  }
}

}  // namespace lbsim::layout_text
