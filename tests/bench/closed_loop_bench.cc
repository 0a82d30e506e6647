// Closed-loop benchmark: `lbsim gen` writes a trace of 1M arrivals on 64
// Instances (Poisson at 400/s, exponential 1 s requests: about 78% of
// 64 x 8 slots), then lbsim replays it with the service model (8 slots per
// Instance) for round_robin, least_load, both, and least_load with stale
// metrics and windows. Prints trace events/s, decisions/s and peak RSS
// (median of --runs runs; CPU time too, steadier on a shared machine), and
// the generator's own rate.
//
// Usage: closed_loop_bench LBSIM [--arrivals N] [--instances K] [--slots S]
//                              [--runs R] [--trace PATH]

#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "bench_process.h"

using lbsim::bench::Median;
using lbsim::bench::Sample;

namespace {

std::uint64_t CountEvents(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return 0;
  std::uint64_t lines = 0;
  char buffer[1 << 16];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0)
    for (std::size_t i = 0; i < n; ++i) lines += buffer[i] == '\n';
  std::fclose(f);
  return lines - 1;  // the header
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr,
               "usage: closed_loop_bench LBSIM [--arrivals N] [--instances K] [--slots S] "
               "[--runs R] [--trace PATH]\n");
    return 2;
  }
  const std::string lbsim = argv[1];
  std::string arrivals = "1000000", instances = "64", slots = "8";
  std::string trace = "/tmp/lbsim-closed-loop-bench.ndjson";
  int runs = 3;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--arrivals") arrivals = argv[i + 1];
    else if (flag == "--instances") instances = argv[i + 1];
    else if (flag == "--slots") slots = argv[i + 1];
    else if (flag == "--runs") runs = std::atoi(argv[i + 1]);
    else if (flag == "--trace") trace = argv[i + 1];
  }
  // 400/s per 64 Instances of 8 slots; scaled with the Instance count.
  const double rate = 400.0 * std::atof(instances.c_str()) / 64.0 * std::atof(slots.c_str()) / 8.0;

  const Sample gen = Median({lbsim, "gen", "--instances", instances, "--rate", fmt::format("{}", rate),
                             "--arrivals", arrivals, "--durations", "exponential:1", "--seed", "1",
                             "-o", trace},
                            runs);
  const std::uint64_t events = CountEvents(trace);
  const double decisions = std::atof(arrivals.c_str());
  fmt::print("trace: {} events ({} arrivals), {} Instances, {} slots each; median of {} runs\n",
             events, arrivals, instances, slots, runs);
  fmt::print("gen: {:.3f} s wall, {:.3f} s CPU, {:.0f} events/CPU-s written, peak RSS {:.1f} MiB\n\n",
             gen.seconds, gen.cpu_seconds, events / gen.cpu_seconds, gen.max_rss_kib / 1024.0);

  fmt::print("{:<18} {:>8} {:>8} {:>12} {:>12} {:>14} {:>11}\n", "run", "wall s", "CPU s",
             "events/s", "events/CPU-s", "decisions/s", "peak RSS");
  const std::vector<std::tuple<std::string, std::vector<std::string>, int>> cases{
      {"rr", {"-s", "rr"}, 1},
      {"ll", {"-s", "ll"}, 1},
      {"rr+ll", {"-s", "rr,ll"}, 2},
      {"ll stale+windows", {"-s", "ll", "--stale-interval", "1", "--stale-delay", "0.5", "--window", "60"}, 1},
  };
  for (const auto& [label, strategy_args, count] : cases) {
    std::vector<std::string> command{lbsim};
    command.insert(command.end(), strategy_args.begin(), strategy_args.end());
    for (const char* a : {"--slots", slots.c_str(), "--format", "json", trace.c_str()})
      command.emplace_back(a);
    const Sample s = Median(command, runs);
    fmt::print("{:<18} {:>8.3f} {:>8.3f} {:>12.0f} {:>12.0f} {:>14.0f} {:>7.1f} MiB\n", label,
               s.seconds, s.cpu_seconds, events / s.seconds, events / s.cpu_seconds,
               decisions * count / s.seconds, s.max_rss_kib / 1024.0);
  }
  std::remove(trace.c_str());
  return 0;
}
