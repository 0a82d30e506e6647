#pragma once

#include <string>

#include "strategies/proxy_profile.h"

namespace CLI {
class App;
}

namespace lbsim {

// The --proxy and --python options as typed.
struct ProxyOptions {
  std::string proxy;   // empty: the trace header's profile, else latest
  std::string python;  // empty: 3.12

  // Adds --proxy and --python to `app`.
  void AddTo(CLI::App& app);
  // The choice they make; throws UsageError naming what was expected.
  ProxyChoice Choice() const;
};

}  // namespace lbsim
