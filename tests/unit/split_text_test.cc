// SplitAt keeps every part, empty ones included: the lists it splits
// (--seeds, --fail-on, --vary values, diff tolerances) refuse an empty part
// by name instead of dropping it.

#include <doctest/doctest.h>

#include <string_view>
#include <vector>

#include "base/split_text.h"

namespace lbsim {
namespace {

using Parts = std::vector<std::string_view>;

TEST_CASE("split text: every part between separators, empty ones included") {
  CHECK(SplitAt("a,bc,d", ',') == Parts{"a", "bc", "d"});
  CHECK(SplitAt("1,,2", ',') == Parts{"1", "", "2"});
  CHECK(SplitAt(",1", ',') == Parts{"", "1"});
  CHECK(SplitAt("1,", ',') == Parts{"1", ""});
  CHECK(SplitAt("", ',') == Parts{""});
  CHECK(SplitAt("proxy_queue.client_ttft.p99", '.') == Parts{"proxy_queue", "client_ttft", "p99"});
  CHECK(SplitAt("no separator", ',') == Parts{"no separator"});
}

}  // namespace
}  // namespace lbsim
