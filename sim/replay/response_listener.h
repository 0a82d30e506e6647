#pragma once

#include <cstdint>

namespace lbsim {

// Hears, from the model of the Instance serving a forwarded request, when
// its response begins and ends (trace time). `tag` is the one the listener
// handed over when it forwarded the request. A response that ends without
// a first token (nothing to generate) reports its end only.
class ResponseListener {
 public:
  virtual ~ResponseListener() = default;
  virtual void FirstToken(std::uint64_t tag, double t) = 0;
  virtual void Ended(std::uint64_t tag, double t) = 0;
};

}  // namespace lbsim
