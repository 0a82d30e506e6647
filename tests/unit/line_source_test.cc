#include <cstdio>
#include <string>

#include <doctest/doctest.h>

#include "traces/json_line_parser.h"
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
