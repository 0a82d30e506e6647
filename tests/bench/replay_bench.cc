// Replay benchmark: generates a synthetic JSON Lines trace (1M arrivals, 16
// Instances, a load snapshot every 10 arrivals, durations), then runs the
// lbsim binary on it for round_robin, least_load and both together, and
// prints events/s, decisions/s and peak RSS (median of --runs runs).
//
// Usage: replay_bench LBSIM [--arrivals N] [--instances K] [--runs R] [--trace PATH]

#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "make_bench_trace.h"

namespace {

struct Sample {
  double seconds = 0;
  long max_rss_kib = 0;
};

// Runs argv with stdout to /dev/null; returns wall time and peak RSS.
Sample RunOnce(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  auto end = std::chrono::steady_clock::now();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fmt::print(stderr, "command failed: {}\n", fmt::join(argv, " "));
    std::exit(1);
  }
  return {std::chrono::duration<double>(end - start).count(), usage.ru_maxrss};
}

Sample Median(const std::vector<std::string>& argv, int runs) {
  std::vector<Sample> samples;
  for (int i = 0; i < runs; ++i) samples.push_back(RunOnce(argv));
  std::sort(samples.begin(), samples.end(),
            [](const Sample& a, const Sample& b) { return a.seconds < b.seconds; });
  return samples[samples.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: replay_bench LBSIM [--arrivals N] [--instances K] [--runs R] [--trace PATH]\n");
    return 2;
  }
  std::string lbsim = argv[1];
  lbsim::bench::BenchTraceShape shape;
  int runs = 5;
  std::string trace = "/tmp/lbsim-bench.ndjson";
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--arrivals") shape.arrivals = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--instances") shape.instances = std::strtoul(argv[i + 1], nullptr, 10);
    else if (flag == "--runs") runs = std::atoi(argv[i + 1]);
    else if (flag == "--trace") trace = argv[i + 1];
  }
  std::uint64_t events = lbsim::bench::WriteBenchTrace(trace, shape);
  fmt::print("trace: {} events ({} arrivals), {} Instances, {}; median of {} runs\n\n",
             events, shape.arrivals, shape.instances, trace, runs);
  fmt::print("{:<12} {:>9} {:>14} {:>16} {:>12}\n", "strategies", "seconds", "events/s",
             "decisions/s", "peak RSS");
  for (const auto& [label, spec, count] :
       std::vector<std::tuple<std::string, std::string, int>>{
           {"rr", "rr", 1}, {"ll", "ll", 1}, {"rr+ll", "rr,ll", 2}}) {
    Sample s = Median({lbsim, "-s", spec, "--format", "json", trace}, runs);
    fmt::print("{:<12} {:>9.3f} {:>14.0f} {:>16.0f} {:>9.1f} MiB\n", label, s.seconds,
               events / s.seconds, shape.arrivals * count / s.seconds,
               s.max_rss_kib / 1024.0);
  }
  std::remove(trace.c_str());
  return 0;
}
