// Baseline comparison of two JSON reports of the same trace.

#include "sim/check/report_diff.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "sim/io/json_file.h"
#include "sim/io/printable.h"
#include "sim/report/text_table.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;

// The report figures a diff compares, read and checked from one file.
struct ReportFigures {
  struct Strategy {
    std::string label;
    std::string requested_as;
    std::uint64_t decisions = 0;
    std::vector<std::pair<std::string, double>> share;
    std::vector<std::pair<std::string, std::optional<double>>> fairness;
    std::vector<std::pair<std::string, double>> reasons;
  };
  std::string trace_name;
  std::uint64_t events = 0, arrivals = 0;
  std::vector<std::string> instances;
  std::vector<Strategy> strategies;
  std::unordered_map<std::string, std::size_t> by_label;  // the first of each label

  const Strategy* Find(const std::string& label) const {
    auto it = by_label.find(label);
    return it == by_label.end() ? nullptr : &strategies[it->second];
  }
  std::string Labels() const {
    std::string out;
    for (const Strategy& s : strategies) out += (out.empty() ? "" : ", ") + s.label;
    return out;
  }
};

class ReportReader {
 public:
  explicit ReportReader(std::string path) : path_(std::move(path)) {}

  ReportFigures Read() {
    const ojson doc = ReadJsonFile(path_, "report");
    if (!doc.is_object() || !doc.contains("lbsim_report") || doc["lbsim_report"] != 1)
      Fail("lbsim_report", "expected 1 (a JSON report from lbsim --format json)");
    ReportFigures r;
    const ojson& trace = Object(doc, "trace", "trace");
    r.trace_name = Text(trace, "name", "trace.name");
    r.events = Count(trace, "events", "trace.events");
    r.arrivals = Count(trace, "arrivals", "trace.arrivals");
    const ojson& ids = Get(trace, "instances", "trace.instances");
    if (!ids.is_array()) Fail("trace.instances", "expected an array of Instance ids");
    for (const ojson& id : ids) {
      if (!id.is_string()) Fail("trace.instances", "expected an array of Instance ids");
      r.instances.push_back(id.get<std::string>());
    }
    const ojson& list = Get(doc, "strategies", "strategies");
    if (!list.is_array()) Fail("strategies", "expected an array");
    for (std::size_t i = 0; i < list.size(); ++i) {
      r.strategies.push_back(StrategyFigures(list[i], fmt::format("strategies[{}]", i)));
      r.by_label.emplace(r.strategies.back().label, i);
    }
    return r;
  }

 private:
  [[noreturn]] void Fail(std::string_view key, std::string_view what) const {
    throw InputError(fmt::format("{}: {}: {}", path_, key, what));
  }
  const ojson& Get(const ojson& object, std::string_view key, std::string_view where) const {
    auto it = object.find(key);
    if (it == object.end()) Fail(where, "missing (expected a report from lbsim --format json)");
    return *it;
  }
  const ojson& Object(const ojson& object, std::string_view key, std::string_view where) const {
    const ojson& v = Get(object, key, where);
    if (!v.is_object()) Fail(where, "expected an object");
    return v;
  }
  std::uint64_t Count(const ojson& object, std::string_view key, const std::string& where) const {
    const ojson& v = Get(object, key, where);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
      Fail(where, "expected an integer >= 0");
    return v.get<std::uint64_t>();
  }
  std::string Text(const ojson& object, std::string_view key, const std::string& where) const {
    const ojson& v = Get(object, key, where);
    if (!v.is_string()) Fail(where, "expected a string");
    return v.get<std::string>();
  }
  // Every member of an object whose values are numbers (or null, when
  // `nullable`).
  template <typename Value>
  std::vector<std::pair<std::string, Value>> Numbers(const ojson& s, std::string_view key,
                                                     const std::string& where,
                                                     bool nullable) const {
    const ojson& object = Object(s, key, where);
    std::vector<std::pair<std::string, Value>> out;
    for (auto it = object.begin(); it != object.end(); ++it) {
      if (it.value().is_null() && nullable) {
        out.emplace_back(it.key(), Value{});
        continue;
      }
      if (!it.value().is_number())
        Fail(fmt::format("{}.{}", where, it.key()), nullable ? "expected a number or null"
                                                             : "expected a number");
      out.emplace_back(it.key(), Value{it.value().get<double>()});
    }
    return out;
  }

  ReportFigures::Strategy StrategyFigures(const ojson& s, const std::string& where) const {
    if (!s.is_object()) Fail(where, "expected an object");
    ReportFigures::Strategy f;
    f.label = Text(s, "label", where + ".label");
    f.requested_as = Text(s, "requested_as", where + ".requested_as");
    f.decisions = Count(s, "decisions", where + ".decisions");
    f.share = Numbers<double>(s, "share", where + ".share", false);
    f.fairness = Numbers<std::optional<double>>(s, "fairness", where + ".fairness", true);
    f.reasons = Numbers<double>(s, "reasons", where + ".reasons", false);
    return f;
  }

  std::string path_;
};

// The values of one list by name (the first of a name that repeats), so
// that a comparison costs time in proportion to the lists, not their square.
template <typename Value>
std::unordered_map<std::string_view, const Value*> ByName(
    const std::vector<std::pair<std::string, Value>>& list) {
  std::unordered_map<std::string_view, const Value*> out;
  out.reserve(list.size());
  for (const auto& [key, value] : list) out.emplace(key, &value);
  return out;
}

template <typename Value>
const Value* Lookup(const std::unordered_map<std::string_view, const Value*>& by_name,
                    std::string_view name) {
  auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : it->second;
}

// The names of both lists, base order first, then names only in `next`;
// each once.
template <typename Value>
std::vector<std::string> Names(const std::vector<std::pair<std::string, Value>>& base,
                               const std::vector<std::pair<std::string, Value>>& next) {
  std::vector<std::string> out;
  std::unordered_set<std::string_view> seen;
  for (const auto* list : {&base, &next})
    for (const auto& entry : *list)
      if (seen.insert(entry.first).second) out.push_back(entry.first);
  return out;
}

void CheckSameTrace(const ReportFigures& base, const ReportFigures& next,
                    const std::string& base_path, const std::string& next_path) {
  auto differs = [&](std::string_view key, const std::string& b, const std::string& n) {
    throw InputError(fmt::format(
        "{}: {}: {}, but {} has {}; lbsim diff compares two reports of the same trace",
        next_path, key, n, base_path, b));
  };
  if (base.trace_name != next.trace_name)
    differs("trace.name", base.trace_name, next.trace_name);
  if (base.events != next.events)
    differs("trace.events", std::to_string(base.events), std::to_string(next.events));
  if (base.arrivals != next.arrivals)
    differs("trace.arrivals", std::to_string(base.arrivals), std::to_string(next.arrivals));
  if (base.instances != next.instances)
    differs("trace.instances", fmt::format("{}", fmt::join(base.instances, ",")),
            fmt::format("{}", fmt::join(next.instances, ",")));
}

StrategyDiff Compare(const ReportFigures::Strategy* b, const ReportFigures::Strategy* n,
                     const DiffTolerances& tol) {
  StrategyDiff d;
  if (b) {
    d.base_label = b->label;
    d.base_requested = b->requested_as;
    d.decisions = b->decisions;
  }
  if (n) {
    d.next_label = n->label;
    d.next_requested = n->requested_as;
    if (!b) d.decisions = n->decisions;
  }
  if (!b || !n) return d;

  auto number = [](const double* v) { return v ? std::optional<double>(*v) : std::nullopt; };
  const auto base_share = ByName(b->share), next_share = ByName(n->share);
  for (const std::string& id : Names(b->share, n->share)) {
    DiffRow row{DiffRow::Kind::kShare, id, number(Lookup(base_share, id)),
                number(Lookup(next_share, id))};
    row.flagged = !row.base || !row.next || std::fabs(*row.next - *row.base) > tol.share;
    d.rows.push_back(std::move(row));
  }
  const auto base_fairness = ByName(b->fairness), next_fairness = ByName(n->fairness);
  for (const std::string& key : Names(b->fairness, n->fairness)) {
    auto value = [&](const auto& by_name) {
      const std::optional<double>* v = Lookup(by_name, key);
      return v ? *v : std::optional<double>();
    };
    DiffRow row{DiffRow::Kind::kFairness, key, value(base_fairness), value(next_fairness)};
    row.flagged = row.base.has_value() != row.next.has_value() ||
                  (row.base && std::fabs(*row.next - *row.base) > tol.fairness);
    d.rows.push_back(std::move(row));
  }
  const double decisions = static_cast<double>(std::max<std::uint64_t>(d.decisions, 1));
  const auto base_reasons = ByName(b->reasons), next_reasons = ByName(n->reasons);
  for (const std::string& word : Names(b->reasons, n->reasons)) {
    // A reason one strategy never gives counts 0 there.
    DiffRow row{DiffRow::Kind::kReason, word,
                number(Lookup(base_reasons, word)).value_or(0.0),
                number(Lookup(next_reasons, word)).value_or(0.0)};
    row.flagged = std::fabs(*row.next - *row.base) / decisions > tol.reasons;
    d.rows.push_back(std::move(row));
  }
  return d;
}

std::string Value(const DiffRow& row, const std::optional<double>& v) {
  if (!v) return row.kind == DiffRow::Kind::kFairness ? "null" : "-";
  if (row.kind == DiffRow::Kind::kReason) return fmt::format("{}", static_cast<std::uint64_t>(*v));
  return fmt::format("{:.4f}", *v);
}

std::string Change(const DiffRow& row) {
  if (!row.base || !row.next) return row.base == row.next ? "0" : "changed";
  double change = *row.next - *row.base;
  if (change == 0.0) return "0";
  if (row.kind == DiffRow::Kind::kReason)
    return fmt::format("{:+}", static_cast<std::int64_t>(change));
  return fmt::format("{:+.4f}", change);
}

std::string Side(const std::string& label, const std::string& requested) {
  return label.empty() ? std::string("(absent)")
                       : fmt::format("{} \"{}\"", Printable(label), Printable(requested));
}

}  // namespace

std::size_t ReportDiff::flagged() const {
  std::size_t n = 0;
  for (const StrategyDiff& s : strategies) {
    if (s.base_label.empty() || s.next_label.empty()) ++n;
    for (const DiffRow& r : s.rows) n += r.flagged;
  }
  return n;
}

std::size_t ReportDiff::rows() const {
  std::size_t n = 0;
  for (const StrategyDiff& s : strategies)
    n += s.base_label.empty() || s.next_label.empty() ? 1 : s.rows.size();
  return n;
}

ReportDiff DiffReports(const std::string& base_path, const std::string& next_path,
                       const DiffTolerances& tolerances,
                       const std::vector<std::pair<std::string, std::string>>& pairs) {
  const ReportFigures base = ReportReader(base_path).Read();
  const ReportFigures next = ReportReader(next_path).Read();
  CheckSameTrace(base, next, base_path, next_path);

  ReportDiff diff;
  diff.base_path = base_path;
  diff.next_path = next_path;
  diff.trace_name = base.trace_name;
  diff.arrivals = base.arrivals;
  diff.instances = base.instances.size();
  diff.tolerances = tolerances;

  if (!pairs.empty()) {
    for (const auto& [b, n] : pairs) {
      const ReportFigures::Strategy* bs = base.Find(b);
      const ReportFigures::Strategy* ns = next.Find(n);
      if (!bs)
        throw UsageError(fmt::format("--pair {}={}: {} has no strategy labelled {} (labels: {})",
                                     b, n, base_path, b, base.Labels()));
      if (!ns)
        throw UsageError(fmt::format("--pair {}={}: {} has no strategy labelled {} (labels: {})",
                                     b, n, next_path, n, next.Labels()));
      diff.strategies.push_back(Compare(bs, ns, tolerances));
    }
  } else if (base.strategies.size() == 1 && next.strategies.size() == 1) {
    diff.strategies.push_back(Compare(&base.strategies[0], &next.strategies[0], tolerances));
  } else {
    for (const ReportFigures::Strategy& b : base.strategies)
      diff.strategies.push_back(Compare(&b, next.Find(b.label), tolerances));
    for (const ReportFigures::Strategy& n : next.strategies)
      if (!base.Find(n.label)) diff.strategies.push_back(Compare(nullptr, &n, tolerances));
  }
  return diff;
}

std::string RenderDiffText(const ReportDiff& diff) {
  const DiffTolerances& tol = diff.tolerances;
  // Text from the reports (paths, names, labels, ids) is escaped: it can
  // neither split a line nor drive the terminal.
  std::string out = fmt::format("base      {}\nnew       {}\n", Printable(diff.base_path),
                                Printable(diff.next_path));
  out += fmt::format("trace     {}: {} arrivals, {} Instances\n", Printable(diff.trace_name),
                     diff.arrivals, diff.instances);
  out += fmt::format(
      "flagged   share change > {}, fairness change > {}, reason count change > {} of "
      "decisions\n\n",
      tol.share, tol.fairness, tol.reasons);

  TextTable t;
  t.Row({"", "base", "new", "change", ""});
  for (const StrategyDiff& s : diff.strategies) {
    t.Blank();
    t.Section(fmt::format("{} vs {}", Side(s.base_label, s.base_requested),
                          Side(s.next_label, s.next_requested)));
    if (s.base_label.empty() || s.next_label.empty()) {
      t.Section(fmt::format("  FLAGGED: only in the {} report",
                            s.base_label.empty() ? "new" : "base"));
      continue;
    }
    for (const DiffRow& row : s.rows) {
      std::string title = row.kind == DiffRow::Kind::kShare      ? "  share "
                          : row.kind == DiffRow::Kind::kFairness ? "  fairness "
                                                                 : "  reasons ";
      t.Row({title + Printable(row.name), Value(row, row.base), Value(row, row.next), Change(row),
             row.flagged ? "FLAGGED" : ""});
    }
  }
  out += t.Render();
  const std::size_t flagged = diff.flagged();
  out += fmt::format("\nlbsim diff: {} of {} figures beyond tolerance{}\n", flagged,
                     diff.rows(), flagged ? "" : "; no change flagged");
  return out;
}

}  // namespace lbsim
