#include "sim/replay/what_if_keys.h"

#include <array>
#include <cmath>

#include <fmt/format.h>

namespace lbsim {
namespace {

using Kind = WhatIfKey::Kind;

constexpr std::array kKeys = {
    WhatIfKey{kSlotsRange.key, Kind::kInteger, &kSlotsRange, false,
              [](SimOptions& o, double v) { o.slots = static_cast<std::uint32_t>(v); }},
    WhatIfKey{"stale_interval", Kind::kTime, nullptr, false,
              [](SimOptions& o, double v) { o.stale_interval = v; }},
    WhatIfKey{"stale_delay", Kind::kTime, nullptr, true,
              [](SimOptions& o, double v) { o.stale_delay = v; }},
    WhatIfKey{"stale_jitter", Kind::kTime, nullptr, true,
              [](SimOptions& o, double v) { o.stale_jitter = v; }},
    WhatIfKey{"window", Kind::kTime, nullptr, false,
              [](SimOptions& o, double v) { o.window = v; }},
    WhatIfKey{kSeedRange.key, Kind::kInteger, &kSeedRange, false,
              [](SimOptions& o, double v) { o.seed = static_cast<std::uint64_t>(v); }},
    WhatIfKey{kCacheBlocksRange.key, Kind::kInteger, &kCacheBlocksRange, false,
              [](SimOptions& o, double v) { o.cache_blocks = static_cast<std::size_t>(v); }},
    WhatIfKey{"signal_interval", Kind::kTime, nullptr, false,
              [](SimOptions& o, double v) { o.engine.signal_interval = v; }},
    WhatIfKey{"signal_delay", Kind::kTime, nullptr, true,
              [](SimOptions& o, double v) { o.engine.signal_delay = v; }},
    WhatIfKey{"signal_jitter", Kind::kTime, nullptr, true,
              [](SimOptions& o, double v) { o.engine.signal_jitter = v; }},
    WhatIfKey{"proxy_queue", Kind::kSwitch, nullptr, false,
              [](SimOptions& o, double v) { o.proxy_queue.on = v != 0.0; }},
    WhatIfKey{kReadyConcurrencyRange.key, Kind::kInteger, &kReadyConcurrencyRange, false,
              [](SimOptions& o, double v) {
                o.proxy_queue.ready_concurrency = static_cast<std::uint32_t>(v);
              }},
    WhatIfKey{kPrepareConcurrencyRange.key, Kind::kInteger, &kPrepareConcurrencyRange, false,
              [](SimOptions& o, double v) {
                o.proxy_queue.prepare_concurrency = static_cast<std::uint32_t>(v);
              }},
};

bool ZeroOk(const WhatIfKey& key, ZeroTime zero) {
  return key.zero_ok || zero == ZeroTime::kOff;
}

}  // namespace

std::span<const WhatIfKey> WhatIfKeys() { return kKeys; }

const WhatIfKey* FindWhatIfKey(std::string_view key) {
  for (const WhatIfKey& k : kKeys)
    if (k.key == key) return &k;
  return nullptr;
}

bool Accepts(const WhatIfKey& key, double value, ZeroTime zero) {
  if (!std::isfinite(value)) return false;
  switch (key.kind) {
    case Kind::kInteger:
      return value == std::floor(value) && value >= static_cast<double>(key.range->min) &&
             value <= static_cast<double>(key.range->max);
    case Kind::kTime:
      return value > 0.0 || (ZeroOk(key, zero) && value == 0.0);
    case Kind::kSwitch:
      return false;
  }
  return false;
}

std::string ExpectedValue(const WhatIfKey& key, ZeroTime zero) {
  switch (key.kind) {
    case Kind::kInteger:
      return ExpectedInteger(*key.range);
    case Kind::kTime:
      if (!ZeroOk(key, zero)) return "a number > 0 (in the trace's time unit)";
      return key.zero_ok ? "a number >= 0 (in the trace's time unit)"
                         : "a number >= 0 (in the trace's time unit; 0: off)";
    case Kind::kSwitch:
      return "true or false";
  }
  return {};
}

}  // namespace lbsim
