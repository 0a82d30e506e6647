// JSON document: one object holding the header keys and "events": [...].
// Streamed with a SAX parser in two passes over the file: the first
// collects the header (wherever its keys sit relative to "events"), the
// second builds and hands on one event at a time. No DOM of the whole file
// is ever built.

#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/errors.h"
#include "traces/json_value_builder.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

using json = nlohmann::json;

class DocumentSax {
 public:
  enum class Pass { kHeader, kEvents };

  DocumentSax(Pass pass, TraceStream& stream) : pass_(pass), stream_(stream) {}

  bool null() { return Scalar(nullptr); }
  bool boolean(bool v) { return Scalar(v); }
  bool number_integer(json::number_integer_t v) { return Scalar(v); }
  bool number_unsigned(json::number_unsigned_t v) { return Scalar(v); }
  bool number_float(json::number_float_t v, const std::string&) { return Scalar(v); }
  bool string(std::string& v) { return Scalar(std::move(v)); }
  bool binary(json::binary_t&) { return false; }
  bool start_object(std::size_t) { return Start(json::object()); }
  bool start_array(std::size_t) { return Start(json::array()); }
  bool end_object() { return End(); }
  bool end_array() { return End(); }

  bool key(std::string& k) {
    if (skip_ > 0 || building_) return building_ ? builder_.Key(k) : true;
    // A key of the top-level object.
    key_ = k;
    if (k == "events") {
      if (events_seen_) return Stop("field \"events\": appears twice in the document");
      events_seen_ = true;
    }
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) {
    error_ = ParseErrorWithPosition(ex.what(), Location());
    return false;
  }

  const json& header() const { return header_; }
  bool events_seen() const { return events_seen_; }
  const std::string& error() const { return error_; }

 private:
  enum class Where { kTop, kRoot, kEventsArray };

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
      if (++skip_ > kMaxNestingDepth + 2) return TooDeep();
      return true;
    }
    if (building_) return builder_.StartContainer(std::move(empty)) || TooDeep();
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
        event_ = index_;
        break;
    }
    if (!WantValue()) {
      skip_ = 1;
      if (where_ == Where::kEventsArray) ++index_;
      return true;
    }
    builder_.Reset();
    building_ = true;
    return builder_.StartContainer(std::move(empty)) || TooDeep();
  }

  bool End() {
    if (skip_ > 0) {
      --skip_;
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

  // "events[I]: " or "header: field "KEY": " for the value being read.
  std::string Location() const {
    if (where_ == Where::kEventsArray)  // inside an event, or just before one
      return fmt::format("events[{}]: ", skip_ > 0 || building_ ? event_ : index_);
    if (where_ == Where::kRoot) return fmt::format("header: field {}: ", json(key_).dump());
    return "";
  }

  bool TooDeep() {
    return Stop(fmt::format("{}nesting deeper than the limit of {} levels", Location(),
                            kMaxNestingDepth));
  }

  Pass pass_;
  TraceStream& stream_;
  JsonValueBuilder builder_;
  Where where_ = Where::kTop;
  bool building_ = false;
  std::size_t skip_ = 0;  // depth inside a value this pass ignores
  std::string key_;
  json header_ = json::object();
  bool events_seen_ = false;
  std::uint64_t index_ = 0;
  std::uint64_t event_ = 0;  // index of the event whose value is being read
  std::string error_;
};

void RunPass(std::FILE* file, DocumentSax& sax, TraceStream& stream) {
  std::rewind(file);
  if (nlohmann::json::sax_parse(file, &sax)) return;
  if (std::ferror(file))
    throw InputError(fmt::format("{}: read error", stream.path()));
  const std::string& error = sax.error();
  // Syntax errors start with "LINE:COLUMN:", which joins the path without a space.
  bool positioned = !error.empty() && error[0] >= '0' && error[0] <= '9';
  throw InputError(fmt::format("{}:{}{}", stream.path(), positioned ? "" : " ", error));
}

}  // namespace

void ReadDocumentTrace(std::FILE* file, TraceStream& stream) {
  DocumentSax header_pass(DocumentSax::Pass::kHeader, stream);
  RunPass(file, header_pass, stream);
  if (!header_pass.events_seen())
    throw InputError(fmt::format(
        "{}: header: field \"events\": expected an array of events, but it is missing",
        stream.path()));
  stream.Header(header_pass.header(), 0);
  DocumentSax events_pass(DocumentSax::Pass::kEvents, stream);
  RunPass(file, events_pass, stream);
}

}  // namespace lbsim
