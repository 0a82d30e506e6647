// The decision log (trace-format.md "Decision log"): one JSON line per
// decision with the keys strategy, seq, t, request, instance, reason,
// candidates in that order; t echoed as written (integer or float);
// strings escaped as JSON.

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>
#include <doctest/doctest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "replay_fixture.h"
#include "stream_contents.h"
#include "traces/decision_log.h"
#include "base/json/json_write.h"

namespace lbsim {
namespace {

using testing::ReplayText;
using Strings = std::vector<std::string>;

// What DecisionLogWriter writes for `record`.
std::string Written(const DecisionRecord& record) {
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  DecisionLogWriter(f).Write(record);
  std::string out = testing::StreamContents(f);
  std::fclose(f);
  return out;
}

std::string TimeText(const TraceTime& t) {
  std::string out;
  AppendTraceTime(out, t);
  return out;
}

std::string JsonString(std::string_view s) {
  std::string out;
  AppendJsonString(out, s);
  return out;
}

TEST_CASE("decision log: one line, the spec's keys in the spec's order") {
  const TraceTime t{0.25, false, 0};
  const std::string instance = "inst-a";
  DecisionRecord r{"least_load", 1, &t, "r1", &instance, "least", 3};
  CHECK(Written(r) ==
        "{\"strategy\":\"least_load\",\"seq\":1,\"t\":0.25,\"request\":\"r1\","
        "\"instance\":\"inst-a\",\"reason\":\"least\",\"candidates\":3}\n");
}

TEST_CASE("decision log: no Instance is written as null") {
  const TraceTime t{7.0, true, 7};
  DecisionRecord r{"round_robin", 12, &t, "req-9", nullptr, "no_instances", 0};
  CHECK(Written(r) ==
        "{\"strategy\":\"round_robin\",\"seq\":12,\"t\":7,\"request\":\"req-9\","
        "\"instance\":null,\"reason\":\"no_instances\",\"candidates\":0}\n");
}

TEST_CASE("decision log: t is an integer literal when the trace wrote one, else a float") {
  CHECK(TimeText({2.0, true, 2}) == "2");
  CHECK(TimeText({2.0, false, 0}) == "2.0");
  CHECK(TimeText({0.0, true, 0}) == "0");
  CHECK(TimeText({0.0, false, 0}) == "0.0");
  CHECK(TimeText({0.25, false, 0}) == "0.25");
  CHECK(TimeText({0.1, false, 0}) == "0.1");
  CHECK(TimeText({1e-7, false, 0}) == "1e-07");
  CHECK(TimeText({1.5e300, false, 0}) == "1.5e+300");
  // Integers beyond 2^53 echo exactly as written, though ordered as doubles.
  CHECK(TimeText({1.8446744073709552e19, true, 18446744073709551615u}) ==
        "18446744073709551615");
}

TEST_CASE("decision log: strings are escaped as JSON") {
  CHECK(JsonString("plain") == "\"plain\"");
  CHECK(JsonString("q\"uote") == "\"q\\\"uote\"");
  CHECK(JsonString("back\\slash") == "\"back\\\\slash\"");
  CHECK(JsonString("\b\f\n\r\t") == "\"\\b\\f\\n\\r\\t\"");
  CHECK(JsonString(std::string_view("\x01\x1f\0", 3)) == "\"\\u0001\\u001f\\u0000\"");
  CHECK(JsonString("a/b \x7f") == "\"a/b \x7f\"");
  CHECK(JsonString("caf\xc3\xa9 \xe2\x9c\x93") == "\"caf\xc3\xa9 \xe2\x9c\x93\"");
  // Whatever goes in comes back out of a JSON parser unchanged.
  const std::string nasty = "id \"x\"\\\n\t\x02 \xc3\xa9";
  CHECK(nlohmann::json::parse(JsonString(nasty)).get<std::string>() == nasty);
}

TEST_CASE("decision log: strings of any length, whatever byte at whatever place, escape as nlohmann's dump") {
  // The escaping tests eight bytes at a time, the last word overlapping
  // the one before: every special byte at every place of strings shorter
  // and longer than a word, with UTF-8 after them.
  const std::string base = "0123456789abcdef-ghijklmnopq-\xc3\xa9\xe2\x9c\x93";
  const std::size_t ascii = 29;  // then two characters of two and three bytes
  for (std::size_t size = 1; size <= base.size(); ++size) {
    if (size > ascii && size != ascii + 2 && size != base.size()) continue;  // whole characters
    for (const char special : {'"', '\\', '\n', '\x01', '\x1f', '\x7f', '\x20', 'z'}) {
      for (std::size_t at = 0; at < std::min(size, ascii); ++at) {
        std::string s = base.substr(0, size);
        s[at] = special;
        INFO(size, " ", at);
        CHECK(JsonString(s) == nlohmann::json(s).dump());
      }
    }
  }
}

TEST_CASE("decision log: a string is read and written within its own bytes") {
  // Each string in an allocation of exactly its size: under ASan, a read
  // outside it fails.
  for (std::size_t size = 0; size <= 40; ++size) {
    for (const char fill : {'a', '"'}) {
      auto bytes = std::make_unique<char[]>(size);
      std::fill_n(bytes.get(), size, 'x');
      if (size > 0) bytes[size - 1] = fill;
      const std::string_view s(bytes.get(), size);
      std::string out(3, '#');
      AppendJsonString(out, s);
      INFO(size, " ", fill);
      CHECK(out == "###" + nlohmann::json(std::string(s)).dump());
    }
  }
}

TEST_CASE("decision log: a line longer than the writer's stack buffer is written whole") {
  // Ids that need escaping everywhere: the line's bound passes 1 KiB.
  std::string request(600, '\x01');
  request += "end\"";
  const std::string instance(300, '"');
  const TraceTime t{1.5, false, 0};
  const DecisionRecord r{"least_load", 7, &t, request, &instance, "tie", 2};
  const std::string line = Written(r);
  REQUIRE(line.size() > 4000);
  const nlohmann::json parsed = nlohmann::json::parse(line);
  CHECK(parsed["request"] == request);
  CHECK(parsed["instance"] == instance);
  CHECK(line == "{\"strategy\":\"least_load\",\"seq\":7,\"t\":1.5,\"request\":" +
                    nlohmann::json(request).dump() + ",\"instance\":" + nlohmann::json(instance).dump() +
                    ",\"reason\":\"tie\",\"candidates\":2}\n");
}

TEST_CASE("decision log: a float t is written as nlohmann's dump writes it") {
  std::mt19937_64 random(5);
  for (int i = 0; i < 20000; ++i) {
    double x;
    switch (i % 4) {
      case 0: x = static_cast<double>(random() % 100000000) / 1e6; break;  // microseconds
      case 1: x = std::bit_cast<double>(random() >> 2); break;  // any positive double
      case 2: x = static_cast<double>(random() % 1000) * std::pow(10.0, static_cast<int>(random() % 40) - 20); break;
      default: x = static_cast<double>(random()); break;
    }
    if (!std::isfinite(x)) continue;
    INFO(x);
    CHECK(TimeText({x, false, 0}) == nlohmann::json(x).dump());
  }
}

TEST_CASE("decision log: a replay echoes each arrival's t as the trace wrote it") {
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "a"}]}
{"t": 0, "type": "arrival"}
{"t": 2, "type": "arrival"}
{"t": 2.0, "type": "arrival"}
{"t": 2.50, "type": "arrival"}
{"t": 1e2, "type": "arrival"}
{"t": 100, "type": "arrival"}
{"t": 100.125, "type": "arrival"}
)",
                        {"rr"});
  Strings times;
  for (const std::string& line : run.log) {
    std::size_t at = line.find("\"t\":") + 4;
    times.push_back(line.substr(at, line.find(',', at) - at));
  }
  CHECK(times == Strings{"0", "2", "2.0", "2.5", "100.0", "100", "100.125"});
}

TEST_CASE("decision log: a replay's lines, with escaped request ids and the candidate count") {
  auto run = ReplayText(R"({"lbsim_trace": 1, "instances": [{"id": "inst \"a\""}, {"id": "b"}]}
{"t": 0.5, "type": "arrival", "request": "say \"hi\"\\\n"}
{"t": 1, "type": "down", "instance": "b"}
{"t": 1, "type": "arrival", "request": ""}
)",
                        {"rr", "ll"});
  CHECK(run.log == Strings{
      R"({"strategy":"round_robin","seq":1,"t":0.5,"request":"say \"hi\"\\\n","instance":"inst \"a\"","reason":"round_robin","candidates":2})",
      R"({"strategy":"round_robin","seq":2,"t":1,"request":"","instance":"inst \"a\"","reason":"round_robin","candidates":1})",
      R"({"strategy":"least_load","seq":1,"t":0.5,"request":"say \"hi\"\\\n","instance":"inst \"a\"","reason":"fallback","candidates":2})",
      R"({"strategy":"least_load","seq":2,"t":1,"request":"","instance":"inst \"a\"","reason":"fallback","candidates":1})",
  });
}

}  // namespace
}  // namespace lbsim
