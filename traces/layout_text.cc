#include "traces/layout_text.h"

namespace lbsim::layout_text {

const char* SkipPassedContainer(const char* p, const char* begin, const char* end,
                                std::size_t depth) {
  if (p == end || (*p != '{' && *p != '[') || depth == 0) return nullptr;
  const bool object = *p == '{';
  const char close = object ? '}' : ']';
  // The keys so far, left uninitialized: zeroing them costs more than
  // reading a small object.
  const char* key_data[kMaxObjectKeys];
  std::size_t key_size[kMaxObjectKeys];
  p = SkipBlanks(p + 1, end);
  if (p < end && *p == close) return p + 1;
  for (std::size_t n = 0;; ++n) {
    if (object) {
      std::string_view key;
      if (n == kMaxObjectKeys || !(p = SkipPlainString(p, end, key))) return nullptr;
      for (std::size_t k = 0; k < n; ++k)
        if (key == std::string_view(key_data[k], key_size[k]))
          return nullptr;  // the general path's to report
      key_data[n] = key.data();
      key_size[n] = key.size();
      p = SkipBlanks(p, end);
      if (p == end || *p != ':') return nullptr;
      p = SkipBlanks(p + 1, end);
    }
    p = p != end && (*p == '{' || *p == '[') ? SkipPassedContainer(p, begin, end, depth - 1)
                                             : SkipPassedScalar(p, begin, end);
    if (!p) return nullptr;
    p = SkipBlanks(p, end);
    if (p == end) return nullptr;
    if (*p == close) return p + 1;
    if (*p != ',') return nullptr;
    p = SkipBlanks(p + 1, end);
  }
}

}  // namespace lbsim::layout_text
