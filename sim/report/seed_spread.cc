// One trace under several seeds: the medians and spread of every figure.

#include "sim/report/seed_spread.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_pointer.h"
#include "base/median.h"
#include "sim/io/printable.h"
#include "sim/report/figure_catalogue.h"
#include "sim/report/text_table.h"
#include "sim/report/warning.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;

// Merges `in` (the same place in every seed's document) into `out` (the
// first seed's copy), recording the spread of numbers under `pointer`.
void Merge(ojson& out, const std::vector<const ojson*>& in, const std::string& pointer,
           ojson& spread) {
  if (out.is_object()) {
    // The seeds' documents list their keys in one order: each key is looked
    // for where the last one was found first, so an object of n keys (an
    // Instance map) costs n steps, not n^2.
    std::vector<ojson::const_iterator> next;
    for (const ojson* doc : in) next.push_back(doc->begin());
    std::vector<const ojson*> children;
    for (auto it = out.begin(); it != out.end(); ++it) {
      children.clear();
      for (std::size_t d = 0; d < in.size(); ++d) {
        auto found = next[d] != in[d]->end() && next[d].key() == it.key() ? next[d]
                                                                          : in[d]->find(it.key());
        if (found == in[d]->end()) continue;
        children.push_back(&*found);
        next[d] = std::next(found);
      }
      if (children.size() == in.size())
        Merge(it.value(), children, pointer + "/" + JsonPointerToken(it.key()), spread);
    }
  } else if (out.is_array()) {
    for (std::size_t k = 0; k < out.size(); ++k) {
      std::vector<const ojson*> children;
      for (const ojson* doc : in)
        if (doc->is_array() && k < doc->size()) children.push_back(&(*doc)[k]);
      if (children.size() == in.size())
        Merge(out[k], children, fmt::format("{}/{}", pointer, k), spread);
    }
  } else if (out.is_number()) {
    std::vector<double> values;
    bool integers = true;
    for (const ojson* v : in) {
      if (!v->is_number()) return;
      values.push_back(v->get<double>());
      integers = integers && v->is_number_integer();
    }
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    if (*lo == *hi) return;
    const double median = Median(values);
    ojson m = integers && median == static_cast<double>(static_cast<std::int64_t>(median))
                  ? ojson(static_cast<std::int64_t>(median))
                  : ojson(median);
    ojson low = integers ? ojson(static_cast<std::int64_t>(*lo)) : ojson(*lo);
    ojson high = integers ? ojson(static_cast<std::int64_t>(*hi)) : ojson(*hi);
    // Each pointer is visited once: appended without ordered_json's
    // search for an equal key, which made a spread of n figures cost n^2.
    spread.get_ref<ojson::object_t&>().Container::emplace_back(
        pointer, ojson{{"min", low}, {"median", m}, {"max", high}});
    out = m;
  } else if (out.is_boolean()) {
    for (const ojson* v : in)
      if (v->is_boolean() && v->get<bool>()) out = true;
  }
}

// The warnings of every seed's `list` (each {"name", "text"}), merged as
// RenderSeededJson says.
ojson MergeWarnings(const std::vector<const ojson*>& lists) {
  ojson out = ojson::array();
  for (std::string_view name : kWarningNames) {
    std::size_t seeds = 0;
    const ojson* first = nullptr;
    for (const ojson* list : lists) {
      const bool raised = std::any_of(list->begin(), list->end(),
                                      [&](const ojson& w) { return w["name"] == name; });
      if (!raised) continue;
      ++seeds;
      if (!first) first = list;
    }
    if (!first) continue;
    for (const ojson& w : *first)
      if (w["name"] == name) out.push_back({{"name", w["name"]}, {"text", w["text"]}, {"seeds", seeds}});
  }
  return out;
}

ojson Merged(const SeededReports& runs) {
  std::vector<ojson> docs;
  for (const Report& r : runs.reports) docs.push_back(ojson::parse(RenderJson(r)));
  ojson out;
  out["lbsim_report"] = 1;
  out["seeds"] = runs.seeds;
  for (auto it = docs[0].begin(); it != docs[0].end(); ++it)
    if (it.key() != "lbsim_report") out[it.key()] = it.value();
  ojson& strategies = out["strategies"];
  for (std::size_t k = 0; k < strategies.size(); ++k) {
    std::vector<const ojson*> in, warnings;
    for (const ojson& doc : docs) {
      in.push_back(&doc["strategies"][k]);
      warnings.push_back(&doc["strategies"][k]["warnings"]);
    }
    ojson spread = ojson::object();
    Merge(strategies[k], in, "", spread);
    strategies[k]["warnings"] = MergeWarnings(warnings);
    strategies[k]["spread"] = std::move(spread);
  }
  std::vector<const ojson*> proxy_warnings;
  for (const ojson& doc : docs) proxy_warnings.push_back(&doc["proxy"]["warnings"]);
  out["proxy"]["warnings"] = MergeWarnings(proxy_warnings);
  return out;
}

// The object a figure belongs to: its pointer's first three keys
// ("/what_if/engine/slo"), or all but the last for a shorter one. A
// figure's value may be null; the object holding it is present whenever
// its part of the report is.
std::string PartOf(const std::string& pointer) {
  std::size_t end = 0;
  for (int keys = 0; keys < 3; ++keys) {
    const std::size_t next = pointer.find('/', end + 1);
    if (next == std::string::npos) return pointer.substr(0, end);
    end = next;
  }
  return pointer.substr(0, end);
}

// The value at `pointer` of strategy `s`, as "median [min, max]" when it
// differed between seeds; "-" when the report has no number there.
std::string Cell(const ojson& s, const std::string& pointer, const std::string& format) {
  const ojson::json_pointer p(pointer);
  if (!s.contains(p) || !s[p].is_number()) return "-";
  auto text = [&](const ojson& v) { return fmt::format(fmt::runtime(format), v.get<double>()); };
  auto found = s["spread"].find(pointer);
  if (found == s["spread"].end()) return text(s[p]);
  const ojson& spread = found.value();
  const std::string low = text(spread["min"]), high = text(spread["max"]);
  if (low == high) return text(spread["median"]);  // differed only past the digits shown
  return fmt::format("{} [{}, {}]", text(spread["median"]), low, high);
}

}  // namespace

std::string RenderSeededJson(const SeededReports& runs) { return Merged(runs).dump(2) + "\n"; }

std::string RenderSeededTable(const SeededReports& runs) {
  const ojson doc = Merged(runs);
  const Report& first = runs.reports.front();
  std::string out;
  out += fmt::format("trace     {}\n", Printable(first.trace_path));
  if (!first.trace_name.empty()) out += fmt::format("name      {}\n", Printable(first.trace_name));
  out += fmt::format("events    {} ({} arrivals), {} Instances, time unit {}\n", first.events,
                     first.arrivals, first.instances.size(), first.time_unit);
  out += fmt::format("proxy     {}\n", first.proxy.profile);
  out += fmt::format("seeds     {} ({} replays; a figure that differed: median [min, max])\n\n",
                     fmt::join(runs.seeds, ", "), runs.seeds.size());

  const ojson& strategies = doc["strategies"];
  TextTable t;
  auto row = [&](std::string title, const std::string& pointer, const std::string& format) {
    std::vector<std::string> cells{std::move(title)};
    for (const ojson& s : strategies) cells.push_back(Cell(s, pointer, format));
    t.Row(std::move(cells));
  };
  std::vector<std::string> labels{"strategy"}, requested{"requested as"};
  for (const ojson& s : strategies) {
    labels.push_back(Printable(s["label"].get<std::string>()));
    requested.push_back(Printable(s["requested_as"].get<std::string>()));
  }
  t.Row(labels);
  t.Row(requested);
  // The rows of those of the figure catalogue's `columns` that have a row
  // here, their titles after `indent`.
  auto rows = [&](auto columns, const std::string& indent) {
    for (const auto& c : columns) {
      if (c.spread.empty()) continue;
      std::string pointer = std::string("/").append(c.path);
      std::replace(pointer.begin(), pointer.end(), '.', '/');
      // A part no run has (the SLO figures without --slo): no row.
      const ojson::json_pointer owner(PartOf(pointer));
      if (std::none_of(strategies.begin(), strategies.end(),
                       [&](const ojson& s) { return s.contains(owner); }))
        continue;
      row(indent + std::string(c.spread), pointer,
          fmt::format("{{:.{}f}}", c.whole ? 0 : c.decimals));
    }
  };
  // A section of a part's rows.
  auto section = [&](const std::string& title, auto columns) {
    t.Blank();
    t.Section(title);
    rows(columns, "  ");
  };
  const std::span<const RunColumn> run = RunColumns();
  rows(run.first(kRunColumnsBeforeReasons), "");
  t.Blank();
  t.Section("share of decisions that chose");
  for (const std::string& id : first.instances)
    row("  " + Printable(id), "/share/" + JsonPointerToken(id), "{:.4f}");
  t.Blank();
  rows(run.subspan(kRunColumnsBeforeReasons), "");
  if (std::any_of(strategies.begin(), strategies.end(),
                  [](const ojson& s) { return s.contains("proxy_choices"); }))
    row("equal to the recorded Proxy", "/proxy_choices/share", "{:.4f}");
  if (first.simulation && first.simulation->service())
    section(fmt::format("service ({})", first.time_unit), ServiceColumns());
  if (first.simulation && first.simulation->engine_model())
    section(fmt::format("engine ({})", first.time_unit), EngineColumns());
  if (first.proxy_queue) section(fmt::format("proxy queue ({})", first.time_unit), QueueColumns());
  out += t.Render();

  std::string warnings;
  for (const ojson& w : doc["proxy"]["warnings"])
    warnings += fmt::format("  proxy ({} of {} seeds): {}\n", w["seeds"].get<std::size_t>(),
                            runs.seeds.size(), Printable(w["text"].get<std::string>()));
  for (const ojson& s : strategies)
    for (const ojson& w : s["warnings"])
      warnings += fmt::format("  {} ({} of {} seeds): {}\n",
                              Printable(s["label"].get<std::string>()),
                              w["seeds"].get<std::size_t>(), runs.seeds.size(),
                              Printable(w["text"].get<std::string>()));
  out += warnings.empty() ? "\nwarnings: none under any seed\n" : "\nwarnings\n" + warnings;
  return out;
}

std::vector<std::string> SelectedWarnings(const SeededReports& runs,
                                          const std::vector<std::string>& names) {
  auto selected = [&](const Warning& w) {
    return std::any_of(names.begin(), names.end(),
                       [&](const std::string& n) { return n == "warning" || n == w.name; });
  };
  std::vector<std::string> out;
  for (std::size_t k = 0; k < runs.reports.size(); ++k) {
    const std::string seed =
        runs.seeds.size() > 1 ? fmt::format("seed {}: ", runs.seeds[k]) : std::string();
    const Report& r = runs.reports[k];
    for (const Warning& w : r.proxy.warnings)
      if (selected(w)) out.push_back(fmt::format("{}proxy: {}", seed, w.text));
    for (const StrategyReport& s : r.strategies)
      for (const Warning& w : s.warnings)
        if (selected(w)) out.push_back(fmt::format("{}{}: {}", seed, s.label, w.text));
  }
  return out;
}

}  // namespace lbsim
