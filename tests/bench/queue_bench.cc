// The Proxy queue model's cost (issue 55): `lbsim gen` writes two traces
// with first-token times, and least_load replays each with and without
// --proxy-queue, side by side (interleaved rounds, median of each):
//
//   proxy shape  1M arrivals over 16 Instances (Poisson at 128/s, 0.5 s
//                responses, 50 ms to the first token): the queue's CPU cost
//                per request, against the goal of 1 us;
//   10k          a tenth as many arrivals over 10,000 Instances (2,000/s, 2 s
//                responses: about 4,000 Instances busy at once):
//                least_load with the queue against without, against the
//                goal of 2x.
//
// Prints CPU seconds, CPU us per request, the ratio and peak RSS.
//
// Usage: queue_bench LBSIM [--rounds R] [--arrivals N] [--dir DIR]

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench_process.h"

using lbsim::bench::RunSideBySide;
using lbsim::bench::Sample;

namespace {

struct Shape {
  std::string label;
  std::string instances;
  std::string rate;
  std::string arrivals;
  std::string durations;
  std::string ttft;
};

void Run(const std::string& lbsim, const Shape& shape, const std::string& dir, int rounds) {
  const std::string trace = fmt::format("{}/lbsim-queue-bench-{}.ndjson", dir, shape.instances);
  lbsim::bench::RunOnce({lbsim, "gen", "--instances", shape.instances, "--rate", shape.rate,
                         "--arrivals", shape.arrivals, "--durations", shape.durations, "--ttft",
                         shape.ttft, "--seed", "1", "--proxy", "cacheroute@28e857c", "-o", trace});
  const std::vector<std::vector<std::string>> commands = {
      {lbsim, "-s", "ll", "--format", "json", trace},
      {lbsim, "-s", "ll", "--proxy-queue", "--format", "json", trace},
      {lbsim, "-s", "rr", "--proxy-queue", "--format", "json", trace},
  };
  const std::vector<Sample> s = RunSideBySide(commands, rounds);
  const double n = std::atof(shape.arrivals.c_str());
  fmt::print("{}: {} arrivals over {} Instances; median of {} rounds\n", shape.label,
             shape.arrivals, shape.instances, rounds);
  fmt::print("  {:<22} {:>8} {:>12} {:>10}\n", "run", "CPU s", "CPU us/req", "peak RSS");
  const char* labels[] = {"ll", "ll --proxy-queue", "rr --proxy-queue"};
  for (std::size_t k = 0; k < s.size(); ++k)
    fmt::print("  {:<22} {:>8.3f} {:>12.3f} {:>6.1f} MiB\n", labels[k], s[k].cpu_seconds,
               s[k].cpu_seconds / n * 1e6, s[k].max_rss_kib / 1024.0);
  fmt::print("  queue cost: {:.3f} us of CPU per request; ll with the queue / without: {:.2f}x\n\n",
             (s[1].cpu_seconds - s[0].cpu_seconds) / n * 1e6, s[1].cpu_seconds / s[0].cpu_seconds);
  std::remove(trace.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: queue_bench LBSIM [--rounds R] [--arrivals N] [--dir DIR]\n");
    return 2;
  }
  const std::string lbsim = argv[1];
  int rounds = 3;
  std::string arrivals = "1000000", dir = "/tmp";
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--rounds") rounds = std::atoi(argv[i + 1]);
    else if (flag == "--arrivals") arrivals = argv[i + 1];
    else if (flag == "--dir") dir = argv[i + 1];
  }
  Run(lbsim, {"proxy shape", "16", "128", arrivals, "exponential:0.5", "exponential:0.05"}, dir,
      rounds);
  const std::string tenth = fmt::format("{}", std::max(1LL, std::atoll(arrivals.c_str()) / 10));
  Run(lbsim, {"10k", "10000", "2000", tenth, "exponential:2", "exponential:0.3"}, dir, rounds);
  return 0;
}
