#include <cstdio>
#include <string>

#include <doctest/doctest.h>

#include "base/json/json_syntax_error.h"

namespace lbsim {
namespace {

std::string Describe(std::string text) {
  std::FILE* f = fmemopen(text.data(), text.size(), "r");
  REQUIRE(f);
  std::string error = DescribeDocumentSyntaxError(f);
  std::fclose(f);
  return error;
}

}  // namespace

TEST_CASE("A document's syntax error is placed by line and column past long whitespace runs") {
  // Short runs: the parser's own position.
  CHECK(Describe("[1,\n  x]").starts_with("2:3: invalid JSON: syntax error while parsing value"));
  // Runs longer than the parser is shown (4,096 bytes): every byte counts.
  const std::string newlines(5000, '\n'), spaces(3000, ' ');
  CHECK(Describe("[" + newlines + spaces + "x]")
            .starts_with("5001:3001: invalid JSON: syntax error while parsing value - invalid "
                         "literal; last read: '[<U+000A><U+000A>"));
  CHECK(Describe("[1," + std::string(10000, ' ') + "\t\r\n" + std::string(9000, '\t') + "]")
            .starts_with("2:9001: invalid JSON: syntax error while parsing value - unexpected ']'"));
  // The end of the input counts as a character, as the parser counts it.
  CHECK(Describe("[" + std::string(70000, ' ')) ==
        "1:70002: invalid JSON: syntax error while parsing value - unexpected end of input; "
        "expected '[', '{', or a literal");
  // A NUL byte past a long run is still the error.
  CHECK(Describe("[" + std::string(8000, ' ') + std::string(1, '\0') + "1]") ==
        "1:8002: invalid JSON: a NUL byte (JSON text holds none)");
}

}  // namespace lbsim
