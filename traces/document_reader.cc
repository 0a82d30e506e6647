// JSON document: one object holding the header keys and "events": [...].
// Streamed with a SAX parser in two passes over the file: the first
// collects the header (wherever its keys sit relative to "events"), the
// second builds and hands on one event at a time. No DOM of the whole file
// is ever built, and no single event or header value may take more than
// kMaxValueBytes of JSON text (see BoundedInput), so memory stays bounded
// whatever the file holds.

#include <cstdio>
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/errors.h"
#include "traces/bounded_input.h"
#include "traces/json_value_builder.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

using json = nlohmann::json;

class DocumentSax {
 public:
  enum class Pass { kHeader, kEvents };

  DocumentSax(Pass pass, TraceStream& stream, BoundedInput& input)
      : pass_(pass), stream_(stream), input_(input) {
    input_.AllowFromHere(kMaxValueBytes);
    builder_.set_max_values(kMaxEventValues);
  }

  bool null() { return Boundary(Scalar(nullptr)); }
  bool boolean(bool v) { return Boundary(Scalar(v)); }
  bool number_integer(json::number_integer_t v) { return Boundary(Scalar(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return Boundary(Scalar(v)); }
  bool number_float(json::number_float_t v, const std::string&) {
    return Boundary(Scalar(v));
  }
  bool string(std::string& v) { return Boundary(Scalar(std::move(v))); }
  bool binary(json::binary_t&) { return false; }
  bool start_object(std::size_t) { return Boundary(Start(json::object())); }
  bool start_array(std::size_t) { return Boundary(Start(json::array())); }
  bool end_object() { return Boundary(End()); }
  bool end_array() { return Boundary(End()); }

  bool key(std::string& k) {
    if (skip_ > 0 || building_) return building_ ? builder_.Key(k) : true;
    // A key of the top-level object.
    key_ = k;
    if (k == "events") {
      if (events_seen_) return Stop("field \"events\": appears twice in the document");
      events_seen_ = true;
    }
    return Boundary(true);
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) {
    std::string location = Location();
    error_ = ParseErrorWithPosition(ex.what(), location.empty() ? "" : location + ": ");
    return false;
  }

  const json& header() const { return header_; }
  bool events_seen() const { return events_seen_; }
  const std::string& error() const { return error_; }
  // Why the value being read went over a limit, or empty.
  std::string LimitError() const {
    if (too_deep_)
      return fmt::format("nesting deeper than the limit of {} levels", kMaxNestingDepth);
    if (!builder_.limit_error().empty()) return builder_.limit_error();
    if (input_.hit_limit())
      return fmt::format("longer than the limit of {} MiB of JSON text", kMaxValueBytes >> 20);
    return {};
  }
  // Where the parser is, for messages: "events[I]", "header: field \"K\"",
  // or empty outside the top-level object.
  std::string Location() const {
    if (where_ == Where::kEventsArray) return fmt::format("events[{}]", index_);
    if (where_ == Where::kRoot)
      return fmt::format("header: field {}",
                         json(key_).dump(-1, ' ', false, json::error_handler_t::replace));
    return "";
  }

 private:
  enum class Where { kTop, kRoot, kEventsArray };

  // Between two values of the root object or of `events` (not inside one),
  // the next value may take kMaxValueBytes again.
  bool Boundary(bool ok) {
    if (ok && skip_ == 0 && !building_) input_.AllowFromHere(kMaxValueBytes);
    return ok;
  }

  bool Stop(std::string message) {
    error_ = std::move(message);
    return false;
  }

  // Whether the value now starting is handed to the builder.
  bool WantValue() const {
    if (where_ == Where::kEventsArray) return pass_ == Pass::kEvents;
    return pass_ == Pass::kHeader;  // a header value
  }

  bool Scalar(json v) {
    if (skip_ > 0) return true;
    if (building_) return builder_.Scalar(std::move(v)) && Finish();
    switch (where_) {
      case Where::kTop:
        return Stop("expected a JSON object at the top level of a trace document");
      case Where::kRoot:
        if (key_ == "events")
          return Stop(fmt::format("header: field \"events\": expected an array of events, got {}",
                                  v.dump()));
        if (pass_ == Pass::kHeader) header_[key_] = std::move(v);
        return true;
      case Where::kEventsArray:
        if (pass_ == Pass::kEvents) {
          builder_.Reset();
          builder_.Scalar(std::move(v));
          return Finish();
        }
        ++index_;
        return true;
    }
    return true;
  }

  bool Start(json empty) {
    if (skip_ > 0) {
      if (++skip_ > kMaxNestingDepth) return TooDeep();
      return true;
    }
    if (building_) return builder_.StartContainer(std::move(empty));
    switch (where_) {
      case Where::kTop:
        if (!empty.is_object())
          return Stop("expected a JSON object at the top level of a trace document");
        where_ = Where::kRoot;
        return true;
      case Where::kRoot:
        if (key_ == "events") {
          if (!empty.is_array())
            return Stop("header: field \"events\": expected an array of events, got an object");
          where_ = Where::kEventsArray;
          return true;
        }
        break;
      case Where::kEventsArray:
        break;
    }
    if (!WantValue()) {
      skip_ = 1;
      return true;
    }
    builder_.Reset();
    building_ = true;
    return builder_.StartContainer(std::move(empty));
  }

  bool End() {
    if (skip_ > 0) {
      if (--skip_ == 0 && where_ == Where::kEventsArray) ++index_;  // skipped an event
      return true;
    }
    if (building_) return builder_.EndContainer() && Finish();
    if (where_ == Where::kEventsArray) where_ = Where::kRoot;
    else if (where_ == Where::kRoot) where_ = Where::kTop;
    return true;
  }

  // Hands on a completed value, if the builder has one.
  bool Finish() {
    if (!builder_.done()) return true;
    building_ = false;
    if (where_ == Where::kRoot) {
      header_[key_] = std::move(builder_.value());
    } else {
      stream_.Event(builder_.value(), index_++);
    }
    return true;
  }

  bool TooDeep() {
    too_deep_ = true;
    return false;
  }

  Pass pass_;
  TraceStream& stream_;
  BoundedInput& input_;
  JsonValueBuilder builder_;
  bool too_deep_ = false;  // while skipping
  Where where_ = Where::kTop;
  bool building_ = false;
  std::size_t skip_ = 0;  // depth inside a value this pass ignores
  std::string key_;
  json header_ = json::object();
  bool events_seen_ = false;
  std::uint64_t index_ = 0;
  std::string error_;
};

void RunPass(std::FILE* file, BoundedInput& input, DocumentSax& sax,
             TraceStream& stream) {
  std::rewind(file);
  if (nlohmann::json::sax_parse(input.begin(), input.end(), &sax)) return;
  if (input.read_error())
    throw InputError(fmt::format("{}: cannot read trace: {}", stream.path(),
                                 std::strerror(input.read_error())));
  std::string limit = sax.LimitError();
  if (!limit.empty()) {
    std::string location = sax.Location();
    throw InputError(fmt::format("{}: {}{}", stream.path(),
                                 location.empty() ? "" : location + ": ", limit));
  }
  const std::string& error = sax.error();
  // Syntax errors start with "LINE:COLUMN:", which joins the path without a space.
  bool positioned = !error.empty() && error[0] >= '0' && error[0] <= '9';
  throw InputError(fmt::format("{}:{}{}", stream.path(), positioned ? "" : " ", error));
}

// An empty or all-whitespace file gets its own message rather than a
// parser's "unexpected end of input".
void RefuseEmpty(std::FILE* file, const TraceStream& stream) {
  int c;
  while ((c = std::getc(file)) == ' ' || c == '\t' || c == '\n' || c == '\r') {
  }
  if (c == EOF && !std::ferror(file))
    throw InputError(fmt::format(
        "{}: empty trace: expected a JSON object {{\"lbsim_trace\": 1, ..., \"events\": [...]}}",
        stream.path()));
}

}  // namespace

void ReadDocumentTrace(std::FILE* file, TraceStream& stream) {
  RefuseEmpty(file, stream);
  {
    BoundedInput input(file);
    DocumentSax header_pass(DocumentSax::Pass::kHeader, stream, input);
    RunPass(file, input, header_pass, stream);
    if (!header_pass.events_seen())
      throw InputError(fmt::format(
          "{}: header: field \"events\": expected an array of events, but it is missing",
          stream.path()));
    stream.Header(header_pass.header(), 0);
  }
  BoundedInput input(file);
  DocumentSax events_pass(DocumentSax::Pass::kEvents, stream, input);
  RunPass(file, input, events_pass, stream);
}

}  // namespace lbsim
