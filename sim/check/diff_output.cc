// lbsim diff's outputs: a table for people, JSON for machines, JUnit for CI.

#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/check/report_diff.h"
#include "sim/io/printable.h"
#include "sim/check/xml_text.h"
#include "sim/report/text_table.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;

// Whether a family's figures are whole numbers.
bool Whole(DiffFamily f) {
  return f == DiffFamily::kReason || f == DiffFamily::kCount || f == DiffFamily::kHerding ||
         f == DiffFamily::kRun || f == DiffFamily::kDetector || f == DiffFamily::kBlocks;
}

std::string Number(DiffFamily f, double v) {
  // The engine family mixes counts (served, tokens, steps) with times: a
  // whole value prints as one.
  if ((Whole(f) || f == DiffFamily::kEngine) && std::fabs(v) < 1e15 &&
      v == static_cast<double>(static_cast<std::int64_t>(v)))
    return fmt::format("{}", static_cast<std::int64_t>(v));
  return fmt::format("{:.4f}", v);
}

std::string Value(const DiffRow& row, const std::optional<double>& v,
                  const std::optional<std::pair<double, double>>& spread) {
  if (row.family == DiffFamily::kWarning) return v && *v > 0 ? "raised" : "-";
  if (!v) return "null";
  std::string out = Number(row.family, *v);
  if (spread)
    out += fmt::format(" [{}, {}]", Number(row.family, spread->first),
                       Number(row.family, spread->second));
  return out;
}

std::string Change(const DiffRow& row) {
  if (!row.base || !row.next) return row.base == row.next ? "0" : "changed";
  const double change = *row.next - *row.base;
  if (change == 0.0) return "0";
  if (row.family == DiffFamily::kWarning) return change > 0 ? "raised" : "gone";
  if (Whole(row.family) && change == static_cast<double>(static_cast<std::int64_t>(change)))
    return fmt::format("{:+}", static_cast<std::int64_t>(change));
  return fmt::format("{:+.4f}", change);
}

std::string Side(const std::string& label, const std::string& requested) {
  return label.empty() ? std::string("(absent)") : fmt::format("{} \"{}\"", label, requested);
}

std::string ToleranceText(DiffFamily f, const std::optional<Tolerance>& tolerance) {
  if (f == DiffFamily::kWarning) return "any change";
  if (!tolerance) return "not flagged (a detail)";
  const Tolerance& t = *tolerance;
  const bool per_decision =
      f == DiffFamily::kReason || f == DiffFamily::kCount || f == DiffFamily::kHerding;
  std::string abs = fmt::format("{}{}", t.abs, per_decision ? " of decisions" : "");
  if (t.rel == 0.0) return abs;
  std::string rel = fmt::format("{}%", t.rel * 100.0);
  return t.abs == 0.0 ? rel : fmt::format("{} and {}", abs, rel);
}

bool OneSided(const StrategyDiff& s) { return s.base_label.empty() || s.next_label.empty(); }

ojson Optional(const std::optional<double>& v) { return v ? ojson(*v) : ojson(nullptr); }

ojson SpreadJson(const std::optional<std::pair<double, double>>& s) {
  if (!s) return nullptr;
  return {{"min", s->first}, {"max", s->second}};
}

}  // namespace

std::string RenderDiffText(const ReportDiff& diff) {
  const DiffTolerances& tol = diff.options.tolerances;
  // Text from the reports (paths, names, labels, ids) is escaped: it can
  // neither split a line nor drive the terminal.
  std::string out = fmt::format("base      {}\nnew       {}\n", Printable(diff.base_path),
                                Printable(diff.next_path));
  out += fmt::format("trace     {}: {} arrivals, {} Instances\n", Printable(diff.trace_name), diff.arrivals,
                     diff.instances);
  for (const std::string& a : diff.allowed) out += fmt::format("allowed   {}\n", a);
  std::string families;
  for (DiffFamily f : AllDiffFamilies())
    families += fmt::format("{}{} {}", families.empty() ? "" : ", ", DiffFamilyName(f),
                            ToleranceText(f, tol.of(f)));
  out += fmt::format("flagged   a change{} beyond its tolerance{}: {}\n",
                     diff.options.only_worse ? " for the worse" : "",
                     diff.options.beyond_spread ? " and beyond the seeds' spread" : "", families);
  for (const auto& [path, t] : tol.overrides)
    out += fmt::format("          {} {} (--tol)\n", path, ToleranceText(DiffFamily::kLatency, t));
  out += "details   per-Instance and per-window what-if figures: flagged only under a --tol "
         "naming them\n";
  out += "\n";

  TextTable t;
  t.Row({"", "base", "new", "change", ""});
  std::size_t hidden = 0;
  for (const StrategyDiff& s : diff.strategies) {
    t.Blank();
    t.Section(Printable(fmt::format("{} vs {}", Side(s.base_label, s.base_requested),
                                    Side(s.next_label, s.next_requested))));
    if (OneSided(s)) {
      t.Section(fmt::format("  FLAGGED: only in the {} report", s.base_label.empty() ? "new" : "base"));
      continue;
    }
    for (const DiffRow& row : s.rows) {
      // Unchanged figures and details (which only a --tol flags) are
      // counted; headline figures are always shown.
      if (!row.headline && !row.flagged && (row.base == row.next || !row.tolerance)) {
        ++hidden;
        continue;
      }
      t.Row({"  " + Printable(row.figure), Value(row, row.base, row.base_spread),
             Value(row, row.next, row.next_spread), Change(row), row.flagged ? "FLAGGED" : ""});
    }
  }
  out += t.Render();
  if (hidden > 0)
    out += fmt::format(
        "\n{} figure{} not shown: unchanged, or details not flagged (lbsim diff --format json "
        "lists every figure)\n",
        hidden, hidden == 1 ? "" : "s");
  const std::size_t flagged = diff.flagged();
  out += fmt::format("\nlbsim diff: {} of {} figures beyond tolerance{}\n", flagged, diff.rows(),
                     flagged ? "" : "; no change flagged");
  return out;
}

std::string RenderDiffJson(const ReportDiff& diff) {
  ojson tolerances = ojson::object();
  for (DiffFamily f : AllDiffFamilies()) {
    const Tolerance& t = diff.options.tolerances.of(f);
    tolerances[std::string(DiffFamilyName(f))] = {{"abs", t.abs}, {"rel", t.rel}};
  }
  ojson overrides = ojson::object();
  for (const auto& [path, t] : diff.options.tolerances.overrides)
    overrides[path] = {{"abs", t.abs}, {"rel", t.rel}};
  ojson strategies = ojson::array();
  for (const StrategyDiff& s : diff.strategies) {
    ojson rows = ojson::array();
    std::size_t flagged = OneSided(s);
    for (const DiffRow& r : s.rows) {
      flagged += r.flagged;
      rows.push_back({{"figure", r.figure},
                      {"family", DiffFamilyName(r.family)},
                      {"base", Optional(r.base)},
                      {"new", Optional(r.next)},
                      {"change", r.base && r.next ? ojson(*r.next - *r.base) : ojson(nullptr)},
                      {"base_spread", SpreadJson(r.base_spread)},
                      {"new_spread", SpreadJson(r.next_spread)},
                      {"tolerance", r.tolerance ? ojson{{"abs", r.tolerance->abs}, {"rel", r.tolerance->rel}}
                                                : ojson(nullptr)},
                      {"flagged", r.flagged}});
    }
    strategies.push_back({{"base", s.base_label.empty() ? ojson(nullptr) : ojson(s.base_label)},
                          {"new", s.next_label.empty() ? ojson(nullptr) : ojson(s.next_label)},
                          {"base_requested_as", s.base_requested},
                          {"new_requested_as", s.next_requested},
                          {"decisions", s.decisions},
                          {"flagged", flagged},
                          {"figures", std::move(rows)}});
  }
  ojson j;
  j["lbsim_diff"] = 1;
  j["base"] = diff.base_path;
  j["new"] = diff.next_path;
  j["trace"] = {{"name", diff.trace_name}, {"arrivals", diff.arrivals}, {"instances", diff.instances}};
  j["allowed_differences"] = diff.allowed;
  j["beyond_spread"] = diff.options.beyond_spread;
  j["only_worse"] = diff.options.only_worse;
  j["tolerances"] = std::move(tolerances);
  j["tolerance_overrides"] = std::move(overrides);
  j["strategies"] = std::move(strategies);
  j["summary"] = {{"figures", diff.rows()}, {"flagged", diff.flagged()}};
  return j.dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";
}

std::string RenderDiffJUnit(const ReportDiff& diff) {
  std::string suites;
  std::size_t tests = 0, failures = 0;
  for (const StrategyDiff& s : diff.strategies) {
    const std::string name = fmt::format("{} vs {}", Side(s.base_label, s.base_requested),
                                         Side(s.next_label, s.next_requested));
    std::string cases;
    std::size_t suite_tests = 0, suite_failures = 0;
    auto testcase = [&](const std::string& title, const std::string& failure) {
      ++suite_tests;
      cases += fmt::format("    <testcase name=\"{}\" classname=\"lbsim.diff\"", XmlText(title));
      if (failure.empty()) {
        cases += "/>\n";
        return;
      }
      ++suite_failures;
      const std::size_t first_line = failure.find('\n');
      cases += fmt::format(
          ">\n      <failure type=\"diff\" message=\"{}\">{}</failure>\n    </testcase>\n",
          XmlText(failure.substr(0, first_line)), XmlText(failure, false));
    };
    if (OneSided(s)) {
      testcase(s.base_label.empty() ? s.next_label : s.base_label,
               fmt::format("only in the {} report", s.base_label.empty() ? "new" : "base"));
    } else {
      for (DiffFamily f : AllDiffFamilies()) {
        std::size_t compared = 0, flagged = 0;
        std::string lines;
        for (const DiffRow& r : s.rows) {
          if (r.family != f) continue;
          ++compared;
          if (!r.flagged) continue;
          if (flagged++ < 20)
            lines += fmt::format("{}: {} -> {} ({}; tolerance {})\n", r.figure,
                                 Value(r, r.base, r.base_spread), Value(r, r.next, r.next_spread),
                                 Change(r), ToleranceText(f, r.tolerance));
        }
        if (compared == 0) continue;
        std::string failure;
        if (flagged > 0) {
          failure = fmt::format("{} of {} {} figures beyond tolerance\n{}", flagged, compared,
                                DiffFamilyName(f), lines);
          if (flagged > 20) failure += fmt::format("... and {} more\n", flagged - 20);
        }
        testcase(fmt::format("{}: {}", s.next_label, DiffFamilyName(f)), failure);
      }
    }
    tests += suite_tests;
    failures += suite_failures;
    suites += fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">\n{}  "
        "</testsuite>\n",
        XmlText(name), suite_tests, suite_failures, cases);
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"lbsim diff {} {}\" "
      "tests=\"{}\" failures=\"{}\" errors=\"0\">\n{}</testsuites>\n",
      XmlText(diff.base_path), XmlText(diff.next_path), tests, failures, suites);
}

}  // namespace lbsim
