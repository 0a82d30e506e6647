// lbsim gen: arrival processes, durations, schedules, reports, determinism,
// streaming.

#include <doctest/doctest.h>

#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "traces/gen/arrival_stream.h"
#include "traces/gen/gen_flags.h"
#include "traces/gen/gen_spec.h"
#include "traces/gen/instance_schedule.h"
#include "traces/gen/trace_generator.h"
#include "base/errors.h"

namespace lbsim {
namespace {

// The trace `spec` generates, as text.
std::string Generate(const GenSpec& spec, TraceEncoding encoding = TraceEncoding::kLines) {
  char* data = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&data, &size);
  GenerateTrace(spec, out, encoding);
  std::fclose(out);
  std::string text(data, size);
  std::free(data);
  return text;
}

std::vector<double> ArrivalTimes(const GenSpec& spec) {
  std::vector<double> times;
  for (ArrivalStream a(spec); !a.done(); a.Pop()) times.push_back(a.time());
  return times;
}

std::size_t CountLines(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

TEST_CASE("gen: the same spec and seed give the same bytes, another seed other bytes") {
  GenSpec spec;
  spec.arrivals = 2000;
  spec.durations = {DurationKind::kLognormal, 2.0, 0.8};
  spec.reporting.interval = 5;
  spec.reporting.qps_1m = true;
  spec.joins.push_back(Join{30.0, "late", 2.0, std::nullopt, true});
  const std::string first = Generate(spec);
  CHECK(first == Generate(spec));
  spec.seed = 2;
  CHECK(first != Generate(spec));
}

TEST_CASE("gen: a document holds the header's keys and the same events, in order") {
  GenSpec spec;
  spec.instances = 3;
  spec.arrivals = 40;
  spec.rate = 20;
  const std::string lines = Generate(spec);
  const std::string document = Generate(spec, TraceEncoding::kDocument);
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(document);
  std::vector<nlohmann::ordered_json> parsed;
  for (std::size_t at = 0; at < lines.size();) {
    const std::size_t end = lines.find('\n', at);
    parsed.push_back(nlohmann::ordered_json::parse(lines.substr(at, end - at)));
    at = end + 1;
  }
  REQUIRE(parsed.size() == 41);  // the header, 40 arrivals
  nlohmann::ordered_json header = doc;
  header.erase("events");
  CHECK(header == parsed[0]);
  REQUIRE(doc["events"].size() == parsed.size() - 1);
  for (std::size_t k = 1; k < parsed.size(); ++k) CHECK(doc["events"][k - 1] == parsed[k]);
  // One event a line, the document's brackets on lines of their own.
  CHECK(CountLines(document, "\n") == parsed.size() + 1);
  CHECK(document.ends_with("\n]}\n"));
}

TEST_CASE("gen: changing the durations leaves the arrival times alone (separate streams)") {
  GenSpec spec;
  spec.arrivals = 500;
  const std::vector<double> before = ArrivalTimes(spec);
  spec.durations = {DurationKind::kExponential, 3.0, 0.0};
  CHECK(ArrivalTimes(spec) == before);
}

TEST_CASE("gen: Poisson arrivals stop at the count or before until, in order") {
  GenSpec spec;
  spec.rate = 50;
  spec.arrivals = 1000;
  std::vector<double> t = ArrivalTimes(spec);
  REQUIRE(t.size() == 1000);
  for (std::size_t i = 1; i < t.size(); ++i) CHECK(t[i - 1] <= t[i]);
  // 1000 gaps of mean 1/50: the last arrival near 20 (sd about 0.63).
  CHECK(t.back() > 17.0);
  CHECK(t.back() < 23.0);

  spec.arrivals = 0;
  spec.until = 10.0;
  t = ArrivalTimes(spec);
  CHECK(t.back() < 10.0);
  CHECK(t.size() > 400);  // mean 500, sd about 22
  CHECK(t.size() < 600);
}

TEST_CASE("gen: a burst spreads its arrivals evenly over its span") {
  GenSpec spec;
  spec.rate = 0;
  spec.until = 100.0;
  spec.bursts.push_back(Burst{10.0, 4, 2.0});
  spec.bursts.push_back(Burst{50.0, 3, 0.0});
  CHECK(ArrivalTimes(spec) == std::vector<double>{10.0, 10.5, 11.0, 11.5, 50.0, 50.0, 50.0});
}

TEST_CASE("gen: an on/off curve with off_rate 0 has no arrivals while off") {
  GenSpec spec;
  spec.rate = 20;
  spec.until = 200.0;
  spec.on_off = OnOffCurve{10.0, 30.0, 0.0};
  const std::vector<double> t = ArrivalTimes(spec);
  for (double x : t) CHECK(std::fmod(x, 40.0) < 10.0);
  CHECK(t.size() > 900);  // 5 on-periods x 10 x 20 = 1000 expected
  CHECK(t.size() < 1100);
}

TEST_CASE("gen: a diurnal curve puts more arrivals near the peak than near the trough") {
  GenSpec spec;
  spec.rate = 10;
  spec.until = 1000.0;
  spec.diurnal = DiurnalCurve{1000.0, 0.9, 250.0};  // peak at 250, trough at 750
  std::size_t peak = 0, trough = 0;
  for (double x : ArrivalTimes(spec)) {
    if (x >= 150 && x < 350) ++peak;
    if (x >= 650 && x < 850) ++trough;
  }
  // Expected about 3700 and 300.
  CHECK(peak > 5 * trough);
}

TEST_CASE("gen: durations: fixed exactly, exponential and lognormal with the asked mean") {
  GenSpec spec;
  spec.durations = {DurationKind::kFixed, 0.25, 0.0};
  DurationSampler fixed(spec);
  CHECK(fixed.Next() == 0.25);
  for (DurationSpec d : {DurationSpec{DurationKind::kExponential, 2.0, 0.0},
                         DurationSpec{DurationKind::kLognormal, 2.0, 0.5}}) {
    spec.durations = d;
    DurationSampler s(spec);
    double sum = 0;
    for (int i = 0; i < 100000; ++i) sum += s.Next();
    CHECK(sum / 100000 == doctest::Approx(2.0).epsilon(0.02));
  }
}

TEST_CASE("gen: instance changes come in time order, joins first at equal times") {
  GenSpec spec;
  spec.instances = 2;
  spec.until = 100.0;
  spec.events.push_back(ScheduledEvent{20.0, InstanceEventKind::kDown, "new"});
  spec.joins.push_back(Join{20.0, "new", std::nullopt, std::nullopt, true});
  spec.flaps.push_back(Flap{"inst-1", 5.0, 10.0, 2.0, 30.0});
  const std::vector<InstanceChange> s = BuildInstanceSchedule(spec, "spec");
  std::vector<std::string> seen;
  for (const InstanceChange& c : s)
    seen.push_back(fmt::format("{}:{}:{}", c.at, c.instance, static_cast<int>(c.kind)));
  CHECK(seen == std::vector<std::string>{"5:inst-1:1", "7:inst-1:0", "15:inst-1:1",
                                         "17:inst-1:0", "20:new:0", "20:new:1", "25:inst-1:1",
                                         "27:inst-1:0"});
}

TEST_CASE("gen: a down of an Instance not registered at that time is refused") {
  GenSpec spec;
  spec.arrivals = 1;
  spec.events.push_back(ScheduledEvent{5.0, InstanceEventKind::kDown, "late"});
  spec.joins.push_back(Join{10.0, "late", std::nullopt, std::nullopt, true});
  CHECK_THROWS_WITH_AS(ValidateGenSpec(spec, "s.json"),
                       "s.json: field \"events[0].instance\": down at t=5: \"late\" is not "
                       "registered then",
                       InputError);
  spec.events.clear();
  spec.joins.push_back(Join{11.0, "inst-1", std::nullopt, std::nullopt, true});
  CHECK_THROWS_WITH_AS(ValidateGenSpec(spec, "s.json"),
                       "s.json: field \"joins[1].instance\": expected a new Instance id, got "
                       "\"inst-1\" (already an Instance)",
                       InputError);
}

TEST_CASE("gen: ranges are checked") {
  GenSpec spec;
  CHECK_THROWS_WITH_AS(ValidateGenSpec(spec, "cl"),
                       "cl: field \"arrivals\": expected a \"count\" or an \"until\" (the trace "
                       "must end)",
                       InputError);
  spec.arrivals = 10;
  spec.speeds = {1.0, 2.0};
  CHECK_THROWS_WITH_AS(ValidateGenSpec(spec, "cl"),
                       "cl: field \"instances.speeds\": expected one value per Instance (4), got 2",
                       InputError);
  spec.speeds.clear();
  spec.durations = {DurationKind::kExponential, 0.0, 0.0};
  CHECK_THROWS_WITH_AS(ValidateGenSpec(spec, "cl"),
                       "cl: field \"durations.mean\": expected a number > 0, got 0", InputError);
}

TEST_CASE("gen: flags parse into the spec, bad values name the flag") {
  GenSpec spec;
  ApplyGenFlag(spec, "--durations", "lognormal:2:0.5");
  CHECK(spec.durations.kind == DurationKind::kLognormal);
  CHECK(spec.durations.sigma == 0.5);
  ApplyGenFlag(spec, "--flap", "inst-2@10:20:5");
  REQUIRE(spec.flaps.size() == 1);
  CHECK(spec.flaps[0].instance == "inst-2");
  CHECK(spec.flaps[0].down_for == 5.0);
  ApplyGenFlag(spec, "--join", "a@b@30:2");  // the id may hold '@'
  CHECK(spec.joins[0].instance == "a@b");
  CHECK(spec.joins[0].speed == 2.0);
  ApplyGenFlag(spec, "--report-fields", "none");
  CHECK_FALSE(spec.reporting.inflight);
  ApplyGenFlag(spec, "--report-fields", "qps_1m,inflight");
  CHECK(spec.reporting.inflight);
  CHECK(spec.reporting.qps_1m);
  CHECK_THROWS_WITH_AS(ApplyGenFlag(spec, "--report-fields", "both"),
                       "--report-fields both: expected inflight, qps_1m, inflight,qps_1m or none",
                       UsageError);
  CHECK_THROWS_WITH_AS(ApplyGenFlag(spec, "--durations", "gamma:2"),
                       "--durations gamma:2: expected fixed:V, exponential:MEAN or "
                       "lognormal:MEAN:SIGMA, each value a number",
                       UsageError);
  CHECK_THROWS_WITH_AS(ApplyGenFlag(spec, "--burst", "10"),
                       "--burst 10: expected AT:COUNT or AT:COUNT:OVER (AT and OVER numbers, "
                       "COUNT an integer >= 0)",
                       UsageError);
  CHECK_THROWS_WITH_AS(ApplyGenFlag(spec, "--arrivals", "1.5"),
                       "--arrivals 1.5: expected a whole number >= 1 (or leave it out and give --until)",
                       UsageError);
}

TEST_CASE("gen: load reports carry the reference round-robin Proxy's counts, delayed") {
  GenSpec spec;
  spec.proxy = FindProxyProfile("cacheroute@df8382d");  // inflight from heartbeats
  spec.instances = 2;
  spec.rate = 0;
  spec.until = 10.0;
  // Arrivals at 0, 1, 2, 3 (a burst), each 2.5 long, round-robin a, b, a, b.
  spec.bursts.push_back(Burst{0.0, 4, 4.0});
  spec.durations = {DurationKind::kFixed, 2.5, 0.0};
  spec.reporting.interval = 2.0;
  spec.reporting.delay = 0.5;
  const std::string trace = Generate(spec);
  // Snapshot at 2 (before the arrival at 2): a holds r1 (0-2.5), b r2 (1-3.5).
  CHECK(trace.find("{\"t\":2.5,\"type\":\"load\",\"instance\":\"inst-1\",\"inflight\":1}\n"
                   "{\"t\":2.5,\"type\":\"load\",\"instance\":\"inst-2\",\"inflight\":1}\n"
                   "{\"t\":3,\"type\":\"arrival\",\"duration\":2.5}\n") != std::string::npos);
  CHECK(CountLines(trace, "\"type\":\"load\"") == 2);  // the trace ends at its last arrival
}

TEST_CASE("gen: silent Instances have no load in the header and never report") {
  GenSpec spec;
  spec.proxy = FindProxyProfile("cacheroute@df8382d");  // inflight from heartbeats
  spec.instances = 10;
  spec.arrivals = 200;
  spec.reporting.interval = 1.0;
  spec.reporting.silent_fraction = 0.3;
  const std::string trace = Generate(spec);
  const std::string header = trace.substr(0, trace.find('\n'));
  CHECK(CountLines(header, "\"inflight\":0") == 7);
  for (const std::string& id : InitialInstanceIds(spec)) {
    const bool silent = header.find("{\"id\":\"" + id + "\"}") != std::string::npos;
    CHECK((CountLines(trace, "\"instance\":\"" + id + "\"") == 0) == silent);
  }
}

TEST_CASE("gen: streams, memory does not grow with the number of arrivals") {
  GenSpec spec;
  spec.instances = 64;
  spec.rate = 1000;
  spec.arrivals = 3'000'000;
  spec.durations = {DurationKind::kExponential, 0.05, 0.0};
  spec.reporting.interval = 1.0;
  spec.reporting.qps_1m = true;
  std::FILE* sink = std::fopen("/dev/null", "w");
  REQUIRE(sink);
  rusage before{}, after{};
  getrusage(RUSAGE_SELF, &before);
  const GenCounts counts = GenerateTrace(spec, sink);
  getrusage(RUSAGE_SELF, &after);
  std::fclose(sink);
  CHECK(counts.arrivals == 3'000'000);
#ifndef __SANITIZE_ADDRESS__
  // Holding the arrivals would take at least 16 bytes each (48 MB); the qps
  // window holds 60 s x 1000/s x 8 bytes = 0.5 MB. (Not under ASan: its
  // quarantine keeps freed blocks resident by design, so RSS grows with
  // every short-lived allocation; the Release suite checks this.)
  CHECK(after.ru_maxrss - before.ru_maxrss < 16 * 1024);  // KiB
#endif
}

TEST_CASE("gen: for a Proxy that counts its own requests, no inflight reports by default") {
  GenSpec spec;
  spec.instances = 3;
  spec.arrivals = 50;
  spec.reporting.interval = 1.0;
  spec.reporting.silent_fraction = 0.4;
  // No profile named: the trace replays as latest, which counts requests.
  std::string trace = Generate(spec);
  std::string header = trace.substr(0, trace.find('\n'));
  CHECK(header.find("\"proxy\"") == std::string::npos);
  // Its counter starts at 0 for every Instance, silent or not.
  CHECK(CountLines(header, "\"inflight\":0") == 3);
  CHECK(CountLines(trace, "\"type\":\"load\"") == 0);

  // Named, the profile goes into the header; qps_1m, asked for, is reported.
  spec.proxy = FindProxyProfile("cacheroute@2f1019a");
  spec.reporting.qps_1m = true;
  spec.reporting.inflight = false;
  spec.reporting.fields_given = true;
  trace = Generate(spec);
  header = trace.substr(0, trace.find('\n'));
  CHECK(header.starts_with("{\"lbsim_trace\":1,\"proxy\":\"cacheroute@2f1019a\","));
  CHECK(CountLines(trace, "\"type\":\"load\"") > 0);
  CHECK(CountLines(trace, "\"inflight\":") == 3);  // the header's only

  // Asked for explicitly, inflight is reported whatever the Proxy: real
  // heartbeats carry it, and a replay counts what its Proxy ignores.
  spec.reporting.inflight = true;
  trace = Generate(spec);
  CHECK(CountLines(trace, "\"inflight\":") > 3);
}

}  // namespace
}  // namespace lbsim
