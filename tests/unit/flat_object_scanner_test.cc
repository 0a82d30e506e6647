// ScanFlatObject is a shortcut: whenever it takes a line, JsonScanner must
// accept the same line and show the same views; and it must take the
// common event shapes, or it saves nothing. Checked on hand-picked lines
// and on many random flat lines and mutations of them.

#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "base/json/flat_object_scanner.h"
#include "base/json/json_scanner.h"

namespace lbsim {
namespace {

// A line as the trace readers hand it over: followed by a NUL byte.
struct Line {
  std::string text;
  std::string_view view() const { return std::string_view(text.c_str(), text.size()); }
};

bool SameView(const JsonView& a, const JsonView& b) {
  return a.kind == b.kind && a.escaped == b.escaped && a.text == b.text &&
         a.text.data() == b.text.data();
}

// Whether ScanFlatObject takes `text`; when it does, checks that
// JsonScanner agrees on the value and on every member.
bool TakenAndAgreed(const std::string& text) {
  const Line line{text};
  FlatObject flat;
  if (!ScanFlatObject(line.view(), flat)) return false;
  const std::span<const JsonMember> flat_members = flat.Members();
  JsonScanner scanner;
  JsonView value;
  INFO(text);
  REQUIRE(scanner.ScanText(line.view(), value) == JsonScanner::Status::kOk);
  CHECK(SameView(flat.value, value));
  REQUIRE(flat_members.size() == scanner.members().size());
  for (std::size_t i = 0; i < flat_members.size(); ++i) {
    CHECK(SameView(flat_members[i].key, scanner.members()[i].key));
    CHECK(SameView(flat_members[i].value, scanner.members()[i].value));
  }
  return true;
}

TEST_CASE("ScanFlatObject takes event lines and shows them as JsonScanner does") {
  for (const std::string& text : std::vector<std::string>{
           R"({"t": 0, "type": "arrival", "duration": 44})",
           R"({"t": 20, "type": "load", "instance": "inst-00001", "inflight": 8, "qps_1m": 221})",
           R"({"t":1.5,"type":"up","instance":"a","weight":2.25,"alive":true})",
           R"({"t": -0, "x": null, "y": false, "z": -12.75, "w": 0.0})",
           R"(  {  "t"  :  7  ,  "type"  :  "down"  }  )",
           R"({"t": 3, "type": "arrival"})" "\r",
           R"({"t": 3, "type": "arrival"}   )",
           R"({"t":1})",  // shorter than 16 bytes
           R"({"t": 1, "a": "", "a": "dup", "~": "!#$%&'()*+,-./:;<=>?@[]^_`{|}~)" "\x7f\"}",
           // A string across the 64-byte boundary of the map.
           R"({"t": 1, "type": "load", "instance": "abcdefghijklmnopqrstuvwxyz0123456789", "q": 1})",
           // 127 bytes, the longest line taken.
           R"({"t": 1, "instance": ")" + std::string(88, 'x') + R"(", "n": 12345678})",
       }) {
    CHECK_MESSAGE(TakenAndAgreed(text), text);
  }
}

TEST_CASE("ScanFlatObject leaves every other shape to JsonScanner") {
  for (const std::string& text : std::vector<std::string>{
           // Valid JSON it does not take.
           R"({"t": 1, "hint": {"a": 1}})", R"({"t": 1, "prefix_blocks": [1, 2]})",
           R"({"t": 1, "request": "a\"b"})", R"({"t\u0031": 1})", "{\"t\": 1, \"id\": \"\xc3\xa9\"}",
           R"({"t": 1e3})", R"({"t": 1E-2})", "{}", " {} ", "{\"t\":\t1}", "\xef\xbb\xbf{\"t\": 1}",
           std::string("{\"t\": 1}\0", 9), "[1]", "1", "\"s\"",
           R"({"t": 1, "instance": ")" + std::string(89, 'x') + R"(", "n": 12345678})",
           // Not JSON at all.
           R"({"t": 01})", R"({"t": -})", R"({"t": 1.})", R"({"t": .5})", R"({"t": +1})",
           R"({"t": tru})", R"({"t": nul})", R"({"t": True})", R"({"t" 1})", R"({t: 1})",
           R"({"t": 1,})", R"({"t": 1 "u": 2})", R"({"t": 1}})", R"({"t": 1} x)", R"({"t": 1)",
           R"({"t": "abc)", R"({"t)", "{", "{\"t\": \"a\x01\"}", R"({"t": 1}{"t": 2})"}) {
    CHECK_MESSAGE(!TakenAndAgreed(text), text);
  }
}

// A random flat event-like line: keys and string values from small
// alphabets, numbers of every form the fast path takes, spaces or none.
std::string RandomFlatLine(std::mt19937_64& rng) {
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  const std::vector<std::string> keys{"t", "type", "instance", "inflight", "qps_1m", "duration",
                                      "request", "weight", "x"};
  const std::vector<std::string> values{
      "0", "7", "-0", "-3", "12.5", "0.25", "123456789", "18446744073709551616", "-9.75",
      "true", "false", "null", "\"arrival\"", "\"load\"", "\"inst-00001\"", "\"\"", "\"a b\""};
  const std::vector<std::string> gaps{"", " ", "  "};
  std::string line = gaps[pick(3)] + "{" + gaps[pick(3)];
  const std::size_t members = 1 + pick(5);
  for (std::size_t i = 0; i < members; ++i) {
    if (i > 0) line += gaps[pick(3)] + "," + gaps[pick(3)];
    line += "\"" + keys[pick(keys.size())] + "\"" + gaps[pick(3)] + ":" + gaps[pick(3)] +
            values[pick(values.size())];
  }
  return line + gaps[pick(3)] + "}" + gaps[pick(3)];
}

TEST_CASE("ScanFlatObject agrees with JsonScanner on random lines and their mutations") {
  std::mt19937_64 rng(20261130);
  const std::string alphabet = "{}[]\":,. -+0123456789eEtrufalsn\\\t\r\x01\x7f\xc3\xa9x";
  std::size_t taken = 0, mutated_taken = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string line = RandomFlatLine(rng);
    if (line.size() <= 127) CHECK_MESSAGE(TakenAndAgreed(line), line);
    if (TakenAndAgreed(line)) ++taken;
    // A few random edits: replace, insert, delete or cut.
    for (int edit = 1 + static_cast<int>(rng() % 3); edit > 0 && !line.empty(); --edit) {
      const std::size_t at = rng() % line.size();
      switch (rng() % 4) {
        case 0: line[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: line.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        case 2: line.erase(at, 1); break;
        default: line.resize(at); break;
      }
    }
    if (TakenAndAgreed(line)) ++mutated_taken;
  }
  // Both sides of the shortcut were exercised.
  CHECK(taken > 15000);
  CHECK(mutated_taken > 1000);
  CHECK(mutated_taken < 20000);
}

}  // namespace
}  // namespace lbsim
