#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "sim/engine/run_metrics.h"

namespace lbsim {

TEST_CASE("RunMetrics keeps undeclared reason words after their source is gone") {
  std::vector<std::string_view> declared = {"least"};
  RunMetrics m(declared);
  std::vector<Candidate> candidates = {Candidate{0, "a", 1.0, 0, std::nullopt}};
  {
    std::string word = "external_word";  // a strategy's own buffer
    m.RecordDecision(1, candidates, Hint{}, Choice{0, word});
    word = "overwritten!!";
  }
  m.RecordDecision(2, candidates, Hint{}, Choice{0, "least"});
  m.Finish();
  CHECK(m.reasons() == std::vector<std::string>{"least", "external_word", "no_instances"});
  CHECK(m.ReasonCount("external_word") == 1);
  CHECK(m.ReasonCount("least") == 1);
}

}  // namespace lbsim
