#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "traces/trace_event.h"

namespace lbsim {

class BackgroundWriter;

// One request's journey through the Proxy's queue (--request-log): where
// it went and when it was forwarded, got its first token and ended, in
// trace units.
struct RequestRecord {
  std::string_view request;
  std::string_view strategy;              // canonical name
  const std::string* instance = nullptr;  // nullptr: not routed
  const TraceTime* arrival = nullptr;
  std::optional<double> forwarded;
  std::optional<double> first_token;
  std::optional<double> end;
  std::string_view outcome;  // done, stuck, refused, no_instances
};

// Receives every request of one strategy run, in arrival order.
class RequestSink {
 public:
  virtual ~RequestSink() = default;
  virtual void Write(const RequestRecord& record) = 0;
};

// Writes request log lines (JSON Lines: request, strategy, instance,
// arrival, forwarded, first_token, end, outcome) to a stdio stream: each
// line as it comes, or, given a BackgroundWriter (which must outlive this
// writer), in blocks that writer's thread writes; Flush then hands on the
// last one.
class RequestLogWriter final : public RequestSink {
 public:
  explicit RequestLogWriter(std::FILE* out, BackgroundWriter* background = nullptr)
      : out_(out), background_(background) {}
  void Write(const RequestRecord& record) override;
  // Hands the lines not yet handed on to the BackgroundWriter, if any.
  void Flush();

 private:
  std::FILE* out_;
  BackgroundWriter* background_;
  std::string line_;  // with background_: the lines not yet handed on
};

}  // namespace lbsim
