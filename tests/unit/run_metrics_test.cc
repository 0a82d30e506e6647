#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "sim/replay/run_metrics.h"

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

TEST_CASE("RunMetrics counts each Instance's picks by reason, words added mid-run included") {
  std::vector<std::string_view> declared = {"least", "tie"};
  RunMetrics m(declared);
  std::vector<Candidate> candidates;
  for (InstanceIndex i = 0; i < 3; ++i) {
    candidates.push_back(Candidate{i, "x", 1.0, 0, std::nullopt});
    m.CandidateJoined(i, true);
  }
  std::uint64_t seq = 0;
  auto pick = [&](std::size_t index, std::string_view reason) {
    m.RecordDecision(++seq, candidates, Hint{}, Choice{index, reason});
  };
  pick(0, "least");
  pick(2, "tie");
  pick(2, "least");
  pick(1, "odd");  // undeclared: every row takes a slot for it
  pick(2, "odd");
  pick(0, "tie");
  pick(2, "later");  // and another
  pick(0, "least");
  m.RecordNoInstances(++seq);
  m.Finish();
  REQUIRE(m.reasons() == std::vector<std::string>{"least", "tie", "odd", "later", "no_instances"});
  REQUIRE(m.instances().size() == 3);
  using Counts = std::vector<std::uint64_t>;
  CHECK(m.instances()[0].by_reason == Counts{2, 1, 0, 0, 0});
  CHECK(m.instances()[1].by_reason == Counts{0, 0, 1, 0, 0});
  CHECK(m.instances()[2].by_reason == Counts{1, 1, 1, 1, 0});
  CHECK(m.instances()[0].selections == 3);
  CHECK(m.instances()[1].selections == 1);
  CHECK(m.instances()[2].selections == 4);
  CHECK(m.instances()[1].candidate_decisions == 9 - 1);
  CHECK(m.reason_counts() == Counts{3, 2, 2, 1, 1});
}

TEST_CASE("RunMetrics gives Instances never picked a zero count for every reason") {
  std::vector<std::string_view> declared = {"least"};
  RunMetrics m(declared);
  std::vector<Candidate> candidates;
  for (InstanceIndex i = 0; i < 4; ++i) {
    candidates.push_back(Candidate{i, "x", 1.0, 0, std::nullopt});
    m.CandidateJoined(i, true);
  }
  m.RecordDecision(1, candidates, Hint{}, Choice{1, "least"});
  m.Finish();
  REQUIRE(m.instances().size() == 4);
  CHECK(m.instances()[3].selections == 0);
  CHECK(m.instances()[3].by_reason == std::vector<std::uint64_t>{0, 0});
  CHECK(m.instances()[3].candidate_decisions == 1);
  CHECK(m.instances()[1].by_reason == std::vector<std::uint64_t>{1, 0});
}

}  // namespace lbsim
