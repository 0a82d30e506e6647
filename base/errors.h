#pragma once

#include <stdexcept>
#include <string>

namespace lbsim {

// Bad input data (a trace, a scenario): the message is one complete line
// naming the file, the line or index, the field and what was expected.
// The CLI prints it and exits with status 2.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message)
      : std::runtime_error(message) {}
};

// A strategy program (exec:COMMAND) that failed a decision: a bad reply, an
// exit, a timeout. Not an error of the trace, so trace readers pass it on
// without naming a position in the trace; also exit status 2.
class StrategyError : public std::runtime_error {
 public:
  explicit StrategyError(const std::string& message) : std::runtime_error(message) {}
};

// Two well-formed inputs that cannot be compared (lbsim diff of reports
// made under other traces, Proxy profiles or simulation options): exit
// status 4, so that a CI job tells "not comparable" from a bad file.
class NotComparableError : public std::runtime_error {
 public:
  explicit NotComparableError(const std::string& message) : std::runtime_error(message) {}
};

// A bad command line or strategy specification; also exit status 2.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message)
      : std::runtime_error(message) {}
};

}  // namespace lbsim
