// Reading a `lbsim gen` gen spec, a JSON file (format: docs/gen.md).

#include <cmath>
#include <fstream>
#include <algorithm>
#include <initializer_list>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "traces/gen/gen_spec.h"
#include "base/json/json_line_parser.h"
#include "base/input/text_file.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

using nlohmann::json;

// Reads one spec file, naming the file and the dotted field in every error.
class SpecReader {
 public:
  explicit SpecReader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void Fail(const std::string& field, std::string_view expected,
                         const json* got) const {
    std::string shown = got ? got->dump() : std::string("nothing");
    if (shown.size() > 40) shown = shown.substr(0, 37) + "...";
    throw InputError(fmt::format("{}: field \"{}\": expected {}, got {}", path_, field,
                                 expected, shown));
  }

  // Checks that `j` is an object whose keys are all in `allowed`.
  void Object(const json& j, const std::string& field,
              std::initializer_list<std::string_view> allowed) const {
    if (!j.is_object()) Fail(field, "an object", &j);
    for (const auto& [key, value] : j.items()) {
      bool known = false;
      for (std::string_view a : allowed) known = known || key == a;
      if (!known) {
        std::string list;
        for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        Fail(Join(field, key), fmt::format("one of the keys {}", list), &value);
      }
    }
  }

  double Number(const json& j, const std::string& field) const {
    if (!j.is_number() || !std::isfinite(j.get<double>())) Fail(field, "a finite number", &j);
    return j.get<double>();
  }

  std::uint64_t Count(const json& j, const std::string& field) const {
    if (!j.is_number_unsigned() && !(j.is_number_integer() && j.get<std::int64_t>() >= 0))
      Fail(field, "an integer >= 0", &j);
    return j.get<std::uint64_t>();
  }

  std::string String(const json& j, const std::string& field) const {
    if (!j.is_string()) Fail(field, "a string", &j);
    return j.get<std::string>();
  }

  bool Bool(const json& j, const std::string& field) const {
    if (!j.is_boolean()) Fail(field, "true or false", &j);
    return j.get<bool>();
  }

  const json& Array(const json& j, const std::string& field) const {
    if (!j.is_array()) Fail(field, "an array", &j);
    return j;
  }

  static std::string Join(const std::string& field, std::string_view key) {
    return field.empty() ? std::string(key) : field + "." + std::string(key);
  }
  static std::string Item(const std::string& field, std::size_t i) {
    return fmt::format("{}[{}]", field, i);
  }

 private:
  std::string path_;
};

// Calls `f(value, field)` for `key` of `object` when present.
template <typename F>
void With(const json& object, const std::string& field, std::string_view key, F f) {
  auto it = object.find(key);
  if (it != object.end()) f(*it, SpecReader::Join(field, key));
}

// Calls `f(item, field)` for each object of the array `key` of `object`,
// after checking that it only has keys in `allowed`.
template <typename F>
void Items(const SpecReader& r, const json& object, const std::string& field,
           std::string_view key, std::initializer_list<std::string_view> allowed, F f) {
  With(object, field, key, [&](const json& v, const std::string& k) {
    for (std::size_t i = 0; i < r.Array(v, k).size(); ++i) {
      const std::string item = SpecReader::Item(k, i);
      r.Object(v[i], item, allowed);
      f(v[i], item);
    }
  });
}

// Reads a required key.
template <typename F>
void Need(const SpecReader& r, const json& object, const std::string& field,
          std::string_view key, F f) {
  if (!object.contains(key)) r.Fail(SpecReader::Join(field, key), "a value", nullptr);
  With(object, field, key, f);
}

void ReadInstances(const SpecReader& r, const json& j, GenSpec& spec) {
  const std::string f = "instances";
  auto count = [&](const json& v, const std::string& k) {
    const std::uint64_t n = r.Count(v, k);
    if (n > kMaxInstances)
      r.Fail(k, fmt::format("at most {} Instances (the most a trace may have)", kMaxInstances), &v);
    spec.instances = static_cast<std::uint32_t>(n);
  };
  if (j.is_number()) {
    count(j, f);
    return;
  }
  r.Object(j, f, {"count", "prefix", "speeds", "weights"});
  With(j, f, "count", count);
  With(j, f, "prefix", [&](const json& v, const std::string& k) { spec.prefix = r.String(v, k); });
  for (auto [key, list] : {std::pair{"speeds", &spec.speeds}, std::pair{"weights", &spec.weights}}) {
    With(j, f, key, [&, list = list](const json& v, const std::string& k) {
      list->clear();
      for (std::size_t i = 0; i < r.Array(v, k).size(); ++i)
        list->push_back(r.Number(v[i], SpecReader::Item(k, i)));
    });
  }
}

void ReadArrivals(const SpecReader& r, const json& j, GenSpec& spec) {
  const std::string f = "arrivals";
  r.Object(j, f, {"rate", "count", "until", "on_off", "diurnal", "bursts"});
  With(j, f, "rate", [&](const json& v, const std::string& k) { spec.rate = r.Number(v, k); });
  With(j, f, "count", [&](const json& v, const std::string& k) { spec.arrivals = r.Count(v, k); });
  With(j, f, "until", [&](const json& v, const std::string& k) { spec.until = r.Number(v, k); });
  With(j, f, "on_off", [&](const json& v, const std::string& k) {
    r.Object(v, k, {"on", "off", "off_rate"});
    OnOffCurve c;
    With(v, k, "on", [&](const json& x, const std::string& n) { c.on = r.Number(x, n); });
    With(v, k, "off", [&](const json& x, const std::string& n) { c.off = r.Number(x, n); });
    With(v, k, "off_rate", [&](const json& x, const std::string& n) { c.off_rate = r.Number(x, n); });
    spec.on_off = c;
  });
  With(j, f, "diurnal", [&](const json& v, const std::string& k) {
    r.Object(v, k, {"period", "amplitude", "peak_at"});
    DiurnalCurve c;
    With(v, k, "period", [&](const json& x, const std::string& n) { c.period = r.Number(x, n); });
    With(v, k, "amplitude", [&](const json& x, const std::string& n) { c.amplitude = r.Number(x, n); });
    With(v, k, "peak_at", [&](const json& x, const std::string& n) { c.peak_at = r.Number(x, n); });
    spec.diurnal = c;
  });
  Items(r, j, f, "bursts", {"at", "count", "over"}, [&](const json& v, const std::string& item) {
    Burst b;
    With(v, item, "at", [&](const json& x, const std::string& n) { b.at = r.Number(x, n); });
    With(v, item, "count", [&](const json& x, const std::string& n) { b.count = r.Count(x, n); });
    With(v, item, "over", [&](const json& x, const std::string& n) { b.over = r.Number(x, n); });
    spec.bursts.push_back(b);
  });
}

// A distribution object at `f` ("dist" and its parameters, and the keys of
// `more`, which the caller reads) into `d`.
void ReadDistribution(const SpecReader& r, const json& j, const std::string& f,
                      std::initializer_list<std::string_view> more, DurationSpec& d) {
  std::vector<std::string_view> keys = {"dist", "value", "mean", "sigma"};
  keys.insert(keys.end(), more.begin(), more.end());
  if (!j.is_object()) r.Fail(f, "an object", &j);
  for (const auto& [key, value] : j.items())
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string list;
      for (std::string_view a : keys) list += (list.empty() ? "" : ", ") + std::string(a);
      r.Fail(SpecReader::Join(f, key), fmt::format("one of the keys {}", list), &value);
    }
  const json* dist = j.contains("dist") ? &j["dist"] : nullptr;
  const std::string kind = dist ? r.String(*dist, "durations.dist") : "";
  const char* value_key = "value";
  if (kind == "fixed") {
    d.kind = DurationKind::kFixed;
  } else if (kind == "exponential") {
    d.kind = DurationKind::kExponential;
    value_key = "mean";
  } else if (kind == "lognormal") {
    d.kind = DurationKind::kLognormal;
    value_key = "mean";
  } else {
    r.Fail("durations.dist", "\"fixed\", \"exponential\" or \"lognormal\"", dist);
  }
  for (std::string_view key : {"value", "mean", "sigma"}) {
    const bool wanted = key == value_key || (key == "sigma" && d.kind == DurationKind::kLognormal);
    auto it = j.find(key);
    const std::string field = SpecReader::Join(f, key);
    if (wanted && it == j.end()) r.Fail(field, "a number", nullptr);
    if (!wanted && it != j.end())
      r.Fail(field, fmt::format("no such key for dist \"{}\"", kind), &*it);
    if (!wanted) continue;
    const double x = r.Number(*it, field);
    if (key == "sigma") d.sigma = x;
    else d.value = x;
  }
}

void ReadDurations(const SpecReader& r, const json& j, GenSpec& spec) {
  DurationSpec d;
  ReadDistribution(r, j, "durations", {}, d);
  spec.durations = d;
}

void ReadTtft(const SpecReader& r, const json& j, GenSpec& spec) {
  DurationSpec d;
  ReadDistribution(r, j, "ttft", {}, d);
  spec.ttft = d;
}

// "tokens": a preset and/or "input" and "output" distributions with "min"
// and "max"; a distribution given replaces the preset's.
void ReadTokens(const SpecReader& r, const json& j, GenSpec& spec) {
  const std::string f = "tokens";
  r.Object(j, f, {"preset", "input", "output"});
  TokenSpec t = spec.tokens.value_or(*FindTokenPreset("chatbot"));
  With(j, f, "preset", [&](const json& v, const std::string& k) {
    const TokenSpec* preset = FindTokenPreset(r.String(v, k));
    if (!preset) r.Fail(k, fmt::format("a token preset: one of {}", TokenPresetNames()), &v);
    t = *preset;
  });
  for (const auto& [key, dist] : {std::pair{"input", &t.input}, std::pair{"output", &t.output}}) {
    With(j, f, key, [&, dist = dist](const json& v, const std::string& k) {
      ReadDistribution(r, v, k, {"min", "max"}, dist->dist);
      With(v, k, "min", [&](const json& x, const std::string& n) { dist->min = r.Count(x, n); });
      With(v, k, "max", [&](const json& x, const std::string& n) { dist->max = r.Count(x, n); });
    });
  }
  spec.tokens = t;
}

void ReadPrefixes(const SpecReader& r, const json& j, GenSpec& spec) {
  const std::string f = "prefixes";
  r.Object(j, f, {"groups", "blocks", "block_tokens", "share", "zipf"});
  PrefixSpec& p = spec.prefixes;
  With(j, f, "groups", [&](const json& v, const std::string& k) { p.groups = r.Count(v, k); });
  With(j, f, "blocks", [&](const json& v, const std::string& k) { p.blocks = r.Count(v, k); });
  With(j, f, "block_tokens", [&](const json& v, const std::string& k) { p.block_tokens = r.Count(v, k); });
  With(j, f, "share", [&](const json& v, const std::string& k) { p.share = r.Number(v, k); });
  With(j, f, "zipf", [&](const json& v, const std::string& k) { p.zipf = r.Number(v, k); });
}

InstanceEventKind EventKind(const SpecReader& r, const json& v, const std::string& field) {
  const std::string s = r.String(v, field);
  if (s == "down") return InstanceEventKind::kDown;
  if (s == "up") return InstanceEventKind::kUp;
  if (s == "remove") return InstanceEventKind::kRemove;
  r.Fail(field, "\"down\", \"up\" or \"remove\"", &v);
}

void ReadInstanceEvents(const SpecReader& r, const json& root, GenSpec& spec) {
  Items(r, root, "", "events", {"at", "type", "instance"}, [&](const json& v, const std::string& item) {
    ScheduledEvent e;
    Need(r, v, item, "at", [&](const json& x, const std::string& n) { e.at = r.Number(x, n); });
    Need(r, v, item, "type", [&](const json& x, const std::string& n) { e.kind = EventKind(r, x, n); });
    Need(r, v, item, "instance", [&](const json& x, const std::string& n) { e.instance = r.String(x, n); });
    spec.events.push_back(e);
  });
  Items(r, root, "", "flapping", {"instance", "start", "period", "down_for", "until"},
        [&](const json& v, const std::string& item) {
    Flap f;
    Need(r, v, item, "instance", [&](const json& x, const std::string& n) { f.instance = r.String(x, n); });
    With(v, item, "start", [&](const json& x, const std::string& n) { f.start = r.Number(x, n); });
    Need(r, v, item, "period", [&](const json& x, const std::string& n) { f.period = r.Number(x, n); });
    Need(r, v, item, "down_for", [&](const json& x, const std::string& n) { f.down_for = r.Number(x, n); });
    With(v, item, "until", [&](const json& x, const std::string& n) { f.until = r.Number(x, n); });
    spec.flaps.push_back(f);
  });
  Items(r, root, "", "joins", {"at", "instance", "speed", "weight", "reports"},
        [&](const json& v, const std::string& item) {
    Join j;
    Need(r, v, item, "at", [&](const json& x, const std::string& n) { j.at = r.Number(x, n); });
    Need(r, v, item, "instance", [&](const json& x, const std::string& n) { j.instance = r.String(x, n); });
    With(v, item, "speed", [&](const json& x, const std::string& n) { j.speed = r.Number(x, n); });
    With(v, item, "weight", [&](const json& x, const std::string& n) { j.weight = r.Number(x, n); });
    With(v, item, "reports", [&](const json& x, const std::string& n) { j.reports = r.Bool(x, n); });
    spec.joins.push_back(j);
  });
}

void ReadReporting(const SpecReader& r, const json& j, GenSpec& spec) {
  const std::string f = "reporting";
  r.Object(j, f, {"fields", "interval", "delay", "silent_fraction", "silent"});
  ReportingSpec& rep = spec.reporting;
  With(j, f, "fields", [&](const json& v, const std::string& k) {
    rep.inflight = rep.qps_1m = false;
    rep.fields_given = true;
    for (std::size_t i = 0; i < r.Array(v, k).size(); ++i) {
      const std::string item = SpecReader::Item(k, i);
      const std::string name = r.String(v[i], item);
      if (name == "inflight") rep.inflight = true;
      else if (name == "qps_1m") rep.qps_1m = true;
      else r.Fail(item, "\"inflight\" or \"qps_1m\"", &v[i]);
    }
  });
  With(j, f, "interval", [&](const json& v, const std::string& k) { rep.interval = r.Number(v, k); });
  With(j, f, "delay", [&](const json& v, const std::string& k) { rep.delay = r.Number(v, k); });
  With(j, f, "silent_fraction", [&](const json& v, const std::string& k) { rep.silent_fraction = r.Number(v, k); });
  With(j, f, "silent", [&](const json& v, const std::string& k) {
    rep.silent.clear();
    for (std::size_t i = 0; i < r.Array(v, k).size(); ++i)
      rep.silent.push_back(r.String(v[i], SpecReader::Item(k, i)));
  });
}

}  // namespace

void ReadGenSpecFile(const std::string& path, GenSpec& spec) {
  const std::string text = ReadTextFile(path, "gen spec", kMaxJsonFileBytes);
  json root;
  JsonTextError error;
  if (!ParseBoundedJson(text, kMaxJsonFileValues, root, error)) {
    const std::string message = DescribeJsonTextError(text, error);
    const bool positioned = !message.empty() && message[0] >= '0' && message[0] <= '9';
    throw InputError(fmt::format("{}:{}{}", path, positioned ? "" : " ", message));
  }
  const SpecReader r(path);
  r.Object(root, "", {"name", "description", "time_unit", "seed", "proxy", "instances",
                      "arrivals", "durations", "ttft", "completions_share", "tokens", "prefixes",
                      "events", "flapping", "joins", "reporting"});
  With(root, "", "name", [&](const json& v, const std::string& k) { spec.name = r.String(v, k); });
  With(root, "", "description", [&](const json& v, const std::string& k) { spec.description = r.String(v, k); });
  With(root, "", "time_unit", [&](const json& v, const std::string& k) { spec.time_unit = r.String(v, k); });
  With(root, "", "seed", [&](const json& v, const std::string& k) { spec.seed = r.Count(v, k); });
  With(root, "", "proxy", [&](const json& v, const std::string& k) {
    spec.proxy = FindProxyProfile(r.String(v, k));
    if (!spec.proxy) r.Fail(k, fmt::format("a Proxy profile: one of {}", ProxyProfileNames()), &v);
  });
  With(root, "", "instances", [&](const json& v, const std::string&) { ReadInstances(r, v, spec); });
  With(root, "", "arrivals", [&](const json& v, const std::string&) { ReadArrivals(r, v, spec); });
  With(root, "", "durations", [&](const json& v, const std::string&) { ReadDurations(r, v, spec); });
  With(root, "", "ttft", [&](const json& v, const std::string&) { ReadTtft(r, v, spec); });
  With(root, "", "completions_share", [&](const json& v, const std::string& k) {
    spec.completions_share = r.Number(v, k);
  });
  With(root, "", "tokens", [&](const json& v, const std::string&) { ReadTokens(r, v, spec); });
  With(root, "", "prefixes", [&](const json& v, const std::string&) { ReadPrefixes(r, v, spec); });
  ReadInstanceEvents(r, root, spec);
  With(root, "", "reporting", [&](const json& v, const std::string&) { ReadReporting(r, v, spec); });
}

}  // namespace lbsim
