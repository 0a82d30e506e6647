#include <cstdio>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "base/json/json_line_parser.h"
#include "traces/line_source.h"

namespace lbsim {

TEST_CASE("LineSource yields every line with its number, the last without newline") {
  std::string text = "a\n\nbc\r\nlast";
  std::FILE* f = fmemopen(text.data(), text.size(), "r");
  LineSource lines(f, "x");
  std::string_view line;
  REQUIRE(lines.Next(line));
  CHECK(line == "a");
  REQUIRE(lines.Next(line));
  CHECK(line == "");
  CHECK(IsBlank(line));
  REQUIRE(lines.Next(line));
  CHECK(line == "bc\r");
  CHECK(lines.number() == 3);
  REQUIRE(lines.Next(line));
  CHECK(line == "last");
  CHECK(lines.number() == 4);
  CHECK_FALSE(lines.Next(line));
  std::fclose(f);
}

TEST_CASE("LineSource skips a run of empty lines, numbering each, across a window refill") {
  // 3 MB of empty lines ("\n" and "\r\n"), then an error line: its number
  // counts every empty one, as Next would.
  std::string text = "head\n";
  for (int k = 0; k < 1000000; ++k) text += k % 2 ? "\n" : "\r\n";
  text += "  \r\nx\n";
  std::FILE* f = fmemopen(text.data(), text.size(), "r");
  LineSource lines(f, "x");
  std::string_view line;
  REQUIRE(lines.Next(line));
  CHECK(lines.SkipEmptyLines());
  std::size_t calls = 1;
  for (;;) {
    if (lines.SkipEmptyLines()) {
      ++calls;
      continue;
    }
    REQUIRE(lines.Next(line));
    if (!IsBlank(line)) break;
  }
  CHECK(line == "x");
  CHECK(lines.number() == 1000003);
  CHECK(calls < 20);  // in runs, not line by line
  CHECK_FALSE(lines.Next(line));
  std::fclose(f);
}

TEST_CASE("LineSource splits lines of every length, across 16-byte blocks and a window refill") {
  // Lines of 0 to 99 bytes, over and over, about 1.25 MB: more than the
  // 1 MiB window, so lines also straddle a refill.
  std::string text;
  std::vector<std::string> expected;
  for (int round = 0; round < 250; ++round)
    for (std::size_t n = 0; n < 100; ++n) {
      std::string line;
      for (std::size_t i = 0; i < n; ++i) line += static_cast<char>('a' + (i + n) % 26);
      expected.push_back(line);
      text += line + "\n";
    }
  std::FILE* f = fmemopen(text.data(), text.size(), "r");
  LineSource lines(f, "x");
  std::string_view line;
  std::vector<std::string> seen;
  while (lines.Next(line)) seen.emplace_back(line);
  CHECK(seen == expected);
  std::fclose(f);
}

TEST_CASE("JsonLineParser reports each failure for itself") {
  JsonLineParser parser;
  CHECK(parser.Parse("{\"a\": [1, 2]}"));
  CHECK(parser.value()["a"][1] == 2);
  std::string deep(600, '[');
  CHECK_FALSE(parser.Parse(deep));
  CHECK(parser.error() == "nesting deeper than the limit of 512 levels");
  // A later syntax error is reported as such, not as the earlier nesting.
  CHECK_FALSE(parser.Parse("{\"a\" 1}"));
  CHECK(parser.error().rfind("invalid JSON at column 6: syntax error", 0) == 0);
  CHECK(parser.Parse("7"));
  CHECK(parser.value() == 7);
}

}  // namespace lbsim
