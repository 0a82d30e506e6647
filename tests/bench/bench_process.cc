#include "bench_process.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace lbsim::bench {

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
  auto seconds = [](const timeval& tv) { return tv.tv_sec + tv.tv_usec / 1e6; };
  return {std::chrono::duration<double>(end - start).count(),
          seconds(usage.ru_utime) + seconds(usage.ru_stime), seconds(usage.ru_stime),
          usage.ru_maxrss};
}

Sample Median(const std::vector<std::string>& argv, int runs) {
  std::vector<Sample> samples;
  for (int i = 0; i < runs; ++i) samples.push_back(RunOnce(argv));
  return Median(std::move(samples));
}

Sample Median(std::vector<Sample> samples) {
  std::sort(samples.begin(), samples.end(),
            [](const Sample& a, const Sample& b) { return a.seconds < b.seconds; });
  return samples[samples.size() / 2];
}

std::vector<Sample> RunSideBySide(const std::vector<std::vector<std::string>>& commands,
                                  int rounds) {
  return RunSideBySide(commands, rounds, std::vector<int>(commands.size(), 1));
}

std::vector<Sample> RunSideBySide(const std::vector<std::vector<std::string>>& commands,
                                  int rounds, const std::vector<int>& repeats) {
  std::vector<std::vector<Sample>> samples(commands.size());
  const int most = *std::max_element(repeats.begin(), repeats.end());
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < most; ++k)
      for (std::size_t c = 0; c < commands.size(); ++c)
        if (k < repeats[c]) samples[c].push_back(RunOnce(commands[c]));
  std::vector<Sample> medians;
  for (std::vector<Sample>& s : samples) medians.push_back(Median(std::move(s)));
  return medians;
}

std::string Seconds(double s) {
  return s >= 1 ? fmt::format("{:.3f} s", s) : fmt::format("{:.1f} ms", s * 1e3);
}

}  // namespace lbsim::bench
