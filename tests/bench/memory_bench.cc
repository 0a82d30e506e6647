// Target 2 of issue 8: memory does not grow with the trace. Peak RSS of
// `lbsim -s ll` on the same trace shape at 1M and at 10M events, in both
// encodings (JSON Lines must stay within 1.2x; the JSON document encoding
// streams its events array and must not grow either), for the replay_bench
// shape and the realistic one of issue 23 (UUID ids, fractional seconds,
// a Proxy queue hint on 10% of arrivals, float loads with nulls), and
// that one with prefix blocks under kv_aware (every Instance's prefix
// caches, kv_aware's and the report's, fill to their capacity and stay).
//
// Usage: memory_bench LBSIM [--runs 3] [--dir /tmp] [--events 1000000]

#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "bench_args.h"
#include "bench_process.h"
#include "make_bench_trace.h"

using namespace lbsim::bench;

namespace {

struct Point {
  std::uint64_t events;
  Sample cost;
};

Point Measure(const std::string& lbsim, const std::string& strategy, const std::string& dir,
              std::uint64_t events, BenchTraceShape shape, bool document, int runs) {
  shape.document = document;
  // Ten arrivals per load snapshot: arrivals * 1.1 events.
  shape.arrivals = events * 10 / 11;
  std::string trace = fmt::format("{}/lbsim-memory-bench-{}.{}", dir, events,
                                  document ? "json" : "ndjson");
  Point p{WriteBenchTrace(trace, shape), {}};
  p.cost = Median({lbsim, "-s", strategy, "--format", "json", trace}, runs);
  std::remove(trace.c_str());
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  BenchArgs args(argc, argv, {{"runs", "3"}, {"dir", "/tmp"}, {"events", "1000000"}},
                 "memory_bench LBSIM [--runs R] [--dir DIR] [--events N]");
  const std::uint64_t small = args.Number("events");
  const int runs = static_cast<int>(args.Number("runs"));
  fmt::print("lbsim -s ll (kv for prefix blocks), 16 Instances; median of {} runs\n\n", runs);
  fmt::print("{:<32} {:>12} {:>10} {:>12} {:>20}\n", "shape, encoding", "events", "wall",
             "peak RSS", "peak RSS / M events");
  struct Shape {
    const char* name;
    BenchTraceShape shape;
    const char* strategy;
  };
  BenchTraceShape prefix_blocks = RealisticShape();
  prefix_blocks.prefix_blocks = true;
  const Shape shapes[] = {{"replay_bench", BenchTraceShape{}, "ll"},
                          {"realistic", RealisticShape(), "ll"},
                          {"prefix blocks", prefix_blocks, "kv"}};
  for (const Shape& s : shapes) {
    for (bool document : {false, true}) {
      Point a = Measure(args.lbsim(), s.strategy, args.Text("dir"), small, s.shape, document, runs);
      Point b =
          Measure(args.lbsim(), s.strategy, args.Text("dir"), small * 10, s.shape, document, runs);
      const std::string name = fmt::format("{}, {}", s.name, document ? "document" : "JSON Lines");
      for (const Point& p : {a, b})
        fmt::print("{:<32} {:>12} {:>10} {:>8.1f} MiB {:>16.2f} MiB\n", name, p.events,
                   Seconds(p.cost.seconds), p.cost.max_rss_kib / 1024.0,
                   p.cost.max_rss_kib / 1024.0 / (p.events / 1e6));
      double ratio = static_cast<double>(b.cost.max_rss_kib) / a.cost.max_rss_kib;
      fmt::print("flat memory ({}): peak RSS at {} events / at {} events = {:.3f}x; "
                 "goal <= 1.2x: {}\n\n",
                 name, b.events, a.events, ratio, ratio <= 1.2 ? "met" : "NOT met");
    }
  }
  return 0;
}
