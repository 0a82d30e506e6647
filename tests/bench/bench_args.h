#pragma once

#include <cstdlib>
#include <map>
#include <string>

#include <fmt/format.h>

namespace lbsim::bench {

// Command-line flags of a benchmark: "--name value" pairs after the
// positional LBSIM path, with defaults.
class BenchArgs {
 public:
  // Exits with `usage` when the LBSIM path is missing or a flag is unknown.
  BenchArgs(int argc, char** argv, std::map<std::string, std::string> defaults,
            const std::string& usage)
      : values_(std::move(defaults)) {
    if (argc < 2 || argv[1][0] == '-') Usage(usage);
    lbsim_ = argv[1];
    for (int i = 2; i < argc; i += 2) {
      std::string flag = argv[i];
      if (flag.rfind("--", 0) != 0 || i + 1 >= argc || !values_.count(flag.substr(2))) Usage(usage);
      values_[flag.substr(2)] = argv[i + 1];
    }
  }

  const std::string& lbsim() const { return lbsim_; }
  const std::string& Text(const std::string& name) const { return values_.at(name); }
  unsigned long long Number(const std::string& name) const {
    return std::strtoull(values_.at(name).c_str(), nullptr, 10);
  }

 private:
  [[noreturn]] static void Usage(const std::string& usage) {
    fmt::print(stderr, "usage: {}\n", usage);
    std::exit(2);
  }

  std::string lbsim_;
  std::map<std::string, std::string> values_;
};

}  // namespace lbsim::bench
