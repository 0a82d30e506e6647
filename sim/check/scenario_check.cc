// Evaluates a scenario's expectations against the JSON report a replay
// prints and, for whole-run properties, against the decisions themselves.

#include "sim/check/scenario_check.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include <fmt/ranges.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "base/median.h"
#include "sim/check/dead_choice_oracle.h"
#include "sim/check/decision_recorder.h"
#include "sim/replay/replay.h"
#include "sim/report/report.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;

// "1 time", "2 times".
std::string Times(std::uint64_t n) { return fmt::format("{} time{}", n, n == 1 ? "" : "s"); }

// "a, b, c": the keys of a report object, in report order.
std::string KeyList(const ojson& object) {
  std::string out;
  for (auto it = object.begin(); it != object.end(); ++it)
    out += (out.empty() ? "" : ", ") + it.key();
  return out;
}

// "arrival 4 (t=3, request r4)"
std::string Arrival(const RecordedDecision& d) {
  std::string t;
  AppendTraceTime(t, d.t);
  return fmt::format("arrival {} (t={}, request {})", d.seq, t, d.request);
}

// An Instance id, or "no Instance" for a no_instances decision.
std::string ChoiceText(const std::optional<std::string>& instance) {
  return instance ? *instance : std::string("no Instance");
}

// The chosen Instances as a JSON array, null for no_instances.
std::string ChoicesJson(const std::vector<std::optional<std::string>>& choices) {
  ojson list = ojson::array();
  for (const auto& c : choices) list.push_back(c ? ojson(*c) : ojson(nullptr));
  return list.dump();
}

// Evaluates one scenario's expectations against its report (as parsed JSON)
// and the decisions recorded for each strategy (empty when no expectation
// needs them).
class Evaluator {
 public:
  Evaluator(const Scenario& scenario, const ojson& report,
            const std::vector<DecisionRecorder>& recorders)
      : scenario_(scenario), report_(report), recorders_(recorders) {}
  // For value expectations written on a command line: errors name the
  // expectation's key alone.
  explicit Evaluator(const ojson& report)
      : scenario_(kNoScenario), report_(report), recorders_(kNoRecorders), inline_(true) {}

  // The outcome of property `x` (not a value expectation) in this run.
  ExpectationResult Evaluate(const Expectation& x) {
    ExpectationResult r;
    r.key = x.key;
    r.why = x.why;
    switch (x.kind) {
      case ExpectationKind::kValue: break;  // see ValueResult
      case ExpectationKind::kNeverChoseDead: NeverChoseDead(x, r); break;
      case ExpectationKind::kEveryAliveChosen: EveryAliveChosen(x, r); break;
      case ExpectationKind::kSameDecisions: SameDecisions(x, r); break;
      case ExpectationKind::kChoices: Choices(x, r); break;
      case ExpectationKind::kWarning: WarningProperty(x, r); break;
    }
    return r;
  }

  // The report value at `path`: "trace.KEY..." or "LABEL.KEY...". Object
  // keys may hold dots (Instance ids): the longest key that matches wins.
  const ojson& Resolve(const Expectation& x) const {
    const std::string key = inline_ ? x.key : x.key + ".path";
    const std::string& path = x.path;
    std::size_t dot = path.find('.');
    std::string head = path.substr(0, dot);
    const ojson* node = head == "trace"
                            ? &report_["trace"]
                            : &report_["strategies"][Strategy(head, key)];
    if (dot == std::string::npos)
      Fail(key, fmt::format("\"{}\" names a whole section; expected a path to one value, "
                            "e.g. \"{}.decisions\"",
                            path, head == "trace" ? std::string("least_load") : head));
    std::string_view rest = std::string_view(path).substr(dot + 1);
    std::string walked = head;
    while (true) {
      std::string_view segment;
      if (node->is_object()) {
        for (auto it = node->begin(); it != node->end(); ++it) {
          std::string_view k = it.key();
          if (k.size() > segment.size() && rest.substr(0, k.size()) == k &&
              (rest.size() == k.size() || rest[k.size()] == '.'))
            segment = k;
        }
        if (segment.empty())
          Fail(key, fmt::format("\"{}\": the report has no key \"{}\" under {}; expected "
                                "one of: {}",
                                path, rest.substr(0, rest.find('.')), walked,
                                KeyList(*node)));
        node = &(*node)[std::string(segment)];
      } else if (node->is_array()) {
        segment = rest.substr(0, rest.find('.'));
        std::size_t index = 0;
        bool ok = !segment.empty() && segment.size() < 10 &&
                  std::all_of(segment.begin(), segment.end(),
                              [](char c) { return c >= '0' && c <= '9'; });
        if (ok) index = std::stoul(std::string(segment));
        if (!ok || index >= node->size())
          Fail(key, fmt::format("\"{}\": {} is a list of {}; expected an index 0 to {}, got "
                                "\"{}\"",
                                path, walked, node->size(),
                                node->empty() ? 0 : node->size() - 1, segment));
        node = &(*node)[index];
      } else {
        Fail(key, fmt::format("\"{}\": {} is a single value and has no key \"{}\"", path,
                              walked, rest.substr(0, rest.find('.'))));
      }
      walked += '.';
      walked += segment;
      if (rest.size() == segment.size()) break;
      rest.remove_prefix(segment.size() + 1);
    }
    if (node->is_object() || node->is_array()) {
      std::string what = node->is_array() ? fmt::format("a list of {} entries", node->size())
                         : node->empty()  ? std::string("an empty object")
                                          : fmt::format("an object (keys: {})", KeyList(*node));
      Fail(key, fmt::format("\"{}\" names {}; expected a path to one value", path, what));
    }
    return *node;
  }

 private:
  [[noreturn]] void Fail(const std::string& key, const std::string& what) const {
    if (inline_) throw UsageError(fmt::format("{}: {}", key, what));
    throw InputError(fmt::format("{}: {}: {}", scenario_.path, key, what));
  }

  static inline const Scenario kNoScenario{};
  static inline const std::vector<DecisionRecorder> kNoRecorders{};

  std::string Labels() const {
    std::string out;
    for (const ojson& s : report_["strategies"])
      out += (out.empty() ? "" : ", ") + s["label"].get<std::string>();
    return out;
  }

  // The index of the strategy with report label `label`.
  std::size_t Strategy(const std::string& label, const std::string& key) const {
    const ojson& list = report_["strategies"];
    for (std::size_t i = 0; i < list.size(); ++i)
      if (list[i]["label"] == label) return i;
    std::string hint;
    const StrategyInfo* info = StrategyRegistry::Builtin().Find(label);
    if (info && info->name != label)
      hint = fmt::format(" (paths name strategies by canonical name: {})", info->name);
    Fail(key, fmt::format("no strategy labelled \"{}\" in the report; expected one of: {}{}",
                          label, Labels(), hint));
  }

  void WarningProperty(const Expectation& x, ExpectationResult& r) const {
    const std::string& name = x.warning;
    std::vector<std::pair<std::string, const ojson*>> lists;  // (whose, warnings)
    if (x.strategies.empty()) {
      lists.emplace_back("proxy", &report_["proxy"]["warnings"]);
      for (const ojson& s : report_["strategies"])
        lists.emplace_back(s["label"].get<std::string>(), &s["warnings"]);
    } else {
      const ojson& s = report_["strategies"][Strategy(x.strategies[0], x.key + ".strategy")];
      lists.emplace_back(x.strategies[0], &s["warnings"]);
    }
    const std::string whose = x.strategies.empty() ? std::string("any strategy") : x.strategies[0];
    r.subject = fmt::format("{} warning {}", x.strategies.empty() ? "*" : x.strategies[0], name);
    const bool vowel = std::string_view("aeiou").find(name.front()) != std::string_view::npos;
    r.expected = fmt::format("{} {} warning", x.present ? (vowel ? "an" : "a") : "no", name);
    if (name == "any") r.expected = x.present ? "some warning" : "no warning";
    std::string found;
    std::size_t count = 0;
    for (const auto& [label, list] : lists)
      for (const ojson& w : *list)
        if (name == "any" || w["name"] == name) {
          if (count++ == 0)
            found = fmt::format("{}: {}", label, w["text"].get<std::string>());
        }
    r.passed = (count > 0) == x.present;
    if (count == 0) r.actual = fmt::format("none from {}", whose);
    else r.actual = count == 1 ? found : fmt::format("{} (and {} more)", found, count - 1);
  }

  void NeverChoseDead(const Expectation& x, ExpectationResult& r) {
    std::size_t k = Strategy(x.strategies[0], x.key + ".strategy");
    if (!oracle_) {
      oracle_.emplace(recorders_);
      InstanceTable table;
      scenario_.ReadScenarioTrace(table, *oracle_);
    }
    const DeadChoiceOracle::Finding& f = oracle_->findings()[k];
    r.subject = x.strategies[0] + " never_chose_dead";
    r.expected = "no decision chooses an Instance that is down or removed";
    r.passed = f.violations == 0;
    r.actual = r.passed ? fmt::format("none of {} decisions that chose an Instance did", f.chose)
                        : fmt::format("{} of {} did; first: {} chose {}", f.violations, f.chose,
                                      Arrival(*f.first), *f.first->instance);
  }

  void EveryAliveChosen(const Expectation& x, ExpectationResult& r) const {
    const ojson& s = report_["strategies"][Strategy(x.strategies[0], x.key + ".strategy")];
    r.subject = x.strategies[0] + " every_alive_chosen";
    r.expected = fmt::format("each Instance that was ever a candidate chosen >= {}",
                             Times(x.min_times));
    std::string below, fewest;
    std::uint64_t least = 0;
    const ojson& candidate = s["candidate_decisions"];
    for (auto it = candidate.begin(); it != candidate.end(); ++it) {
      if (it.value().get<std::uint64_t>() == 0) continue;
      std::uint64_t n = s["selections"][it.key()].get<std::uint64_t>();
      if (n < x.min_times)
        below += fmt::format("{}{} chosen {}", below.empty() ? "" : ", ", it.key(), Times(n));
      if (fewest.empty() || n < least) {
        fewest = it.key();
        least = n;
      }
    }
    r.passed = below.empty();
    if (!r.passed) r.actual = below;
    else if (fewest.empty()) r.actual = "no Instance was ever a candidate";
    else r.actual = fmt::format("fewest: {} chosen {}", fewest, Times(least));
  }

  void SameDecisions(const Expectation& x, ExpectationResult& r) const {
    const std::string& a = x.strategies[0];
    const std::string& b = x.strategies[1];
    const auto& da = recorders_[Strategy(a, x.key + ".strategies[0]")].decisions();
    const auto& db = recorders_[Strategy(b, x.key + ".strategies[1]")].decisions();
    r.subject = fmt::format("{} same_decisions {}", a, b);
    r.expected = fmt::format("the same Instance as {} at every arrival", b);
    std::uint64_t differ = 0;
    const RecordedDecision* first = nullptr;
    for (std::size_t i = 0; i < da.size(); ++i) {
      if (da[i].instance == db[i].instance) continue;
      if (differ++ == 0) first = &da[i];
    }
    r.passed = differ == 0;
    if (r.passed) {
      r.actual = fmt::format("the same at all {} arrivals", da.size());
    } else {
      std::size_t i = first->seq - 1;
      r.actual = fmt::format("different at {} of {} arrivals; first: {}: {} chose {}, {} chose {}",
                             differ, da.size(), Arrival(*first), a, ChoiceText(da[i].instance),
                             b, ChoiceText(db[i].instance));
    }
  }

  void Choices(const Expectation& x, ExpectationResult& r) const {
    const auto& d = recorders_[Strategy(x.strategies[0], x.key + ".strategy")].decisions();
    std::vector<std::optional<std::string>> got;
    for (const RecordedDecision& decision : d) got.push_back(decision.instance);
    r.subject = x.strategies[0] + " choices";
    r.expected = ChoicesJson(x.choices);
    r.passed = got == x.choices;
    if (r.passed) {
      r.actual = fmt::format("the same {} choices", got.size());
      return;
    }
    r.actual = ChoicesJson(got);
    if (got.size() != x.choices.size()) {
      r.actual += fmt::format("; {} arrivals, expected {}", got.size(), x.choices.size());
      return;
    }
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (got[i] == x.choices[i]) continue;
      r.actual += fmt::format("; first difference at {}", Arrival(d[i]));
      break;
    }
  }

  const Scenario& scenario_;
  const ojson& report_;
  const std::vector<DecisionRecorder>& recorders_;
  bool inline_ = false;
  std::optional<DeadChoiceOracle> oracle_;
};


bool Equal(const ScenarioScalar& want, const ojson& got) {
  return std::visit(
      [&](const auto& w) {
        using T = std::decay_t<decltype(w)>;
        if constexpr (std::is_same_v<T, std::nullptr_t>) return got.is_null();
        else if constexpr (std::is_same_v<T, bool>) return got.is_boolean() && got.get<bool>() == w;
        else if constexpr (std::is_same_v<T, double>) return got.is_number() && got.get<double>() == w;
        else return got.is_string() && got.get_ref<const std::string&>() == w;
      },
      want.value);
}

// What value expectation `x` asks, e.g. "== 8", ">= 0.9 and <= 1".
std::string ExpectedText(const Expectation& x) {
  if (x.eq) return "== " + x.eq->text;
  if (x.approx) return fmt::format("within {} of {}", x.tolerance->text, x.approx->text);
  std::string low, high;
  if (x.min) low = ">= " + x.min->text;
  if (x.above) low = "> " + x.above->text;
  if (x.max) high = "<= " + x.max->text;
  if (x.below) high = "< " + x.below->text;
  if (!low.empty() && !high.empty()) return low + " and " + high;
  return low.empty() ? high : low;
}

// Whether report value `got` meets value expectation `x`.
bool Holds(const Expectation& x, const ojson& got) {
  if (x.eq) return Equal(*x.eq, got);
  if (!got.is_number()) return false;
  const double v = got.get<double>();
  if (x.approx) return std::fabs(v - x.approx->value) <= x.tolerance->value;
  return (!x.min || v >= x.min->value) && (!x.max || v <= x.max->value) &&
         (!x.above || v > x.above->value) && (!x.below || v < x.below->value);
}

// The result of value expectation `x` over its values under `seeds`.
ExpectationResult ValueResult(const Expectation& x, const std::vector<const ojson*>& values,
                              const std::vector<std::uint64_t>& seeds) {
  ExpectationResult r;
  r.key = x.key;
  r.why = x.why;
  r.subject = x.path;
  r.expected = ExpectedText(x);
  r.passed = true;
  std::string failing;
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (Holds(x, *values[k])) continue;
    if (r.passed) failing = fmt::format("{}", seeds[k]);
    else failing += fmt::format(", {}", seeds[k]);
    r.passed = false;
  }
  const bool same = std::all_of(values.begin(), values.end(),
                                [&](const ojson* v) { return *v == *values.front(); });
  if (same) {
    r.actual_json = values.front()->dump();
    r.actual = r.actual_json;
  } else if (std::all_of(values.begin(), values.end(), [](const ojson* v) { return v->is_number(); })) {
    std::vector<double> numbers;
    bool integers = true;
    for (const ojson* v : values) {
      numbers.push_back(v->get<double>());
      integers = integers && v->is_number_integer();
    }
    // Whole numbers stay whole where they can (a median of an even count
    // may not be).
    auto typed = [&](double x) {
      return integers && x == std::floor(x) ? ojson(static_cast<std::int64_t>(x)) : ojson(x);
    };
    const auto [lo, hi] = std::minmax_element(numbers.begin(), numbers.end());
    const ojson spread = {{"min", typed(*lo)}, {"median", typed(Median(numbers))}, {"max", typed(*hi)}};
    r.actual_json = spread.dump();
    r.actual = fmt::format("median {} (min {}, max {} over {} seeds)", spread["median"].dump(),
                           spread["min"].dump(), spread["max"].dump(), values.size());
  } else {
    ojson list = ojson::array();
    for (const ojson* v : values) list.push_back(*v);
    r.actual_json = list.dump();
    r.actual = fmt::format("{} under seeds {}", r.actual_json, fmt::join(seeds, ", "));
  }
  if (!r.passed && seeds.size() > 1) r.actual += fmt::format("; fails under seed {}", failing);
  return r;
}

// The result of a property over its results under `seeds`: it holds when
// it holds under every seed; otherwise it shows the first that fails.
ExpectationResult PropertyResult(std::vector<ExpectationResult> results,
                                 const std::vector<std::uint64_t>& seeds) {
  for (std::size_t k = 0; k < results.size(); ++k) {
    if (results[k].passed) continue;
    if (seeds.size() > 1) results[k].actual = fmt::format("under seed {}: {}", seeds[k], results[k].actual);
    return results[k];
  }
  return results.front();
}

// One replay of a scenario: its seed, report and recorded decisions.
struct SeededRun {
  std::uint64_t seed = 0;
  ojson report;
  std::vector<DecisionRecorder> recorders;
};

// The --fail-on result for warning `name` ("warning": any) over `runs`.
ExpectationResult FailOnResult(const std::string& name, const std::vector<SeededRun>& runs) {
  ExpectationResult r;
  r.key = "fail-on";
  r.subject = fmt::format("warning {}", name);
  r.expected = name == "warning" ? "no warning" : fmt::format("no {} warning", name);
  std::string first;
  std::size_t count = 0;
  for (const SeededRun& run : runs) {
    auto scan = [&](const std::string& whose, const ojson& warnings) {
      for (const ojson& w : warnings)
        if (name == "warning" || w["name"] == name)
          if (count++ == 0)
            first = fmt::format("{}{}: {}", runs.size() > 1 ? fmt::format("seed {}: ", run.seed) : "",
                                whose, w["text"].get<std::string>());
    };
    scan("proxy", run.report["proxy"]["warnings"]);
    for (const ojson& s : run.report["strategies"]) scan(s["label"].get<std::string>(), s["warnings"]);
  }
  r.passed = count == 0;
  r.actual = count == 0 ? "none" : count == 1 ? first : fmt::format("{} (and {} more)", first, count - 1);
  return r;
}

}  // namespace

std::size_t ScenarioResult::failed() const {
  return static_cast<std::size_t>(std::count_if(
      expectations.begin(), expectations.end(),
      [](const ExpectationResult& r) { return !r.passed; }));
}

ScenarioResult CheckScenario(const Scenario& scenario, const std::vector<std::string>& fail_on) {
  const bool needs_decisions = std::any_of(
      scenario.expectations.begin(), scenario.expectations.end(),
      [](const Expectation& x) { return x.kind != ExpectationKind::kValue; });
  const std::vector<std::uint64_t> seeds = scenario.Seeds();
  std::vector<SeededRun> runs(seeds.size());
  for (std::size_t k = 0; k < seeds.size(); ++k) {
    SeededRun& run = runs[k];
    run.seed = seeds[k];
    run.recorders.resize(needs_decisions ? scenario.strategies.size() : 0);
    std::vector<DecisionSink*> sinks;
    for (DecisionRecorder& r : run.recorders) sinks.push_back(&r);
    ReplayResult replay;
    try {
      replay = Replay(
          scenario.trace_path,
          [&](InstanceTable& table, TraceVisitor& visitor) {
            return scenario.ReadScenarioTrace(table, visitor);
          },
          scenario.StrategiesFor(run.seed), sinks, scenario.OptionsFor(run.seed));
    } catch (const UsageError& e) {
      throw InputError(fmt::format("{}: {}", scenario.path, e.what()));
    }
    // The very JSON `lbsim --format json` prints: paths mean its keys.
    run.report = ojson::parse(RenderJson(BuildReport(replay)));
  }

  ScenarioResult result;
  result.path = scenario.path;
  result.name = scenario.name;
  if (!runs.empty()) {
    const ojson& proxy = runs.front().report.value("proxy", ojson::object());
    if (proxy.contains("profile") && proxy["profile"].is_string())
      result.proxy = proxy["profile"].get<std::string>();
    if (proxy.contains("python") && proxy["python"].is_string())
      result.python = proxy["python"].get<std::string>();
  }
  std::vector<Evaluator> evaluators;
  for (const SeededRun& run : runs) evaluators.emplace_back(scenario, run.report, run.recorders);
  for (const Expectation& x : scenario.expectations) {
    if (x.kind == ExpectationKind::kValue) {
      std::vector<const ojson*> values;
      for (const Evaluator& e : evaluators) values.push_back(&e.Resolve(x));
      result.expectations.push_back(ValueResult(x, values, seeds));
    } else {
      std::vector<ExpectationResult> each;
      for (Evaluator& e : evaluators) each.push_back(e.Evaluate(x));
      result.expectations.push_back(PropertyResult(std::move(each), seeds));
    }
  }
  for (const std::string& name : fail_on) result.expectations.push_back(FailOnResult(name, runs));
  return result;
}

std::vector<ExpectationResult> CheckReportValues(const std::vector<Expectation>& expectations,
                                                const std::vector<std::string>& reports,
                                                const std::vector<std::uint64_t>& seeds) {
  std::vector<ojson> docs;
  for (const std::string& text : reports) docs.push_back(ojson::parse(text));
  std::vector<Evaluator> evaluators;
  for (const ojson& doc : docs) evaluators.emplace_back(doc);
  std::vector<ExpectationResult> out;
  for (const Expectation& x : expectations) {
    std::vector<const ojson*> values;
    for (const Evaluator& e : evaluators) values.push_back(&e.Resolve(x));
    out.push_back(ValueResult(x, values, seeds));
  }
  return out;
}

CheckSummary Summarize(const std::vector<ScenarioResult>& results) {
  CheckSummary s;
  s.scenarios = results.size();
  for (const ScenarioResult& r : results) {
    s.expectations += r.expectations.size();
    s.failed += r.failed();
  }
  return s;
}

}  // namespace lbsim
