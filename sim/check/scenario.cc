// Scenario files, format version 1: reading and validation. Every key is
// checked, unknown keys included, so that a typo fails loudly instead of
// silently checking less.

#include "sim/check/scenario.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <span>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "sim/replay/what_if_keys.h"
#include "sim/io/json_file.h"
#include "sim/report/warning.h"

namespace lbsim {
namespace {

using ojson = nlohmann::ordered_json;
namespace fs = std::filesystem;

// The parameters a scenario's options set for every strategy that takes
// them, as --seed and --cache-blocks do on the command line.
std::vector<RunWideParam> RunWide(const SimOptions& sim, std::uint64_t seed) {
  return {{"seed", fmt::format("{}", seed)}, {"cache_blocks", fmt::format("{}", sim.cache_blocks)}};
}

// A short rendering of an offending value.
std::string Show(const ojson& v) {
  std::string text = v.dump(-1, ' ', false, ojson::error_handler_t::replace);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

std::string Join(std::span<const std::string_view> words) {
  std::string out;
  for (std::string_view w : words) out += (out.empty() ? "" : ", ") + std::string(w);
  return out;
}

// Validates one scenario document; every error names the file and key.
class ScenarioParser {
 public:
  explicit ScenarioParser(const std::string& path) : path_(path) {}

  [[noreturn]] void Fail(std::string_view key, std::string_view what) const {
    throw InputError(fmt::format("{}: {}: {}", path_, key, what));
  }
  [[noreturn]] void Expected(std::string_view key, std::string_view expected,
                             const ojson& got) const {
    Fail(key, fmt::format("expected {}, got {}", expected, Show(got)));
  }
  [[noreturn]] void Missing(std::string_view key, std::string_view expected) const {
    Fail(key, fmt::format("expected {}, but it is missing", expected));
  }

  static std::string Sub(std::string_view parent, std::string_view key) {
    return parent.empty() ? std::string(key) : fmt::format("{}.{}", parent, key);
  }

  // Rejects any key of `object` not in `allowed`.
  void OnlyKeys(const ojson& object, std::string_view where,
                std::initializer_list<std::string_view> allowed) const {
    OnlyKeys(object, where, std::span<const std::string_view>(allowed.begin(), allowed.size()));
  }
  void OnlyKeys(const ojson& object, std::string_view where,
                std::span<const std::string_view> allowed) const {
    for (auto it = object.begin(); it != object.end(); ++it) {
      bool known = false;
      for (std::string_view a : allowed) known = known || it.key() == a;
      if (!known)
        Fail(Sub(where, it.key()),
             fmt::format("unknown key; expected one of: {}", Join(allowed)));
    }
  }

  static const ojson* Member(const ojson& object, std::string_view key) {
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }

  std::string String(const ojson& v, std::string_view key, bool non_empty) const {
    if (!v.is_string() || (non_empty && v.get_ref<const std::string&>().empty()))
      Expected(key, non_empty ? "a non-empty string" : "a string", v);
    return v.get<std::string>();
  }

  ScenarioNumber Number(const ojson& v, std::string_view key) const {
    if (!v.is_number() || !std::isfinite(v.get<double>()))
      Expected(key, "a finite number", v);
    return ScenarioNumber{v.get<double>(), v.dump()};
  }

  // A JSON integer in [lo, hi]; `what` says so in the error.
  std::uint64_t Integer(const ojson& v, std::string_view key, std::uint64_t lo,
                        std::uint64_t hi, std::string_view what) const {
    const bool ok = v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0);
    const std::uint64_t x = ok ? v.get<std::uint64_t>() : 0;
    if (!ok || x < lo || x > hi) Expected(key, what, v);
    return x;
  }
  // An integer in one of the what-if ranges (ExpectedInteger says which).
  std::uint64_t Integer(const ojson& v, std::string_view key, const WhatIfRange& range) const {
    return Integer(v, key, range.min, range.max, ExpectedInteger(range));
  }

  ScenarioScalar Scalar(const ojson& v, std::string_view key) const {
    ScenarioScalar s;
    s.text = v.dump();
    if (v.is_null()) s.value = nullptr;
    else if (v.is_boolean()) s.value = v.get<bool>();
    else if (v.is_string()) s.value = v.get<std::string>();
    else if (v.is_number()) s.value = Number(v, key).value;
    else Expected(key, "a number, string, boolean or null", v);
    return s;
  }

  Scenario Parse(const ojson& doc) {
    if (!doc.is_object())
      throw InputError(fmt::format(
          "{}: expected a JSON object (a scenario), got {}", path_, Show(doc)));
    OnlyKeys(doc, "",
             {"lbsim_scenario", "name", "description", "trace", "strategies",
              "options", "expect"});
    Scenario s;
    s.path = path_;

    const ojson* version = Member(doc, "lbsim_scenario");
    constexpr std::string_view kVersionText = "1 (the scenario format version)";
    if (!version) Missing("lbsim_scenario", kVersionText);
    if (!version->is_number_integer() || version->get<std::int64_t>() != kScenarioVersion)
      Expected("lbsim_scenario", kVersionText, *version);

    const ojson* name = Member(doc, "name");
    if (!name) Missing("name", "a non-empty string");
    s.name = String(*name, "name", true);
    if (const ojson* d = Member(doc, "description")) s.description = String(*d, "description", false);

    std::vector<std::string> settings;
    if (const ojson* options = Member(doc, "options")) ParseOptions(*options, s, settings);
    s.settings = settings;
    ParseTrace(Member(doc, "trace"), s);
    ParseStrategies(Member(doc, "strategies"), settings, s);

    const ojson* expect = Member(doc, "expect");
    if (!expect) Missing("expect", "a non-empty array of expectations");
    if (!expect->is_array() || expect->empty())
      Expected("expect", "a non-empty array of expectations", *expect);
    for (std::size_t i = 0; i < expect->size(); ++i)
      s.expectations.push_back(ParseExpectation((*expect)[i], fmt::format("expect[{}]", i)));
    return s;
  }

 private:
  void ParseOptions(const ojson& options, Scenario& s, std::vector<std::string>& settings) {
    if (!options.is_object()) Expected("options", "an object", options);
    // The keyed what-if options (WhatIfKeys) among the rest.
    std::vector<std::string_view> keys = {"trace_format", "set", "proxy", "python"};
    for (const WhatIfKey& k : WhatIfKeys()) keys.push_back(k.key);
    keys.insert(keys.end(), {"speeds", "seeds", "engine", "slo", "predictor_coefficients"});
    OnlyKeys(options, "options", keys);
    ParseKeyed(options, s.sim);
    ParseWhatIf(options, s);
    ParseEngineOptions(options, s);
    // As the command line refuses --slots with --engine.
    if (Member(options, "slots") && Member(options, "engine"))
      Fail("options.engine", "options.slots and options.engine are two service models; choose one");
    ParseQueueOptions(options, s);
    if (const ojson* p = Member(options, "proxy")) {
      s.proxy.profile = FindProxyProfile(String(*p, "options.proxy", true));
      if (!s.proxy.profile)
        Expected("options.proxy", fmt::format("a Proxy profile: one of {}", ProxyProfileNames()),
                 *p);
    }
    if (const ojson* p = Member(options, "python")) {
      std::optional<PythonVersion> version = ParsePythonVersion(String(*p, "options.python", true));
      if (!version) Expected("options.python", "\"3.11\" or \"3.12\"", *p);
      s.proxy.python = *version;
    }
    if (const ojson* f = Member(options, "trace_format")) {
      std::string text = String(*f, "options.trace_format", true);
      if (text != "auto" && text != "document" && text != "lines")
        Expected("options.trace_format", "\"auto\", \"document\" or \"lines\"", *f);
      s.trace_encoding = ParseTraceEncoding(text);
    }
    if (const ojson* set = Member(options, "set")) {
      if (!set->is_object())
        Expected("options.set", "an object of \"STRATEGY.PARAMETER\": value", *set);
      const StrategyRegistry& registry = StrategyRegistry::Builtin();
      for (auto it = set->begin(); it != set->end(); ++it) {
        const std::string key = Sub("options.set", it.key());
        std::size_t dot = it.key().rfind('.');
        if (dot == std::string::npos || dot == 0)
          Fail(key, "expected a key STRATEGY.PARAMETER, e.g. \"least_load.qps_1m\"");
        std::string assignment =
            fmt::format("{}={}", it.key().substr(dot + 1), ParamText(it.value(), key));
        try {
          // Validated alone first, so that an error names this key.
          const StrategyInfo& info = registry.Require(it.key().substr(0, dot));
          ParamValues::Resolve(info.name, info.params,
                               std::vector{SplitAssignment(assignment, key)});
        } catch (const UsageError& e) {
          Fail(key, e.what());
        }
        settings.push_back(fmt::format("{}.{}", it.key().substr(0, dot), assignment));
      }
    }
  }

  // The what-if options set by key (WhatIfKeys: slots, the stale metrics,
  // the window, seed, cache_blocks, engine signals, the Proxy queue), as
  // the replay's flags and a sweep's sim.KEY take them.
  void ParseKeyed(const ojson& options, SimOptions& o) const {
    for (const WhatIfKey& k : WhatIfKeys()) {
      const ojson* v = Member(options, k.key);
      if (!v) continue;
      const std::string key = Sub("options", k.key);
      double x = 0.0;
      switch (k.kind) {
        case WhatIfKey::Kind::kSwitch:
          if (!v->is_boolean()) Expected(key, ExpectedValue(k), *v);
          x = v->get<bool>() ? 1.0 : 0.0;
          break;
        case WhatIfKey::Kind::kInteger:
          x = static_cast<double>(Integer(*v, key, *k.range));
          break;
        case WhatIfKey::Kind::kTime:
          x = Number(*v, key).value;
          if (!Accepts(k, x)) Expected(key, ExpectedValue(k), *v);
          break;
      }
      k.set(o, x);
    }
  }

  // The service speeds, the keyed options' dependencies and the seeds.
  void ParseWhatIf(const ojson& options, Scenario& s) const {
    SimOptions& o = s.sim;
    if (const ojson* v = Member(options, "speeds")) {
      if (!v->is_object() || v->empty())
        Expected("options.speeds", "an object of \"INSTANCE\": SPEED (numbers > 0)", *v);
      for (auto it = v->begin(); it != v->end(); ++it) {
        const std::string key = Sub("options.speeds", it.key());
        if (it.key().empty()) Fail(key, "expected an Instance id");
        const double speed = Number(it.value(), key).value;
        if (!(speed > 0.0)) Expected(key, "a number > 0 (a service speed)", it.value());
        o.speeds.emplace_back(it.key(), speed);
      }
      o.speeds_origin = "options.speeds";
      if (!Member(options, "slots") && !Member(options, "engine"))
        Fail("options.speeds",
             "needs options.slots or options.engine (speeds matter only to a service model)");
    }
    for (const char* name : {"stale_delay", "stale_jitter"})
      if (Member(options, name) && !o.stale())
        Fail(Sub("options", name), "needs options.stale_interval (stale metrics)");
    if (const ojson* v = Member(options, "seeds")) {
      if (Member(options, "seed")) Fail("options.seeds", "give either options.seed or options.seeds, not both");
      if (!v->is_array() || v->size() < 2)
        Expected("options.seeds",
                 fmt::format("an array of at least two seeds (integers from {} to {})",
                             kSeedRange.min, kSeedRange.max_text),
                 *v);
      if (v->size() > kMaxSeeds)
        Fail("options.seeds", fmt::format("at most {} seeds (one replay each), got {}", kMaxSeeds,
                                          v->size()));
      for (std::size_t i = 0; i < v->size(); ++i) {
        const std::string key = fmt::format("options.seeds[{}]", i);
        const std::uint64_t seed = Integer((*v)[i], key, kSeedRange);
        if (std::find(s.seeds.begin(), s.seeds.end(), seed) != s.seeds.end())
          Fail(key, fmt::format("seed {} is already in the list", seed));
        s.seeds.push_back(seed);
      }
      o.seed = s.seeds.front();
    }
  }

  // A parameter value as the text a command line would give.
  std::string ParamText(const ojson& v, std::string_view key) const {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number()) return Number(v, key).text;
    Expected(key, "a number or a string", v);
  }

  // options.proxy_queue (true: the Proxy queue model, --proxy-queue) and
  // the Proxy operator's settings, as the command line's options.
  void ParseQueueOptions(const ojson& options, Scenario& s) {
    ProxyQueueOptions& q = s.sim.proxy_queue;
    const bool settings = Member(options, "ready_concurrency") ||
                          Member(options, "prepare_concurrency") ||
                          Member(options, "predictor_coefficients");
    if (settings && !q.on)
      Fail("options.proxy_queue",
           "options.ready_concurrency, options.prepare_concurrency and "
           "options.predictor_coefficients configure the Proxy queue model: add "
           "\"proxy_queue\": true");
    if (const ojson* v = Member(options, "predictor_coefficients")) {
      if (!v->is_array() || v->size() != 4)
        Expected("options.predictor_coefficients",
                 "an array of four finite numbers [a, b, c, d]", *v);
      for (std::size_t k = 0; k < 4; ++k)
        q.coefficients[k] =
            Number((*v)[k], fmt::format("options.predictor_coefficients[{}]", k)).value;
    }
  }

  // options.engine: a built-in engine or a configuration file (relative to
  // the scenario file); options.signal_*: the engine signals' times.
  void ParseEngineOptions(const ojson& options, Scenario& s) {
    if (const ojson* e = Member(options, "engine")) {
      const std::string value = String(*e, "options.engine", true);
      if (const EngineConfig* builtin = FindBuiltinEngine(value)) {
        s.sim.engine.config = std::make_shared<const EngineConfig>(*builtin);
      } else {
        const fs::path resolved = fs::path(value).is_absolute()
                                      ? fs::path(value)
                                      : fs::path(path_).parent_path() / value;
        const std::string file = resolved.lexically_normal().string();
        if (!fs::exists(file))
          Fail("options.engine", fmt::format("expected a built-in engine ({}) or an engine "
                                             "configuration file, got \"{}\" (looked for {})",
                                             BuiltinEngineNames(), value, file));
        s.sim.engine.config = std::make_shared<const EngineConfig>(
            EngineConfigFromJson(ReadJsonFile(file, "engine configuration"), file));
        s.sim.engine.config_file = file;
      }
    }
    if (s.sim.engine.signal_interval > 0 && !s.sim.engine.on())
      Fail("options.signal_interval", "needs options.engine (engine signals come from engines)");
    if ((s.sim.engine.signal_delay > 0 || s.sim.engine.signal_jitter > 0) && !(s.sim.engine.signal_interval > 0))
      Fail("options.signal_delay", "needs options.signal_interval");
    // As --slo: "ttft=0.5,tpot=50ms".
    if (const ojson* v = Member(options, "slo")) {
      std::string error;
      const std::optional<SloOptions> slo = ParseSlo(String(*v, "options.slo", true), error);
      if (!slo) Fail("options.slo", error);
      if (!s.sim.engine.on()) Fail("options.slo", "needs options.engine (the bounds measure its requests)");
      s.sim.engine.slo = *slo;
    }
  }

  void ParseTrace(const ojson* trace, Scenario& s) {
    constexpr std::string_view kExpected =
        "a trace file path (relative to the scenario file) or an inline trace object";
    if (!trace) Missing("trace", kExpected);
    if (trace->is_object()) {
      if (s.trace_encoding != TraceEncoding::kAuto)
        Fail("options.trace_format", "applies only to a trace file, not to an inline trace");
      s.trace_path = fmt::format("{}: trace", path_);
      s.inline_trace = std::make_shared<const nlohmann::json>(*trace);
      return;
    }
    if (!trace->is_string() || trace->get_ref<const std::string&>().empty())
      Expected("trace", kExpected, *trace);
    const std::string& written = trace->get_ref<const std::string&>();
    fs::path resolved = fs::path(written).is_absolute()
                            ? fs::path(written)
                            : fs::path(path_).parent_path() / written;
    s.trace_path = resolved.lexically_normal().string();
    std::error_code ec;
    fs::file_status st = fs::status(s.trace_path, ec);
    if (!fs::exists(st))
      Fail("trace", fmt::format("trace file \"{}\" not found (looked for {})", written,
                                s.trace_path));
    if (fs::is_directory(st))
      Fail("trace", fmt::format("\"{}\" is a directory, expected a trace file", written));
    if (s.trace_encoding == TraceEncoding::kAuto && !EncodingFromName(s.trace_path))
      Fail("trace", fmt::format("cannot tell the encoding of \"{}\" from its name (expected "
                                ".json, .ndjson or .jsonl); set options.trace_format to "
                                "\"document\" or \"lines\"",
                                written));
  }

  void ParseStrategies(const ojson* list, const std::vector<std::string>& settings,
                       Scenario& s) {
    const StrategyRegistry& registry = StrategyRegistry::Builtin();
    constexpr std::string_view kExpected =
        "a non-empty array of strategies (\"NAME[:KEY=VALUE...]\" or "
        "{\"strategy\": NAME, \"params\": {...}})";
    const std::vector<RunWideParam> run_wide = RunWide(s.sim, s.sim.seed);
    if (!list) {
      s.strategy_specs.emplace_back(registry.Default().name);
      s.strategies.push_back(
          ParseStrategyRequest(registry, registry.Default().name, settings, run_wide));
    } else {
      if (!list->is_array() || list->empty()) Expected("strategies", kExpected, *list);
      for (std::size_t i = 0; i < list->size(); ++i) {
        const std::string key = fmt::format("strategies[{}]", i);
        std::string spec = StrategySpec((*list)[i], key);
        try {
          s.strategies.push_back(ParseStrategyRequest(registry, spec, settings, run_wide));
        } catch (const UsageError& e) {
          Fail(key, e.what());
        }
        s.strategy_specs.push_back(std::move(spec));
      }
    }
    // Each setting is "NAME.KEY=VALUE" with NAME already known to the registry.
    for (const std::string& setting : settings) {
      const std::string name_and_key = setting.substr(0, setting.find('='));
      const StrategyInfo* info = registry.Find(name_and_key.substr(0, name_and_key.rfind('.')));
      bool used = false;
      for (const StrategyRequest& r : s.strategies) used = used || r.info->name == info->name;
      if (!used)
        Fail(Sub("options.set", name_and_key),
             fmt::format("strategy {} is not among the strategies of this scenario", info->name));
    }
  }

  // "NAME[:KEY=VALUE...]" from either form of a strategies entry.
  std::string StrategySpec(const ojson& entry, const std::string& key) const {
    if (entry.is_string()) return String(entry, key, true);
    if (!entry.is_object())
      Expected(key, "a strategy \"NAME[:KEY=VALUE...]\" or {\"strategy\": NAME, \"params\": {...}}",
               entry);
    OnlyKeys(entry, key, {"strategy", "params"});
    const ojson* name = Member(entry, "strategy");
    if (!name) Missing(Sub(key, "strategy"), "a strategy name or alias");
    std::string spec = String(*name, Sub(key, "strategy"), true);
    if (const ojson* params = Member(entry, "params")) {
      if (!params->is_object()) Expected(Sub(key, "params"), "an object", *params);
      for (auto it = params->begin(); it != params->end(); ++it) {
        const std::string param_key = Sub(Sub(key, "params"), it.key());
        if (it.key().empty() || it.key().find_first_of(":=") != std::string::npos)
          Fail(param_key, "expected a parameter name");
        spec += fmt::format(":{}={}", it.key(), ParamText(it.value(), param_key));
      }
    }
    return spec;
  }

  Expectation ParseExpectation(const ojson& e, const std::string& key) const {
    if (!e.is_object()) Expected(key, "an object with \"path\" or \"property\"", e);
    const ojson* path = Member(e, "path");
    const ojson* property = Member(e, "property");
    if (path && property) Fail(key, "give either \"path\" or \"property\", not both");
    if (!path && !property)
      Fail(key, "expected \"path\" (a report value to compare) or \"property\" (a "
                "whole-run property)");
    Expectation x;
    x.key = key;
    if (const ojson* why = Member(e, "why")) x.why = String(*why, Sub(key, "why"), false);
    if (path) ParseValueCheck(e, *path, x);
    else ParseProperty(e, *property, x);
    return x;
  }

  void ParseValueCheck(const ojson& e, const ojson& path, Expectation& x) const {
    const std::string& key = x.key;
    OnlyKeys(e, key, {"path", "eq", "min", "max", "above", "below", "approx", "tolerance", "why"});
    x.kind = ExpectationKind::kValue;
    x.path = String(path, Sub(key, "path"), true);
    if (const ojson* v = Member(e, "eq")) x.eq = Scalar(*v, Sub(key, "eq"));
    if (const ojson* v = Member(e, "min")) x.min = Number(*v, Sub(key, "min"));
    if (const ojson* v = Member(e, "max")) x.max = Number(*v, Sub(key, "max"));
    if (const ojson* v = Member(e, "above")) x.above = Number(*v, Sub(key, "above"));
    if (const ojson* v = Member(e, "below")) x.below = Number(*v, Sub(key, "below"));
    if (const ojson* v = Member(e, "approx")) x.approx = Number(*v, Sub(key, "approx"));
    if (const ojson* v = Member(e, "tolerance")) x.tolerance = Number(*v, Sub(key, "tolerance"));
    const bool bounded = x.min || x.max || x.above || x.below;
    if (!x.eq && !bounded && !x.approx)
      Fail(key, "expected a comparison: eq, min, max, above, below, or approx with tolerance");
    if (x.eq && (bounded || x.approx))
      Fail(Sub(key, "eq"), "cannot be combined with min, max, above, below or approx");
    if (x.approx && bounded)
      Fail(Sub(key, "approx"), "cannot be combined with min, max, above or below");
    if (x.min && x.above) Fail(Sub(key, "above"), "cannot be combined with min (one lower bound)");
    if (x.max && x.below) Fail(Sub(key, "below"), "cannot be combined with max (one upper bound)");
    if (x.approx && !x.tolerance)
      Missing(Sub(key, "tolerance"), "a number >= 0 (approx needs a tolerance)");
    if (x.tolerance && !x.approx) Fail(Sub(key, "tolerance"), "applies only to approx");
    if (x.tolerance && x.tolerance->value < 0)
      Fail(Sub(key, "tolerance"), fmt::format("expected a number >= 0, got {}", x.tolerance->text));
    if (x.min && x.max && x.min->value > x.max->value)
      Fail(Sub(key, "max"), fmt::format("expected a number >= min ({}), got {}", x.min->text,
                                        x.max->text));
    const std::optional<ScenarioNumber>& low = x.min ? x.min : x.above;
    const std::optional<ScenarioNumber>& high = x.max ? x.max : x.below;
    if (low && high && (x.above || x.below) && !(low->value < high->value))
      Fail(Sub(key, x.below ? "below" : "max"),
           fmt::format("expected a number > {} ({}): no value lies between them, got {}",
                       x.min ? "min" : "above", low->text, high->text));
  }

  void ParseProperty(const ojson& e, const ojson& property, Expectation& x) const {
    const std::string& key = x.key;
    const std::string name = String(property, Sub(key, "property"), true);
    auto strategy = [&] {
      const ojson* s = Member(e, "strategy");
      if (!s) Missing(Sub(key, "strategy"), "a strategy label from the report");
      x.strategies.push_back(String(*s, Sub(key, "strategy"), true));
    };
    if (name == "never_chose_dead") {
      OnlyKeys(e, key, {"property", "strategy", "why"});
      x.kind = ExpectationKind::kNeverChoseDead;
      strategy();
    } else if (name == "every_alive_chosen") {
      OnlyKeys(e, key, {"property", "strategy", "min", "why"});
      x.kind = ExpectationKind::kEveryAliveChosen;
      strategy();
      const ojson* min = Member(e, "min");
      constexpr std::string_view kTimes = "an integer >= 1 (times each Instance was chosen)";
      if (!min) Missing(Sub(key, "min"), kTimes);
      if (!min->is_number_integer() || min->get<std::int64_t>() < 1)
        Expected(Sub(key, "min"), kTimes, *min);
      x.min_times = min->get<std::uint64_t>();
    } else if (name == "same_decisions") {
      OnlyKeys(e, key, {"property", "strategies", "why"});
      x.kind = ExpectationKind::kSameDecisions;
      const ojson* list = Member(e, "strategies");
      constexpr std::string_view kTwo = "two different strategy labels from the report";
      if (!list) Missing(Sub(key, "strategies"), kTwo);
      if (!list->is_array() || list->size() != 2) Expected(Sub(key, "strategies"), kTwo, *list);
      for (std::size_t i = 0; i < 2; ++i)
        x.strategies.push_back(
            String((*list)[i], fmt::format("{}.strategies[{}]", key, i), true));
      if (x.strategies[0] == x.strategies[1]) Expected(Sub(key, "strategies"), kTwo, *list);
    } else if (name == "choices") {
      OnlyKeys(e, key, {"property", "strategy", "eq", "why"});
      x.kind = ExpectationKind::kChoices;
      strategy();
      const ojson* list = Member(e, "eq");
      constexpr std::string_view kList =
          "an array with the Instance chosen at each arrival (null: no_instances)";
      if (!list) Missing(Sub(key, "eq"), kList);
      if (!list->is_array()) Expected(Sub(key, "eq"), kList, *list);
      for (std::size_t i = 0; i < list->size(); ++i) {
        const ojson& c = (*list)[i];
        if (c.is_null()) x.choices.push_back(std::nullopt);
        else x.choices.push_back(String(c, fmt::format("{}.eq[{}]", key, i), true));
      }
    } else if (name == "warning") {
      OnlyKeys(e, key, {"property", "strategy", "name", "present", "why"});
      x.kind = ExpectationKind::kWarning;
      if (Member(e, "strategy")) strategy();
      const ojson* warning = Member(e, "name");
      const std::string expected =
          fmt::format("a warning name: any, {}", WarningNameList());
      if (!warning) Missing(Sub(key, "name"), expected);
      x.warning = String(*warning, Sub(key, "name"), true);
      if (x.warning != "any" && !IsWarningName(x.warning)) Expected(Sub(key, "name"), expected, *warning);
      if (const ojson* present = Member(e, "present")) {
        if (!present->is_boolean()) Expected(Sub(key, "present"), "true or false", *present);
        x.present = present->get<bool>();
      }
    } else {
      Expected(Sub(key, "property"),
               "never_chose_dead, every_alive_chosen, same_decisions, choices or warning",
               property);
    }
  }

  std::string path_;
};

}  // namespace

std::vector<std::uint64_t> Scenario::Seeds() const {
  return seeds.empty() ? std::vector<std::uint64_t>{sim.seed} : seeds;
}

std::vector<StrategyRequest> Scenario::StrategiesFor(std::uint64_t seed) const {
  if (seed == sim.seed) return strategies;
  std::vector<StrategyRequest> out;
  for (const std::string& spec : strategy_specs)
    out.push_back(ParseStrategyRequest(StrategyRegistry::Builtin(), spec, settings,
                                       RunWide(sim, seed)));
  return out;
}

SimOptions Scenario::OptionsFor(std::uint64_t seed) const {
  SimOptions o = sim;
  o.seed = seed;
  o.proxy = proxy;
  return o;
}

TraceCounts Scenario::ReadScenarioTrace(InstanceTable& table, TraceVisitor& visitor) const {
  if (inline_trace) return ReadTraceValue(trace_path, *inline_trace, table, visitor);
  try {
    return ReadTrace(trace_path, trace_encoding, table, visitor);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: trace: {}", path, e.what()));
  } catch (const UsageError& e) {
    throw InputError(fmt::format("{}: trace: {}", path, e.what()));
  }
}

Scenario ParseScenario(const nlohmann::ordered_json& document, const std::string& path) {
  return ScenarioParser(path).Parse(document);
}

Scenario LoadScenario(const std::string& path) {
  return ParseScenario(ReadJsonFile(path, "scenario"), path);
}

}  // namespace lbsim
