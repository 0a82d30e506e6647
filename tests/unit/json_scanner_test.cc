// JsonScanner must accept exactly what nlohmann::json accepts (the parser
// traces were always read with), less two things it refuses on purpose: a
// NUL byte (where nlohmann's parser ends the input, dropping the rest) and
// a key repeated in a nested object; and the views must read back the same
// values. Checked on hand-picked cases and on many random mutations of
// random JSON texts.

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "base/json/json_scanner.h"
#include "base/json/json_view.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

using json = nlohmann::json;
using Status = JsonScanner::Status;

// Whether nlohmann::json's strict parser accepts `text`; also says whether
// an object nested in the value repeats a key.
bool NlohmannAccepts(const std::string& text, bool* nested_repeat = nullptr) {
  struct Sax : nlohmann::json_sax<json> {
    std::vector<std::vector<std::string>> keys;  // of the open containers
    bool repeat = false;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override {
      keys.emplace_back();
      return true;
    }
    bool key(string_t& k) override {
      std::vector<std::string>& seen = keys.back();
      if (keys.size() > 1 && std::find(seen.begin(), seen.end(), k) != seen.end()) repeat = true;
      seen.push_back(k);
      return true;
    }
    bool end_object() override {
      keys.pop_back();
      return true;
    }
    bool start_array(std::size_t) override {
      keys.emplace_back();
      return true;
    }
    bool end_array() override {
      keys.pop_back();
      return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
      return false;
    }
  } sax;
  const bool ok = json::sax_parse(text.begin(), text.end(), &sax);
  if (nested_repeat) *nested_repeat = sax.repeat;
  return ok;
}

// Rebuilds a value from the views, the way the trace decoder reads them.
json FromView(const JsonView& v) {
  std::string scratch;
  switch (v.kind) {
    case JsonKind::kNull: return nullptr;
    case JsonKind::kTrue: return true;
    case JsonKind::kFalse: return false;
    case JsonKind::kString: return std::string(ReadString(v, scratch));
    case JsonKind::kNumber: {
      JsonNumber n = ReadNumber(v.text);
      if (n.type == JsonNumber::Type::kUnsigned) return n.unsigned_value;
      if (n.type == JsonNumber::Type::kSigned) return n.signed_value;
      return n.float_value;
    }
    case JsonKind::kArray: {
      json out = json::array();
      JsonArrayReader elements(v);
      for (JsonView e; elements.Next(e);) out.push_back(FromView(e));
      return out;
    }
    case JsonKind::kObject: {
      json out = json::object();
      JsonObjectReader members(v);
      for (JsonMember m; members.Next(m);) out[std::string(ReadString(m.key, scratch))] = FromView(m.value);
      return out;
    }
  }
  return nullptr;
}

// nlohmann's dump shows number types (1 vs 1.0), so equal dumps mean equal
// values of equal types.
std::string Dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

Status Scan(const std::string& text) {
  JsonScanner scanner;
  JsonView value;
  return scanner.ScanText(text, value);
}

TEST_CASE("JsonScanner accepts valid JSON texts") {
  for (const std::string& text : std::vector<std::string>{
           "0", "-0", "1.5e-3", "1E+2", "123456789012345678901234567890", "\"\"",
           "\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"",
           "true", "false", "null", "[]", "{}", " [1, [2, {\"a\": []}]] ", "{\"a\":1,\"a\":2}",
           "\xef\xbb\xbf{}", "{}\t\r\n", "1e-400", "1.7976931348623157e308"}) {
    INFO(text);
    CHECK(Scan(text) == Status::kOk);
    CHECK(NlohmannAccepts(text));
  }
}

TEST_CASE("JsonScanner refuses a NUL byte and a key repeated in a nested object") {
  // nlohmann's parser takes the first as the end of the input, and keeps
  // the last of repeated keys: both drop data without a word.
  for (const std::string& text : std::vector<std::string>{
           std::string("{}\0junk", 7), std::string("{} \0", 4), std::string("[1]\0", 4)}) {
    INFO(text);
    CHECK(NlohmannAccepts(text));
    CHECK(Scan(text) == Status::kInvalid);
  }
  for (const std::string& text : std::vector<std::string>{
           "{\"a\": {\"b\": 1, \"b\": 2}}", "[{\"b\": 1, \"c\": 2, \"b\": 3}]",
           "{\"a\": {\"\\u0062\": 1, \"b\": 2}}"}) {
    INFO(text);
    CHECK(NlohmannAccepts(text));
    JsonScanner scanner;
    JsonView value;
    CHECK(scanner.ScanText(text, value) == Status::kDuplicateKey);
    CHECK(scanner.duplicate_key() == "b");
  }
  // Many keys are checked by sorting them: the repeat is found all the same.
  std::string many = "{\"a\": {";
  for (int i = 0; i < 40; ++i) many += "\"k" + std::to_string(i) + "\": 0, ";
  JsonScanner scanner;
  JsonView value;
  CHECK(scanner.ScanText(many + "\"k39\": 1}}", value) == Status::kDuplicateKey);
  CHECK(scanner.duplicate_key() == "k39");
  CHECK(scanner.ScanText(many + "\"k40\": 1}}", value) == Status::kOk);
  // The scanned object's own members are the caller's to check.
  CHECK(Scan("{\"a\": 1, \"a\": 2}") == Status::kOk);
}

TEST_CASE("JsonScanner rejects what nlohmann::json rejects") {
  for (const std::string& text : std::vector<std::string>{
           "", " ", "01", "1.", ".5", "-", "+1", "1e", "1e+", "0x1", "tru", "nul", "True",
           "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[1 2]", "{} {}", "\"\\x\"", "\"\\u12g4\"",
           "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\xff\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"",
           "\"\xf4\x90\x80\x80\"", "\"\xe2\x82\"", "\"a\tb\"", std::string("\"a\0b\"", 5),
           std::string("[1,\0]", 5), "\xef\xbb", "\xef\xbb\xbf", "\x0c{}", "1e400", "-1e400",
           "1" + std::string(400, '0'), "1.8e308", "[", "{\"a\":", "\"abc"}) {
    INFO(text);
    CHECK(Scan(text) == Status::kInvalid);
    CHECK(!NlohmannAccepts(text));
  }
}

TEST_CASE("JsonScanner refuses nesting deeper than the limit") {
  std::string ok = std::string(kMaxNestingDepth, '[') + std::string(kMaxNestingDepth, ']');
  std::string deep = "[" + ok + "]";
  CHECK(Scan(ok) == Status::kOk);
  CHECK(Scan(deep) == Status::kTooDeep);
  // A syntax error before the limit is reached wins; after it, the depth.
  CHECK(Scan("[x" + deep) == Status::kInvalid);
  CHECK(Scan(deep + "x") == Status::kTooDeep);
}

TEST_CASE("JsonScanner records the members of a root object only") {
  JsonScanner scanner;
  JsonView value;
  REQUIRE(scanner.ScanText(R"( {"t": 1.5, "x": {"y": 2}, "\u0074": [3]} )", value) == Status::kOk);
  CHECK(value.text == R"({"t": 1.5, "x": {"y": 2}, "\u0074": [3]})");
  const auto& m = scanner.members();
  REQUIRE(m.size() == 3);
  CHECK(m[0].key.text == "\"t\"");
  CHECK(m[0].value.text == "1.5");
  CHECK(m[1].value.kind == JsonKind::kObject);
  CHECK(m[1].value.text == R"({"y": 2})");
  CHECK(m[2].key.text == "\"\\u0074\"");
  CHECK(m[2].key.escaped);
  CHECK_FALSE(m[0].key.escaped);
  std::string scratch;
  CHECK(ReadString(m[2].key, scratch) == "t");
  REQUIRE(scanner.ScanText("[1]", value) == Status::kOk);
  CHECK(scanner.members().empty());
}

TEST_CASE("JsonScanner gives back the buffers a large value grew") {
  JsonScanner scanner;
  JsonView value;
  std::string large = "{";
  for (int i = 0; i < 100000; ++i) large += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":{\"a\":1}";
  large += "}";
  REQUIRE(scanner.ScanText(large, value) == Status::kOk);
  CHECK(scanner.members().size() == 100000);
  REQUIRE(scanner.ScanText(R"({"t": 1})", value) == Status::kOk);
  CHECK(scanner.members().size() == 1);
  CHECK(scanner.members().capacity() < 100000);
  // A small value keeps its buffers: no allocation per line.
  const JsonMember* kept = scanner.members().data();
  REQUIRE(scanner.ScanText(R"({"t": 2})", value) == Status::kOk);
  CHECK(scanner.members().data() == kept);
}

TEST_CASE("JsonScanner reports a value cut short as truncated unless the data is final") {
  std::string text = R"({"a": [1, 2.5e3, "x\u00e9", true, null], "b": {"c": -12}})";
  JsonScanner scanner;
  JsonView value;
  for (std::size_t n = 1; n < text.size(); ++n) {
    std::string prefix = text.substr(0, n);  // followed by its NUL
    INFO(prefix);
    const char* end = prefix.data() + n;
    CHECK(scanner.ScanValue(prefix.data(), end, false, value) == Status::kTruncated);
    CHECK(scanner.ScanValue(prefix.data(), end, true, value) == Status::kInvalid);
  }
  REQUIRE(scanner.ScanValue(text.data(), text.data() + text.size(), false, value) == Status::kOk);
  CHECK(value.text == text);
  // A number at the end of the data may go on; at the end of the input it is done.
  std::string number = "125";
  CHECK(scanner.ScanValue(number.data(), number.data() + 3, false, value) == Status::kTruncated);
  CHECK(scanner.ScanValue(number.data(), number.data() + 3, true, value) == Status::kOk);
}

TEST_CASE("ReadNumber types numbers as nlohmann::json does") {
  CHECK(ReadNumber("18446744073709551615").type == JsonNumber::Type::kUnsigned);
  CHECK(ReadNumber("18446744073709551616").type == JsonNumber::Type::kFloat);
  CHECK(ReadNumber("-9223372036854775808").signed_value == INT64_MIN);
  CHECK(ReadNumber("-9223372036854775809").type == JsonNumber::Type::kFloat);
  CHECK(ReadNumber("-0").type == JsonNumber::Type::kSigned);
  CHECK(ReadNumber("5.0").type == JsonNumber::Type::kFloat);
  CHECK(ReadNumber("1e-400").float_value == 0.0);
  CHECK(ReadNumber("4.9e-324").float_value == 4.9e-324);
  CHECK(ReadNumber("0.1").float_value == 0.1);
}

// A random JSON text, sometimes with odd spacing and escapes.
std::string RandomJson(std::mt19937& rng, int depth) {
  auto pick = [&rng](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  static const char* const kScalars[] = {
      "0", "-0", "7", "-12", "3.25", "1e5", "2E-3", "-0.5e+2", "18446744073709551616",
      "true", "false", "null", "\"\"", "\"abc\"", "\"\\u00e9\\n\"", "\"\xc3\xa9\"",
      "\"\\ud83d\\ude00\"", "123456789.123456789", "1e308", "9007199254740993"};
  static const char* const kSpace[] = {"", "", " ", "\n", "\t", "\r\n "};
  int kind = depth > 4 ? 0 : pick(3);
  std::string out = kSpace[pick(6)];
  if (kind == 0) {
    out += kScalars[pick(static_cast<int>(std::size(kScalars)))];
  } else if (kind == 1) {
    out += "[";
    for (int i = 0, n = pick(4); i < n; ++i) {
      if (i) out += ",";
      out += RandomJson(rng, depth + 1);
    }
    out += "]";
  } else {
    out += "{";
    for (int i = 0, n = pick(4); i < n; ++i) {
      if (i) out += ",";
      out += kSpace[pick(6)];
      out += "\"k";
      out += static_cast<char>('0' + pick(3));
      out += "\"";
      out += kSpace[pick(6)];
      out += ":";
      out += RandomJson(rng, depth + 1);
    }
    out += "}";
  }
  return out + kSpace[pick(6)];
}

TEST_CASE("JsonScanner agrees with nlohmann::json on random mutated texts") {
  std::mt19937 rng(20261130);
  static const std::string kBytes[] = {
      "{", "}", "[", "]", "\"", "\\", ",", ":", "0", "1", "-", "+", ".", "e", "E", "t", "u",
      "n", "l", "x", " ", "\t", "\n", std::string(1, '\0'), "\xc3", "\xa9", "\xed", "\xf4",
      "\x80", "\xbf", "\xef\xbb\xbf", "\\u", "d8", "dc", "00", "\x1f", "9"};
  int accepted = 0, rejected = 0;
  for (int round = 0; round < 30000; ++round) {
    std::string text = RandomJson(rng, 0);
    for (int edits = static_cast<int>(rng() % 3); edits > 0 && !text.empty(); --edits) {
      std::size_t at = rng() % text.size();
      const std::string& bytes = kBytes[rng() % std::size(kBytes)];
      switch (rng() % 3) {
        case 0: text.insert(at, bytes); break;
        case 1: text.erase(at, 1 + rng() % 2); break;
        default: text.replace(at, 1, bytes);
      }
    }
    JsonScanner scanner;
    JsonView value;
    Status status = scanner.ScanText(text, value);
    bool nested_repeat = false;
    const bool nlohmann_ok = NlohmannAccepts(text, &nested_repeat);
    const bool refused_on_purpose = text.find('\0') != std::string::npos || nested_repeat;
    INFO(text);
    REQUIRE((status == Status::kOk) == (nlohmann_ok && !refused_on_purpose));
    if (status != Status::kOk) {
      ++rejected;
      continue;
    }
    ++accepted;
    REQUIRE(Dump(FromView(value)) == Dump(json::parse(text)));
  }
  // The mutations must exercise both outcomes substantially.
  CHECK(accepted > 5000);
  CHECK(rejected > 5000);
}

}  // namespace
}  // namespace lbsim
