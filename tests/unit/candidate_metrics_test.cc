// The per-Instance candidate counts of a report (candidate_decisions,
// unknown_while_others_known, chosen_while_unknown) are kept as intervals
// between candidate-set changes rather than counted per decision. This
// checks them against the plain per-decision definition on random traces
// with pool churn, loads set and forgotten, and hints of every kind.

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "replay_fixture.h"
#include "sim/report/report.h"

namespace lbsim {
namespace {

// What the plain definition counts for one Instance.
struct Counts {
  std::uint64_t candidate = 0, unknown = 0, chosen_unknown = 0;
  bool operator==(const Counts&) const = default;
};

// A random trace, and the counts the plain definition gives for `strategy`
// once its picks (from the decision log) are known.
class RandomTrace {
 public:
  explicit RandomTrace(std::uint64_t seed) : rng_(seed) {
    for (int k = 0; k < 6; ++k) ids_.push_back(fmt::format("i{}", k));
    std::string header = R"({"lbsim_trace": 1, "instances": [)";
    for (int k = 0; k < 3; ++k) {
      Register(ids_[k]);
      std::string fields;
      if (Coin()) fields += ", \"inflight\": 2", known_inflight_[ids_[k]] = true;
      if (Coin()) fields += ", \"qps_1m\": 1.5", known_qps_[ids_[k]] = true;
      header += fmt::format(R"({}{{"id": "{}"{}}})", k ? ", " : "", ids_[k], fields);
    }
    text_ = header + "]}\n";
    for (int n = 0; n < 300; ++n) Event(n * 0.5);
  }

  const std::string& text() const { return text_; }

  // The plain per-decision counts, given each arrival's chosen Instance.
  std::map<std::string, Counts> Expected(const std::vector<std::string>& chosen) const {
    std::map<std::string, Counts> out;
    for (std::size_t a = 0; a < arrivals_.size(); ++a) {
      const Arrival& arrival = arrivals_[a];
      bool any_known = false;
      for (const auto& [id, known] : arrival.candidates) any_known = any_known || known;
      for (const auto& [id, known] : arrival.candidates) {
        Counts& c = out[id];
        ++c.candidate;
        if (any_known && !known) {
          ++c.unknown;
          if (chosen[a] == id) ++c.chosen_unknown;
        }
      }
    }
    return out;
  }

 private:
  struct Arrival {
    std::vector<std::pair<std::string, bool>> candidates;  // id, load known
  };

  bool Coin() { return rng_() % 2 == 0; }
  const std::string& AnyId() { return ids_[rng_() % ids_.size()]; }

  void Register(const std::string& id) {
    order_.push_back(id);
    alive_.insert(id);
    known_inflight_[id] = known_qps_[id] = false;
  }

  void Event(double t) {
    const std::string& id = AnyId();
    const bool registered = std::find(order_.begin(), order_.end(), id) != order_.end();
    switch (rng_() % 8) {
      case 0:  // up: registers at the end, or revives in place
        if (!registered) Register(id);
        alive_.insert(id);
        Line(t, "up", id, "");
        return;
      case 1:
        if (!registered) break;
        alive_.erase(id);
        Line(t, "down", id, "");
        return;
      case 2:
        if (!registered) break;
        order_.erase(std::find(order_.begin(), order_.end(), id));
        alive_.erase(id);
        Line(t, "remove", id, "");
        return;
      case 3: {
        if (!registered) break;
        std::string fields;
        if (Coin()) {
          known_inflight_[id] = Coin();
          fields += known_inflight_[id] ? ", \"inflight\": 1" : ", \"inflight\": null";
        }
        if (Coin()) {
          known_qps_[id] = Coin();
          fields += known_qps_[id] ? ", \"qps_1m\": 3" : ", \"qps_1m\": null";
        }
        Line(t, "load", id, fields);
        return;
      }
      default:
        break;
    }
    Arrive(t);
  }

  void Arrive(double t) {
    // A hint naming some Instances (alive, dead or never registered) with
    // numbers or non-numbers.
    std::map<std::string, bool> hinted;  // id -> has a number
    nlohmann::json per_instance = nlohmann::json::object();
    for (int k = 0, n = static_cast<int>(rng_() % 4); k < n; ++k) {
      std::string id = rng_() % 5 == 0 ? "ghost" : AnyId();
      bool number = Coin();
      per_instance[id] = {{"queue_depth", number ? nlohmann::json(2) : nlohmann::json("2")}};
      hinted[id] = number;  // a repeated id: the last one wins, as in JSON
    }
    Arrival arrival;
    for (const std::string& id : order_) {
      if (!alive_.count(id)) continue;
      auto h = hinted.find(id);
      bool known = known_inflight_.at(id) || known_qps_.at(id) || (h != hinted.end() && h->second);
      arrival.candidates.emplace_back(id, known);
    }
    arrivals_.push_back(std::move(arrival));
    nlohmann::json hint = {{"queue_depths", {{"per_instance", per_instance}}}};
    text_ += fmt::format(R"({{"t": {}, "type": "arrival", "duration": {}, "hint": {}}})"
                         "\n",
                         t, rng_() % 4, hint.dump());
  }

  void Line(double t, std::string_view type, const std::string& id, const std::string& fields) {
    text_ += fmt::format(R"({{"t": {}, "type": "{}", "instance": "{}"{}}})"
                         "\n",
                         t, type, id, fields);
  }

  std::mt19937_64 rng_;
  std::vector<std::string> ids_;
  std::vector<std::string> order_;  // registered, in pool order
  std::set<std::string> alive_;
  std::map<std::string, bool> known_inflight_, known_qps_;
  std::vector<Arrival> arrivals_;
  std::string text_;
};

TEST_CASE("Candidate counts equal the per-decision definition on random traces") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    RandomTrace trace(seed);
    testing::ReplayRun run = testing::ReplayText(trace.text(), {"rr", "ll"});
    Report report = BuildReport(run.result);
    for (std::size_t s = 0; s < report.strategies.size(); ++s) {
      const StrategyReport& strategy = report.strategies[s];
      std::vector<std::string> chosen;
      for (const std::string& line : run.log) {
        nlohmann::json j = nlohmann::json::parse(line);
        if (j["strategy"] != strategy.strategy) continue;
        chosen.push_back(j["instance"].is_null() ? "" : j["instance"].get<std::string>());
      }
      std::map<std::string, Counts> expected = trace.Expected(chosen);
      for (const InstanceReport& i : strategy.instances) {
        INFO("seed " << seed << ", " << strategy.strategy << ", " << i.id);
        Counts got{i.candidate_decisions, i.unknown_while_others_known, i.chosen_while_unknown};
        CHECK(got == expected[i.id]);
      }
    }
  }
}

}  // namespace
}  // namespace lbsim
