// JSON document: one object holding the header keys and "events": [...].
// Streamed in two passes through a read window, never as a whole: the
// first pass validates the entire document (so a syntax error anywhere is
// reported before any event is looked at), collects the header members
// wherever they sit relative to "events", and notes where the events array
// starts; the second pass decodes the array's elements one at a time, each
// like a JSON Lines line.

#include <cstdio>
#include <optional>
#include <span>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "base/input/file_window.h"
#include "base/json/json_scanner.h"
#include "base/json/json_line_parser.h"
#include "base/json/json_syntax_error.h"
#include "traces/line_layouts.h"
#include "base/input/text_file.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

using Status = JsonScanner::Status;

// What reading one value gave: the scanner's verdict, or kTooLong when the
// value ran past kMaxValueBytes before it ended.
enum class ValueStatus { kOk, kInvalid, kTooDeep, kTooMany, kTooLong, kDuplicateKey };

// A position in a document read through a FileWindow.
class DocumentCursor {
 public:
  DocumentCursor(InputFile& input, TraceStream& stream, std::uint64_t pass_start)
      : window_(input.get(), &input), stream_(stream), pass_start_(pass_start) {}

  // Skips whitespace and returns the next byte, or '\0' at the end of the
  // input: the end of the file or a NUL byte (which ends JSON input, as
  // for nlohmann::json).
  char Peek() {
    for (;;) {
      for (; pos_ < window_.size(); ++pos_) {
        char c = window_.data()[pos_];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return c;
      }
      if (!More()) return '\0';
    }
  }

  // Moves past the byte Peek() returned.
  void Skip() { ++pos_; }

  // Whether the input starts with `bytes` at the cursor (without skipping
  // whitespace); moves past them when it does.
  bool Consume(std::string_view bytes) {
    while (window_.size() - pos_ < bytes.size() && More()) {
    }
    if (std::string_view(window_.data() + pos_, window_.size() - pos_).substr(0, bytes.size()) !=
        bytes)
      return false;
    pos_ += bytes.size();
    return true;
  }

  // Validates the value at the cursor and moves past it. `value` and
  // members() stay valid until the cursor moves again. A value may take
  // kMaxValueBytes, so the window never holds more than that.
  ValueStatus Value(JsonScanner& scanner, JsonView& value) {
    for (;;) {
      const char* p = window_.data() + pos_;
      switch (scanner.ScanValue(p, window_.data() + window_.size(), window_.at_eof(), value)) {
        case Status::kOk:
          if (value.text.size() > kMaxValueBytes) return ValueStatus::kTooLong;
          pos_ += value.text.size();
          members_ = scanner.members();
          return ValueStatus::kOk;
        case Status::kInvalid: return ValueStatus::kInvalid;
        case Status::kTooDeep: return ValueStatus::kTooDeep;
        case Status::kTooMany: return ValueStatus::kTooMany;
        case Status::kDuplicateKey: return ValueStatus::kDuplicateKey;
        case Status::kTruncated: break;
      }
      if (window_.size() - pos_ > kMaxValueBytes) return ValueStatus::kTooLong;
      More();
    }
  }

  // Moves past the value at the cursor when it lies whole in the window and
  // `layouts` vouch for it (see LineLayouts::Validate).
  bool SkipValidByLayout(LineLayouts& layouts) {
    const std::size_t size = layouts.Validate(Rest());
    pos_ += size;
    return size > 0;
  }

  // Hands on the event at the cursor, found at `index`, when it lies whole
  // in the window and fits one of `stream`'s layouts, and moves past it.
  bool EventByLayout(TraceStream& stream, std::uint64_t index) {
    std::size_t size = 0;
    if (!stream.EventByLayout(Rest(), index, size)) return false;
    pos_ += size;
    return true;
  }

  // The members of the value Value() last read, when it was an object.
  std::span<const JsonMember> members() const { return members_; }

  // Whether the whole file has been read and the cursor is at its end.
  bool AtEnd() const { return window_.at_eof() && pos_ == window_.size(); }

  std::uint64_t offset() const { return window_.offset() + pos_; }

  // Continues at file offset `offset`.
  void Seek(std::uint64_t offset) {
    if (!window_.Seek(offset))
      throw InputError(fmt::format("{}: cannot seek back in the trace", stream_.path()));
    pos_ = 0;
  }

 private:
  // What the window holds from the cursor on.
  std::string_view Rest() const {
    return std::string_view(window_.data() + pos_, window_.size() - pos_);
  }

  // Reads more, keeping the bytes from the cursor on. False at the end.
  bool More() {
    stream_.Progress(pass_start_ + offset());
    bool more = window_.Refill(pos_);
    pos_ = 0;
    if (!more && window_.read_error())
      throw InputError(fmt::format("{}: cannot read trace: {}", stream_.path(),
                                   window_.ReadErrorText()));
    return more;
  }

  FileWindow window_;
  TraceStream& stream_;
  std::uint64_t pass_start_;  // reading work done before this pass
  std::size_t pos_ = 0;
  std::span<const JsonMember> members_;
};

class DocumentReader {
 public:
  DocumentReader(InputFile& input, TraceStream& stream) : input_(input), stream_(stream) {}

  // Pass 1: validates the whole document, collects the header, finds the
  // events array.
  void Check() {
    DocumentCursor cursor(input_, stream_, 0);
    // A byte order mark may open the document; a broken one is a syntax error.
    const bool byte_order_mark = cursor.Consume("\xEF");
    if (byte_order_mark && !cursor.Consume("\xBB\xBF")) SyntaxError();
    char c = cursor.Peek();
    if (!byte_order_mark && cursor.AtEnd())
      Fail("empty trace: expected a JSON object {\"lbsim_trace\": 1, ..., \"events\": [...]}");
    if (c == '[') Fail("expected a JSON object at the top level of a trace document");
    if (c != '{') {
      JsonView value;
      if (c != '\0' && cursor.Value(scanner_, value) == ValueStatus::kOk)
        Fail("expected a JSON object at the top level of a trace document");
      SyntaxError();
    }
    TopObject(cursor);
    // Only whitespace after the document: a NUL byte there is no end.
    if (cursor.Peek() != '\0' || !cursor.AtEnd()) SyntaxError();
    end_ = cursor.offset();
  }

  // Hands the header members collected in pass 1 on as one object.
  void Header() {
    if (!events_start_)
      Fail("header: field \"events\": expected an array of events, but it is missing");
    header_ += '}';
    stream_.Header(JsonView{JsonKind::kObject, false, header_}, 0);
  }

  // Pass 2: decodes the elements of the events array in order.
  void Events() {
    DocumentCursor cursor(input_, stream_, end_);
    cursor.Seek(*events_start_);
    cursor.Peek();  // [
    cursor.Skip();
    if (cursor.Peek() == ']') return;
    scanner_.AllowOverflowFrom(kEventOverflowDepth);
    for (std::uint64_t index = 0;; ++index) {
      // Most elements fit a layout learned from an earlier one, as lines do.
      if (!cursor.EventByLayout(stream_, index)) {
        JsonView value;
        // Changed since pass 1, if it fails now.
        if (cursor.Value(scanner_, value) != ValueStatus::kOk) SyntaxError();
        stream_.Event(value, cursor.members(), index);
        stream_.LearnLayout(value.text, cursor.members());
      }
      if (cursor.Peek() != ',') return;
      cursor.Skip();
      cursor.Peek();
    }
  }

 private:
  // The top-level object, at its '{'.
  void TopObject(DocumentCursor& cursor) {
    cursor.Skip();
    char c = cursor.Peek();
    if (c == '}') {
      cursor.Skip();
      return;
    }
    for (;;) {
      JsonView key;
      if (c != '"' || cursor.Value(scanner_, key) != ValueStatus::kOk) SyntaxError();
      // The window may move while the value is read: keep the key's text.
      std::string key_text(key.text);
      key.text = key_text;
      std::string_view name = ReadString(key, scratch_);
      key_location_ = fmt::format("header: field {}: ", nlohmann::json(name).dump());
      const bool events = name == "events";
      if (events && events_start_) Fail("field \"events\": appears twice in the document");
      if (cursor.Peek() != ':') SyntaxError();
      cursor.Skip();
      c = cursor.Peek();
      if (events) EventsValue(cursor, c);
      else HeaderValue(cursor, key_text);
      c = cursor.Peek();
      if (c == '}') {
        cursor.Skip();
        return;
      }
      if (c != ',') SyntaxError();
      cursor.Skip();
      c = cursor.Peek();
    }
  }

  // The value of "events", whose first byte is `c`.
  void EventsValue(DocumentCursor& cursor, char c) {
    constexpr std::string_view kExpected = "header: field \"events\": expected an array of events, got";
    if (c == '{') Fail(fmt::format("{} an object", kExpected));
    if (c != '[') {
      JsonView value;
      if (c == '\0' || cursor.Value(scanner_, value) != ValueStatus::kOk) SyntaxError();
      Fail(fmt::format("{} {}", kExpected, CompactJson(value.text)));
    }
    events_start_ = cursor.offset();
    cursor.Skip();
    c = cursor.Peek();
    if (c == ']') {
      cursor.Skip();
      return;
    }
    scanner_.AllowOverflowFrom(kEventOverflowDepth);
    for (element_ = 0;; ++*element_) {
      // An element laid out like an earlier one is valid as it stands.
      if (!cursor.SkipValidByLayout(layouts_)) {
        const JsonView value = CheckValue(cursor, c);
        layouts_.Learn(value.text, cursor.members());
      }
      c = cursor.Peek();
      if (c == ']') {
        cursor.Skip();
        element_.reset();
        scanner_.AllowOverflowFrom(SIZE_MAX);
        return;
      }
      if (c != ',') SyntaxError();
      cursor.Skip();
      c = cursor.Peek();
    }
  }

  // A header member: kept (as text) for DecodeHeader.
  void HeaderValue(DocumentCursor& cursor, const std::string& key_text) {
    JsonView value = CheckValue(cursor, cursor.Peek());
    if (header_.size() > 1) header_ += ',';
    header_ += key_text;
    header_ += ':';
    header_ += value.text;
  }

  // Validates the value at the cursor, whose first byte is `c`.
  JsonView CheckValue(DocumentCursor& cursor, char c) {
    JsonView value;
    if (c == '\0') SyntaxError();
    switch (cursor.Value(scanner_, value)) {
      case ValueStatus::kOk: return value;
      case ValueStatus::kTooDeep: Fail(Location() + LimitMessage(Status::kTooDeep));
      case ValueStatus::kTooMany: Fail(Location() + LimitMessage(Status::kTooMany));
      case ValueStatus::kTooLong:
        Fail(fmt::format("{}longer than the limit of {} MiB of JSON text", Location(),
                         kMaxValueBytes >> 20));
      case ValueStatus::kDuplicateKey:
        Fail(Location() + DuplicateKeyMessage(scanner_.duplicate_key()));
      case ValueStatus::kInvalid: break;
    }
    SyntaxError();
  }

  [[noreturn]] void Fail(const std::string& what) {
    throw InputError(fmt::format("{}: {}", stream_.path(), what));
  }

  [[noreturn]] void SyntaxError() {
    char start[4] = {};
    std::rewind(input_.get());
    const std::string wide =
        WideTextMessage(std::string_view(start, std::fread(start, 1, sizeof start, input_.get())));
    if (!wide.empty()) Fail(wide);
    std::string error = DescribeDocumentSyntaxError(input_.get());
    // A whole value and then an object at the start of a later line: JSON
    // Lines read as a document (a .json name, or --trace-format document).
    const std::size_t line_end = error.find(':');
    if (line_end != std::string::npos && error.compare(line_end, 3, ":1:") == 0 &&
        error.compare(0, line_end, "1") != 0 &&
        error.find("unexpected '{'; expected end of input") != std::string::npos)
      error += " (this looks like JSON Lines, one event a line: name the file .ndjson or "
               ".jsonl, or pass --trace-format lines)";
    // Errors with a position start with "LINE:COLUMN:", which joins the
    // path without a space; the others (number overflow) name the value.
    if (error[0] >= '0' && error[0] <= '9')
      throw InputError(fmt::format("{}:{}", stream_.path(), error));
    throw InputError(fmt::format("{}: {}{}", stream_.path(), Location(), error));
  }

  // "events[I]: " or "header: field "KEY": " for the value being checked,
  // "" at the top level.
  std::string Location() const {
    return element_ ? fmt::format("events[{}]: ", *element_) : key_location_;
  }

  InputFile& input_;
  TraceStream& stream_;
  JsonScanner scanner_;
  // Pass 1's: layouts of the elements checked, which vouch for the JSON of
  // elements laid out like them (JSON Lines' layouts, ending where the
  // element does).
  LineLayouts layouts_{true, false};
  std::string scratch_;
  std::string header_ = "{";  // the header members, as an object's text
  std::string key_location_;   // Location() of the top-level member being read
  std::optional<std::uint64_t> element_;  // index of the event being checked
  std::optional<std::uint64_t> events_start_;  // file offset of the events '['
  std::uint64_t end_ = 0;  // file offset where the document ends
};

}  // namespace

void ReadDocumentTrace(InputFile& input, TraceStream& stream) {
  DocumentReader reader(input, stream);
  reader.Check();
  reader.Header();
  reader.Events();
}

}  // namespace lbsim
