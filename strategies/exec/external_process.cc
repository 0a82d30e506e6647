// exec: an external strategy program. lbsim starts COMMAND once per run
// (through /bin/sh -c) and asks it for every decision over the JSON Lines
// protocol of exec_protocol.h. Anything but a valid reply in time -- a
// non-candidate, a malformed line, an exit, a timeout -- stops the run with
// a StrategyError, and the program is killed and reaped.

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "base/errors.h"
#include "strategies/exec/child_process.h"
#include "strategies/exec/exec_protocol.h"
#include "strategies/registry.h"

namespace lbsim {
namespace {

constexpr std::size_t kMaxReplyBytes = 1u << 20;
constexpr double kMaxTimeoutSeconds = 1e6;

// The command as error messages show it: at most kShownCommand characters.
constexpr std::size_t kShownCommand = 120;
std::string Shown(std::string_view command) {
  std::string text(command.substr(0, kShownCommand));
  if (command.size() > kShownCommand) text += "...";
  return text;
}

class ExternalProcess final : public Strategy {
 public:
  ExternalProcess(const std::string& command, double timeout_seconds)
      : command_(command),
        timeout_(std::chrono::duration_cast<ChildProcess::Clock::duration>(
            std::chrono::duration<double>(timeout_seconds))),
        timeout_text_(fmt::format("{}", timeout_seconds)),
        child_(command, std::chrono::ceil<std::chrono::milliseconds>(timeout_)) {}

  std::string_view Name() const override { return "exec"; }
  bool WantsRawHint() const override { return true; }

  void BeforeSelect(const ArrivalInfo& arrival) override { arrival_ = arrival; }
  bool WantsArrivalInfo() const override { return true; }

  Choice Select(std::span<const Candidate> candidates, const Hint& hint) override {
    if (child_.HasUnreadOutput())
      Fail("the program wrote output before this request (more than one line for an "
           "earlier request?)");
    request_.clear();
    AppendExecRequest(request_, arrival_, candidates, hint);
    const auto deadline = ChildProcess::Clock::now() + timeout_;
    switch (child_.Write(request_, deadline)) {
      case ChildProcess::Status::kOk: break;
      case ChildProcess::Status::kTimeout: FailTimeout();
      default: FailEnded();
    }
    switch (child_.ReadLine(reply_line_, kMaxReplyBytes, deadline)) {
      case ChildProcess::Status::kOk: break;
      case ChildProcess::Status::kTimeout: FailTimeout();
      case ChildProcess::Status::kTooLong:
        Fail(fmt::format("reply is longer than {} MiB", kMaxReplyBytes >> 20));
      default: FailEnded();
    }
    if (child_.HasUnreadOutput())
      Fail("the program wrote more than one line for one request");
    std::string error;
    if (!ParseExecReply(reply_line_, candidates, arrival_.seq, reply_, error))
      Fail(fmt::format("bad reply {}: {}", Excerpt(reply_line_), error));
    ++replies_;
    if (reply_.refused) return Choice::Refused();
    return Choice{reply_.index, reply_.reason};
  }

 private:
  [[noreturn]] void Fail(const std::string& what) {
    child_.Stop(ChildProcess::Clock::now());
    throw StrategyError(fmt::format("exec strategy '{}': seq {} (request {}): {}",
                                    Shown(command_), arrival_.seq, arrival_.request, what));
  }

  [[noreturn]] void FailTimeout() {
    // With no reply yet, the likeliest cause is a program whose output sits
    // in its own buffer (stdout to a pipe is block-buffered).
    Fail(fmt::format("no reply within {} s (--exec-timeout); the program was killed{}",
                     timeout_text_,
                     replies_ == 0 ? ". It never replied: if it answers when run by hand, it "
                                     "may buffer its output; flush after every reply (Python: "
                                     "print(..., flush=True) or python3 -u)"
                                   : ""));
  }

  // The child closed its input or output: give it a moment to finish
  // exiting, to say how it ended.
  [[noreturn]] void FailEnded() {
    std::string ended = child_.Stop(ChildProcess::Clock::now() + std::min(
        timeout_, std::chrono::duration_cast<ChildProcess::Clock::duration>(
                      std::chrono::seconds(2))));
    Fail(fmt::format("the program closed the pipe without replying; it {}", ended));
  }

  // The start of a reply for an error message (whose control characters
  // are escaped where it is printed).
  static std::string Excerpt(std::string_view line) {
    std::string text(line.substr(0, 80));
    if (line.size() > 80) text += "...";
    return text;
  }

  std::string command_;
  ChildProcess::Clock::duration timeout_;
  std::string timeout_text_;
  ChildProcess child_;
  ArrivalInfo arrival_;
  std::string request_, reply_line_;  // reused buffers
  ExecReply reply_;                   // owns the reason word of the last pick
  std::uint64_t replies_ = 0;         // valid replies so far
};

}  // namespace

StrategyInfo ExternalProcessInfo() {
  ParamSpec command;
  command.name = "command";
  command.kind = ParamKind::kText;
  command.description = "the program to run through /bin/sh -c (exec:COMMAND)";
  command.tail = true;
  ParamSpec timeout;
  timeout.name = "timeout";
  timeout.kind = ParamKind::kNumber;
  timeout.default_text = "10";
  timeout.description = "seconds to wait for each reply (--exec-timeout)";
  timeout.min = 0.001;
  return {
      .name = "exec",
      .aliases = {},
      .status = StrategyStatus::kExperimental,
      .description =
          "Runs COMMAND (exec:COMMAND) and asks it for every decision over a JSON "
          "Lines protocol (see docs/external-strategies.md).",
      .params = {command, timeout},
      .reasons = {},
      .make = [](const ParamValues& p) -> std::unique_ptr<Strategy> {
        if (p.Number("timeout") > kMaxTimeoutSeconds)
          throw UsageError(fmt::format(
              "strategy exec: parameter timeout: expected at most {} seconds, got {}",
              kMaxTimeoutSeconds, p.Text("timeout")));
        return std::make_unique<ExternalProcess>(std::string(p.Text("command")),
                                                 p.Number("timeout"));
      },
      .runs_program = true,
  };
}

}  // namespace lbsim
