// The tolerances and allowances of lbsim diff, and how they are written on
// the command line.

#include <fmt/format.h>

#include "base/errors.h"
#include "base/number_text.h"
#include "base/split_text.h"
#include "sim/check/report_diff.h"

namespace lbsim {

namespace {

constexpr std::string_view kFamilyNames[] = {
    "share",   "fairness", "reasons",     "counts",   "herding", "runs",      "latency",
    "wait",    "utilisation", "inflight", "rates",    "blocks",  "detectors", "engine",
    "warnings"};

}  // namespace

std::string_view DiffFamilyName(DiffFamily family) {
  return kFamilyNames[static_cast<int>(family)];
}

std::vector<DiffFamily> AllDiffFamilies() {
  std::vector<DiffFamily> out;
  for (int f = 0; f <= static_cast<int>(DiffFamily::kWarning); ++f)
    out.push_back(static_cast<DiffFamily>(f));
  return out;
}

DiffTolerances::DiffTolerances() {
  of(DiffFamily::kShare) = {0.02, 0.0};
  of(DiffFamily::kFairness) = {0.02, 0.0};
  of(DiffFamily::kReason) = {0.02, 0.0};
  of(DiffFamily::kCount) = {0.02, 0.0};
  of(DiffFamily::kHerding) = {0.01, 0.0};
  of(DiffFamily::kRun) = {2.0, 0.5};
  of(DiffFamily::kLatency) = {0.0, 0.05};
  of(DiffFamily::kWait) = {0.01, 0.10};
  of(DiffFamily::kUtilisation) = {0.02, 0.0};
  of(DiffFamily::kInflight) = {0.0, 0.10};
  of(DiffFamily::kRate) = {0.02, 0.0};
  of(DiffFamily::kBlocks) = {0.0, 0.05};
  of(DiffFamily::kDetector) = {1.0, 0.0};
  of(DiffFamily::kEngine) = {0.0, 0.05};
  of(DiffFamily::kWarning) = {0.0, 0.0};
}

const Tolerance* DiffTolerances::Override(const std::string& path) const {
  const std::pair<std::string, Tolerance>* best = nullptr;
  for (const auto& o : overrides) {
    const std::string& p = o.first;
    const bool covers = path.size() >= p.size() && path.compare(0, p.size(), p) == 0 &&
                        (path.size() == p.size() || path[p.size()] == '.');
    if (covers && (!best || p.size() > best->first.size())) best = &o;
  }
  return best ? &best->second : nullptr;
}

void DiffTolerances::Set(std::string_view assignment) {
  const std::size_t eq = assignment.rfind('=');
  auto bad = [&] {
    throw UsageError(fmt::format(
        "--tol {}: expected NAME=ABS, NAME=REL% or NAME=ABS,REL% with NAME a family ({}) "
        "or a figure path such as what_if.service.latency.p99, and numbers >= 0",
        assignment, [] {
          std::string names;
          for (std::string_view n : kFamilyNames) names += (names.empty() ? "" : ", ") + std::string(n);
          return names;
        }()));
  };
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == assignment.size()) bad();
  const std::string name(assignment.substr(0, eq));
  std::string_view value = assignment.substr(eq + 1);
  Tolerance t;
  bool have_abs = false, have_rel = false;
  for (std::string_view part : SplitAt(value, ',')) {
    const bool relative = !part.empty() && part.back() == '%';
    if (relative) part.remove_suffix(1);
    double x = 0.0;
    if (!ParseFiniteNumber(part, x) || x < 0.0 || (relative ? have_rel : have_abs)) bad();
    if (relative) {
      t.rel = x / 100.0;
      have_rel = true;
    } else {
      t.abs = x;
      have_abs = true;
    }
  }
  for (DiffFamily f : AllDiffFamilies()) {
    if (DiffFamilyName(f) != name) continue;
    of(f) = t;
    return;
  }
  for (auto& o : overrides)
    if (o.first == name) {
      o.second = t;
      return;
    }
  overrides.emplace_back(name, t);
}

void DiffAllowances::Allow(std::string_view what) {
  for (std::string_view part : SplitAt(what, ',')) {
    if (part == "trace") trace = true;
    else if (part == "proxy") proxy = true;
    else if (part == "simulation") simulation = true;
    else
      throw UsageError(fmt::format(
          "--allow-different {}: expected trace, proxy or simulation (or a comma list)", what));
  }
}

}  // namespace lbsim
