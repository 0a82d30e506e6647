#include "make_bench_trace.h"

#include <cstdio>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

namespace lbsim::bench {

std::uint64_t WriteBenchTrace(const std::string& path, const BenchTraceShape& shape) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + path);
  std::mt19937_64 rng(shape.seed);
  auto uniform = [&rng](std::uint64_t n) { return rng() % n; };

  std::string out = R"({"lbsim_trace": 1, "name": "bench", "time_unit": "ms", "instances": [)";
  for (std::uint32_t i = 0; i < shape.instances; ++i)
    out += fmt::format(R"({}{{"id": "inst-{:05}", "inflight": 0, "qps_1m": 0}})", i ? ", " : "", i);
  out += shape.document ? "],\n\"events\": [\n" : "]}\n";

  std::uint64_t events = 0;
  // Events are lines of JSON Lines, or elements of the document's array.
  auto event = [&](const std::string& text) {
    if (shape.document && events > 0) out += ",\n";
    out += text;
    if (!shape.document) out += '\n';
    ++events;
  };
  std::uint64_t t = 0;  // ms
  for (std::uint64_t a = 1; a <= shape.arrivals; ++a) {
    t += uniform(3);
    if (shape.arrivals_per_hint && a % shape.arrivals_per_hint == 0) {
      event(fmt::format(
          R"({{"t": {}, "type": "arrival", "duration": {}, "hint": {{"queue_depths": )"
          R"({{"per_instance": {{"inst-{:05}": {{"queue_depth": {}, "active_decode_count": {}}}, )"
          R"("inst-{:05}": {{"pending_prefill_count": {}}}}}}}}}}})",
          t, 20 + uniform(400), uniform(shape.instances), uniform(8), uniform(4),
          uniform(shape.instances), uniform(3)));
    } else {
      event(fmt::format(R"({{"t": {}, "type": "arrival", "duration": {}}})", t, 20 + uniform(400)));
    }
    if (a % shape.arrivals_per_snapshot == 0)
      event(fmt::format(
          R"({{"t": {}, "type": "load", "instance": "inst-{:05}", "inflight": {}, "qps_1m": {}}})",
          t, uniform(shape.instances), uniform(12), uniform(300)));
    if (out.size() > (1u << 20)) {
      std::fwrite(out.data(), 1, out.size(), f);
      out.clear();
    }
  }
  if (shape.document) out += "\n]}\n";
  std::fwrite(out.data(), 1, out.size(), f);
  if (std::fclose(f) != 0) throw std::runtime_error("cannot write " + path);
  return events;
}

}  // namespace lbsim::bench
