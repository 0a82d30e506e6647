#pragma once

#include <string>
#include <vector>

namespace lbsim::bench {

// Wall time, CPU time (user + system) and peak resident memory of one run
// of a program. On a shared machine CPU time is the steadier figure.
struct Sample {
  double seconds = 0;
  double cpu_seconds = 0;  // user and system
  double system_seconds = 0;  // of which in the kernel
  long max_rss_kib = 0;
};

// Runs argv (argv[0] a path) with stdout to /dev/null; exits the benchmark
// when the program fails.
Sample RunOnce(const std::vector<std::string>& argv);

// The run with the median wall time out of `runs`.
Sample Median(const std::vector<std::string>& argv, int runs);

// The run with the median wall time out of `samples`.
Sample Median(std::vector<Sample> samples);

// Runs each command of `commands` once per round, interleaved (so that
// background load hits all of them alike), for `rounds` rounds; returns
// each command's run with the median wall time.
std::vector<Sample> RunSideBySide(const std::vector<std::vector<std::string>>& commands,
                                  int rounds);
// The same with command c run repeats[c] times a round (its runs spread
// over the round, between the other commands'): short commands get more
// runs, so that a few seconds of background load on a shared machine move
// their median less, while long ones still run once a round.
std::vector<Sample> RunSideBySide(const std::vector<std::vector<std::string>>& commands,
                                  int rounds, const std::vector<int>& repeats);

// "1.234 s" or "12.3 ms".
std::string Seconds(double s);

}  // namespace lbsim::bench
