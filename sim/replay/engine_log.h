#pragma once

#include <string_view>

namespace lbsim {

// Receives the LLM engine log of one strategy run (--engine-log): one JSON
// object per line, without the newline, in the order the engine steps end
// and its requests finish (docs/engine.md). The view is valid only during
// the call.
class EngineLog {
 public:
  virtual ~EngineLog() = default;
  virtual void Line(std::string_view json) = 0;
};

}  // namespace lbsim
