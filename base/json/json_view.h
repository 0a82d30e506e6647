#pragma once

// Read-only access to JSON values inside text that JsonScanner has already
// validated. Nothing here checks syntax again: give these functions only
// text the scanner accepted.

#include <cstdint>
#include <string>
#include <string_view>

namespace lbsim {

enum class JsonKind : std::uint8_t {
  kNull,
  kFalse,
  kTrue,
  kNumber,
  kString,
  kObject,
  kArray,
};

// One validated JSON value: its kind and its exact text (a string keeps its
// quotes, an object or array its brackets).
struct JsonView {
  JsonKind kind = JsonKind::kNull;
  bool escaped = false;  // a string holding at least one escape
  std::string_view text;

  bool is_null() const { return kind == JsonKind::kNull; }
  bool is_bool() const { return kind == JsonKind::kTrue || kind == JsonKind::kFalse; }
  bool is_number() const { return kind == JsonKind::kNumber; }
  bool is_string() const { return kind == JsonKind::kString; }
  bool is_object() const { return kind == JsonKind::kObject; }
  bool is_array() const { return kind == JsonKind::kArray; }
};

// The kind of the validated value whose text starts at `first`.
inline JsonKind KindOf(char first) {
  switch (first) {
    case '"': return JsonKind::kString;
    case '{': return JsonKind::kObject;
    case '[': return JsonKind::kArray;
    case 't': return JsonKind::kTrue;
    case 'f': return JsonKind::kFalse;
    case 'n': return JsonKind::kNull;
    default: return JsonKind::kNumber;
  }
}

// One member of a validated object: its key (a string) and its value.
struct JsonMember {
  JsonView key;
  JsonView value;
};

// A number literal as nlohmann::json and Python's json module type it: a
// literal without fraction or exponent is an integer when it fits 64 bits
// (unsigned when it has no minus sign), anything else a double.
struct JsonNumber {
  enum class Type : std::uint8_t { kUnsigned, kSigned, kFloat };
  Type type = Type::kUnsigned;
  std::uint64_t unsigned_value = 0;  // when kUnsigned
  std::int64_t signed_value = 0;     // when kSigned
  double float_value = 0.0;          // when kFloat

  bool integral() const { return type != Type::kFloat; }
  // The value as a double (integers converted).
  double AsDouble() const {
    switch (type) {
      case Type::kUnsigned: return static_cast<double>(unsigned_value);
      case Type::kSigned: return static_cast<double>(signed_value);
      case Type::kFloat: break;
    }
    return float_value;
  }
};

// Reads a validated number literal that is not a short unsigned integer.
JsonNumber ReadNumberInGeneral(std::string_view literal);

// Reads a validated number literal. Short unsigned integers, by far the
// most common in traces, are read inline.
inline JsonNumber ReadNumber(std::string_view literal) {
  if (literal.size() > 9) return ReadNumberInGeneral(literal);
  std::uint64_t value = 0;
  for (char c : literal) {
    const unsigned digit = static_cast<unsigned char>(c) - unsigned{'0'};
    if (digit > 9) return ReadNumberInGeneral(literal);  // a sign, fraction or exponent
    value = value * 10 + digit;
  }
  JsonNumber n;
  n.type = JsonNumber::Type::kUnsigned;
  n.unsigned_value = value;
  return n;
}

// The characters of validated string content (what lies between its
// quotes) with its escapes decoded into `out`, which the result views.
std::string_view Unescape(std::string_view content, std::string& out);

// The characters of a validated string that holds escapes, decoded into
// `scratch` (which the result views).
std::string_view ReadEscapedString(const JsonView& string, std::string& scratch);

// The characters of a validated string: a view into its text when it has
// no escapes, otherwise decoded into `scratch` (which the result views).
inline std::string_view ReadString(const JsonView& string, std::string& scratch) {
  if (string.escaped) return ReadEscapedString(string, scratch);
  return string.text.substr(1, string.text.size() - 2);
}

// Walks the members of a validated object in text order.
class JsonObjectReader {
 public:
  explicit JsonObjectReader(const JsonView& object);
  // The next member; false after the last.
  bool Next(JsonMember& member);

 private:
  const char* p_;
  const char* end_;
};

// Walks validated JSON text once, front to back: objects are entered member
// by member and each value is taken, entered or skipped, so that nothing is
// scanned twice (JsonObjectReader finds every value's end first). Give it
// only text the scanner accepted.
class JsonWalker {
 public:
  // `value`: the text of one validated value.
  explicit JsonWalker(std::string_view value)
      : p_(value.data()), end_(value.data() + value.size()) {}

  // The kind of the value at the cursor.
  JsonKind Kind() const { return KindOf(*p_); }
  // Enters the object at the cursor; false, moving nothing, when the value
  // there is not an object.
  bool EnterObject();
  // Inside an object: moves to the next member, sets `key` to its key (a
  // string view) and leaves the cursor at its value; false at the end of
  // the object, the cursor then past its '}'.
  bool NextKey(JsonView& key);
  // Takes the value at the cursor and returns it (an object or array
  // whole).
  JsonView TakeValue();
  // Skips the value at the cursor, whatever it is.
  void Skip();

 private:
  const char* p_;
  const char* end_;
};

// Walks the elements of a validated array in text order.
class JsonArrayReader {
 public:
  explicit JsonArrayReader(const JsonView& array);
  // The next element; false after the last.
  bool Next(JsonView& element);

 private:
  const char* p_;
  const char* end_;
};

}  // namespace lbsim
