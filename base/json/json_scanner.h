#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/json/json_view.h"

namespace lbsim {

// Validates JSON text in one pass without building anything, accepting
// what nlohmann::json's parser accepts (the rules traces have always been
// read by): RFC 8259 grammar, strings of well-formed UTF-8 with paired
// surrogate escapes, numbers that stay finite as doubles, a UTF-8 byte
// order mark only at the start of a text. It refuses, where nlohmann's
// parser accepts them, a NUL byte anywhere in the text (nlohmann's parser
// ends the input there, dropping what follows) and a key repeated in an
// object nested in the scanned value (the scanned object's own members are
// the caller's to check: the trace decoder does). It also refuses nesting
// deeper than kMaxNestingDepth or more than kMaxEventValues values
// (scalars, arrays and objects) in one scanned value. On success it hands
// out views of the value and, when the value is an object, of its members;
// it never allocates in steady state.
// The text scanned must be followed by a readable NUL byte (std::string
// data is; the trace readers put one after every line and chunk): it stops
// every loop without a bounds check.
class JsonScanner {
 public:
  enum class Status : std::uint8_t {
    kOk,
    kInvalid,    // not JSON (DescribeLineSyntaxError and friends say why)
    kTooDeep,    // nesting deeper than kMaxNestingDepth
    kTooMany,    // more than kMaxEventValues values
    kTruncated,  // the data ended inside the value but more may follow
    kDuplicateKey,  // a nested object repeats a key (see duplicate_key())
  };

  // Validates `text` as one complete JSON text: an optional byte order
  // mark, whitespace, one value, whitespace, then the end of `text` or a
  // NUL byte. text.data()[text.size()] must be a NUL byte.
  Status ScanText(std::string_view text, JsonView& value);

  // Validates the value whose first character is at `p`, with `end`
  // bounding the data read so far (*end must be a NUL byte). When `final`,
  // `end` is the end of the input; otherwise the value may continue beyond
  // it and running into it gives kTruncated. On kOk `value` spans exactly
  // the value.
  Status ScanValue(const char* p, const char* end, bool final, JsonView& value);

  // From now on, accepts number literals past the double range (valid JSON
  // that Python's json reads, as ±inf or as an int) nested at least `depth`
  // levels inside the scanned value (0: the value itself); by default none.
  // Trace readers allow them inside an event's values (depth 2), where only
  // hints can hold them; nlohmann's parser, and so DescribeLineSyntaxError,
  // still calls them invalid.
  void AllowOverflowFrom(std::size_t depth) { overflow_from_depth_ = depth; }

  // The members of the last value scanned, in text order, when it was an
  // object (empty otherwise). Valid as long as the scanned text.
  const std::vector<JsonMember>& members() const { return members_; }

  // After kDuplicateKey: the repeated key, decoded.
  const std::string& duplicate_key() const { return duplicate_key_; }

 private:
  // Empties the buffers of the last scan for the next; one that a large
  // value grew (more than kKeptEntries) is given back, so that after one
  // large line a run keeps only what small ones need.
  void ResetBuffers();
  static constexpr std::size_t kKeptEntries = 4096;
  const char* Value(const char* p, std::size_t depth);
  // Counts one more value; false past the limit.
  bool Count();
  // Whether the keys of one nested object, nested_keys_[first...], are all
  // different; otherwise sets duplicate_key_.
  bool UniqueKeys(std::size_t first);
  const char* Object(const char* p, std::size_t depth);
  const char* Array(const char* p, std::size_t depth);
  const char* String(const char* p);
  const char* Escape(const char* p);
  const char* Utf8(const char* p);
  const char* Number(const char* p, std::size_t depth);
  const char* Literal(const char* p, std::string_view word);
  const char* Fail(Status status) {
    status_ = status;
    return nullptr;
  }
  // The data ran out where more was needed.
  const char* OutOfData() { return Fail(final_ ? Status::kInvalid : Status::kTruncated); }
  // At a NUL byte where a token was expected: the sentinel after the data,
  // or a NUL in the data, which ends the input.
  const char* AtNul(const char* p) { return p == end_ ? OutOfData() : Fail(Status::kInvalid); }

  // The view of the value [start, end) that was just scanned.
  JsonView View(const char* start, const char* end) const {
    JsonKind kind = KindOf(*start);
    return JsonView{kind, kind == JsonKind::kString && escaped_, std::string_view(start, end - start)};
  }

  const char* end_ = nullptr;
  bool final_ = true;
  bool escaped_ = false;  // whether the last string scanned held an escape
  Status status_ = Status::kOk;
  std::size_t overflow_from_depth_ = SIZE_MAX;
  std::size_t values_ = 0;  // values counted in the current scan
  std::vector<JsonMember> members_;
  std::vector<JsonView> nested_keys_;  // of the nested objects being scanned
  std::vector<std::string_view> sorted_keys_;  // UniqueKeys' buffers
  std::vector<std::string> decoded_keys_;
  std::string scratch_[2];
  std::string duplicate_key_;
};

// What a limit status (kTooDeep, kTooMany) says in an error message.
std::string LimitMessage(JsonScanner::Status status);
// What kDuplicateKey says: "key "K" appears twice in one object".
std::string DuplicateKeyMessage(std::string_view key);

}  // namespace lbsim
