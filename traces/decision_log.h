#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "traces/trace_event.h"

namespace lbsim {

// One decision of one strategy, as the decision log records it.
struct DecisionRecord {
  std::string_view strategy;  // canonical name
  std::uint64_t seq = 0;      // 1-based arrival number
  const TraceTime* t = nullptr;
  std::string_view request;
  const std::string* instance = nullptr;  // nullptr: no_instances
  std::string_view reason;
  std::size_t candidates = 0;
};

// Receives every decision of one strategy, in arrival order. The record's
// views are valid only during the call.
class DecisionSink {
 public:
  virtual ~DecisionSink() = default;
  virtual void Write(const DecisionRecord& record) = 0;
};

// Writes decision log lines (JSON Lines, spec key order) to a stdio stream.
class DecisionLogWriter final : public DecisionSink {
 public:
  explicit DecisionLogWriter(std::FILE* out) : out_(out) {}
  void Write(const DecisionRecord& record) override;

 private:
  std::FILE* out_;
  std::string line_;
};

// Appends `s` to `out` as a JSON string literal (quotes included).
void AppendJsonString(std::string& out, std::string_view s);

// Appends a trace time as JSON: an integer literal as written, otherwise
// the shortest text that reads back as the same double.
void AppendTraceTime(std::string& out, const TraceTime& t);

}  // namespace lbsim
