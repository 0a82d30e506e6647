// The keyed what-if options (sim/replay/what_if_keys.h): each sets its own
// field, and takes exactly the values its expectation says.

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "sim/replay/what_if_keys.h"
#include "what_if_fields.h"

namespace lbsim {
namespace {

// A value `key` takes that is not its SimOptions default.
double SomeValue(const WhatIfKey& key) {
  switch (key.kind) {
    case WhatIfKey::Kind::kInteger:
      return static_cast<double>(key.range->max);
    case WhatIfKey::Kind::kTime:
      return 2.5;
    case WhatIfKey::Kind::kSwitch:
      return 1.0;
  }
  return 0.0;
}

TEST_CASE("what-if keys: each is found by its name and sets a field no other key sets") {
  std::set<std::string> names;
  for (const WhatIfKey& key : WhatIfKeys()) {
    CAPTURE(key.key);
    CHECK(names.insert(std::string(key.key)).second);
    CHECK(FindWhatIfKey(key.key) == &key);
    if (key.kind == WhatIfKey::Kind::kInteger) {
      REQUIRE(key.range != nullptr);
      CHECK(key.range->key == key.key);
    }
    // Setting this key changes the options; setting every other key too
    // gives options that differ from setting only the others.
    SimOptions alone, others, all;
    key.set(alone, SomeValue(key));
    CHECK(testing::WhatIfFields(alone) != testing::WhatIfFields(SimOptions{}));
    for (const WhatIfKey& other : WhatIfKeys()) {
      if (&other == &key) continue;
      other.set(others, SomeValue(other));
      other.set(all, SomeValue(other));
    }
    key.set(all, SomeValue(key));
    CHECK(testing::WhatIfFields(all) != testing::WhatIfFields(others));
  }
  CHECK(FindWhatIfKey("speed") == nullptr);
}

TEST_CASE("what-if keys: integers within their range, times above 0 or from 0 as declared") {
  const WhatIfKey& slots = *FindWhatIfKey("slots");
  CHECK_FALSE(Accepts(slots, 0));
  CHECK(Accepts(slots, 1));
  CHECK_FALSE(Accepts(slots, 1.5));
  CHECK(Accepts(slots, static_cast<double>(kSlotsRange.max)));
  CHECK_FALSE(Accepts(slots, static_cast<double>(kSlotsRange.max) + 1));
  CHECK(ExpectedValue(slots) == "an integer from 1 to 2^30 (slots per Instance)");

  const WhatIfKey& interval = *FindWhatIfKey("stale_interval");
  CHECK_FALSE(Accepts(interval, 0));
  CHECK(Accepts(interval, 0, ZeroTime::kOff));  // a sweep's cell without stale metrics
  CHECK_FALSE(Accepts(interval, -1, ZeroTime::kOff));
  CHECK(ExpectedValue(interval) == "a number > 0 (in the trace's time unit)");
  CHECK(ExpectedValue(interval, ZeroTime::kOff) ==
        "a number >= 0 (in the trace's time unit; 0: off)");

  const WhatIfKey& delay = *FindWhatIfKey("signal_delay");
  CHECK(Accepts(delay, 0));
  CHECK_FALSE(Accepts(delay, -0.5));
  CHECK(ExpectedValue(delay) == "a number >= 0 (in the trace's time unit)");
  CHECK(ExpectedValue(delay, ZeroTime::kOff) == ExpectedValue(delay));

  const WhatIfKey& queue = *FindWhatIfKey("proxy_queue");
  CHECK(ExpectedValue(queue) == "true or false");
  SimOptions o;
  queue.set(o, 1.0);
  CHECK(o.proxy_queue.on);
}

}  // namespace
}  // namespace lbsim
