// layout_text::ReadId, the id reader of learned line layouts: against a
// byte-at-a-time reading of the same rule, for ids of every length up to
// past two 16-byte steps, each ending at every kind of byte an id stops at,
// and texts that end right after it. layout_text::SkipStringBody, the
// reader of passed-over strings: against JsonScanner, on random strings of
// the bytes escapes and UTF-8 are made of.

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "traces/json_scanner.h"
#include "traces/layout_text.h"

namespace lbsim {
namespace {

// ReadId's rule, one byte at a time: the id runs to the first '"'; any
// other byte outside printable ASCII, or a '\\', refuses it, as does an
// empty id or one longer than `max_bytes`. Returns its length, or -1.
long ReferenceIdLength(std::string_view text, std::size_t max_bytes) {
  std::size_t n = 0;
  for (; n < text.size() && text[n] != '"'; ++n) {
    const auto c = static_cast<unsigned char>(text[n]);
    if (c < 0x20 || c > 0x7E || c == '\\') return -1;
  }
  if (n == 0 || n > max_bytes) return -1;
  return static_cast<long>(n);
}

long ReadIdLength(std::string_view text, std::size_t max_bytes) {
  std::string_view id;
  const char* end = layout_text::ReadId(text.data(), text.data() + text.size(), max_bytes, id);
  if (!end) return -1;
  CHECK(id.data() == text.data());
  CHECK(end == text.data() + id.size());
  return static_cast<long>(id.size());
}

TEST_CASE("ReadId: stops where a byte-at-a-time reading stops, at every offset") {
  const std::string stops[] = {"\"", "\\", std::string(1, '\0'), "\x1f", "\x7f",
                               "\x80", "\xff", "\n", "\xc3\xa9"};
  for (std::size_t length = 0; length <= 40; ++length) {
    std::string id;
    for (std::size_t i = 0; i < length; ++i) id += static_cast<char>('a' + i % 26);
    for (const std::string& stop : stops) {
      for (const std::string& after : {std::string(), std::string("\", \"t\": 1}"),
                                       std::string(20, 'x')}) {
        const std::string text = id + stop + after;
        CAPTURE(length);
        CAPTURE(text);
        CHECK(ReadIdLength(text, 64) == ReferenceIdLength(text, 64));
        CHECK(ReadIdLength(text, 20) == ReferenceIdLength(text, 20));
      }
    }
    // No closing quote at all: the id runs to the end of the text.
    CHECK(ReadIdLength(id, 64) == ReferenceIdLength(id, 64));
  }
}

TEST_CASE("ReadId: a UUID request id, and one with a byte it refuses deep inside") {
  const std::string uuid = "22e2c43f-8a1a-434e-a73c-a28e4d361955";
  CHECK(ReadIdLength(uuid + "\", \"duration\": 0.1}", 64) == 36);
  std::string bad = uuid;
  bad[33] = '\x01';
  CHECK(ReadIdLength(bad + "\"}", 64) == -1);
  bad[33] = '\\';
  CHECK(ReadIdLength(bad + "\"}", 64) == -1);
  CHECK(ReadIdLength(uuid + "\"}", 35) == -1);
}

TEST_CASE("SkipStringBody: takes exactly the strings JsonScanner accepts") {
  // Pieces that make up escapes (good and bad), UTF-8 sequences (well-formed
  // and not), and plain bytes.
  const std::vector<std::string> pieces = {
      "a", "Z", " ", "~", "\x7f", "\\", "\\\\", "\\\"", "\\/", "\\b", "\\n", "\\t", "\\x",
      "\\u", "\\u00e9", "\\uD83D", "\\ude00", "\\uDBFF\\uDFFF", "\\u12", "u", "0", "f",
      "\xc3\xa9", "\xc3", "\xa9", "\xe2\x82\xac", "\xe0\x80\x80", "\xed\xa0\x80",
      "\xf0\x9f\x98\x80", "\xf4\x90\x80\x80", "\xc0\x80", "\xff", "\x01", "\t",
      std::string(1, '\0'), std::string(17, 'x')};
  std::mt19937_64 random(7);
  JsonScanner scanner;
  int accepted = 0;
  for (int i = 0; i < 50000; ++i) {
    std::string body;
    const std::size_t n = random() % 6;
    for (std::size_t k = 0; k < n; ++k) body += pieces[random() % pieces.size()];
    const std::string text = "\"" + body + "\"";
    CAPTURE(text);
    JsonView value;
    const bool valid = scanner.ScanText(text, value) == JsonScanner::Status::kOk;
    // After the closing quote, what a line has next.
    const std::string line = text + ", \"t\": 1}";
    const char* const end = line.data() + line.size();
    const char* const stop = layout_text::SkipStringBody(line.data() + 1, end);
    // Valid: stops at the closing quote. Invalid: refused, or (a quote
    // escaped) stops at a later quote, which the next literal refuses.
    if (valid) {
      CHECK(stop == line.data() + text.size() - 1);
    } else {
      CHECK((stop == nullptr || stop != line.data() + text.size() - 1));
    }
    accepted += valid;
  }
  CHECK(accepted > 5000);
}

}  // namespace
}  // namespace lbsim
