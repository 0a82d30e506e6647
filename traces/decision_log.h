#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "traces/trace_event.h"

namespace lbsim {

class BackgroundWriter;

// One decision of one strategy, as the decision log records it.
struct DecisionRecord {
  std::string_view strategy;  // canonical name
  std::uint64_t seq = 0;      // 1-based arrival number
  const TraceTime* t = nullptr;
  std::string_view request;
  const std::string* instance = nullptr;  // nullptr: no_instances
  std::string_view reason;
  std::size_t candidates = 0;
  // The queue snapshot the decision read, as JSON (--proxy-queue); empty:
  // none, and the line has no "queue_depths" key.
  std::string_view queue_depths = {};
  // The arrival's recorded proxy_choice (may be null): when present, the
  // line ends with it, passed through ("proxy_choice": an id or null).
  const FieldUpdate<std::string_view>* proxy_choice = nullptr;
};

// Receives every decision of one strategy, in arrival order. The record's
// views are valid only during the call.
class DecisionSink {
 public:
  virtual ~DecisionSink() = default;
  virtual void Write(const DecisionRecord& record) = 0;
};

// Writes decision log lines (JSON Lines, spec key order) to a stdio stream:
// each line as it comes, or, given a BackgroundWriter (which must outlive
// this writer), in blocks that writer's thread writes; Flush then hands on
// the last one.
class DecisionLogWriter final : public DecisionSink {
 public:
  explicit DecisionLogWriter(std::FILE* out, BackgroundWriter* background = nullptr)
      : out_(out), background_(background) {}
  void Write(const DecisionRecord& record) override;
  // Hands the lines not yet handed on to the BackgroundWriter, if any.
  void Flush();

 private:
  std::FILE* out_;
  BackgroundWriter* background_;
  std::string line_;  // with background_: the lines not yet handed on
};

// (AppendJsonString, for any string: base/json/json_write.h.)

// Appends a trace time as JSON: an integer literal as written, otherwise
// the shortest text that reads back as the same double.
void AppendTraceTime(std::string& out, const TraceTime& t);

}  // namespace lbsim
