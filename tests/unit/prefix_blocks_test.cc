// prefix_blocks: decoding an arrival's optional block ids, and the
// simulated Instance caches that measure every strategy's prefix hit rate.

#include <doctest/doctest.h>

#include <string>

#include "sim/replay/replay.h"
#include "sim/report/report.h"
#include "traces/event_decoder.h"
#include "base/json/json_scanner.h"
#include "traces/trace_reader.h"
#include "replay_fixture.h"

namespace lbsim {
namespace {

// Decodes one event the way both trace readers do: scan, then decode.
void DecodeInto(const std::string& text, InstanceTable& table, EventDecoder& decoder,
                TraceEvent& event) {
  JsonScanner scanner;
  JsonView value;
  REQUIRE(scanner.ScanText(text, value) == JsonScanner::Status::kOk);
  decoder.Decode(value, scanner.members(), table, event);
}

TraceEvent Decode(const std::string& text) {
  InstanceTable table;
  EventDecoder decoder;
  TraceEvent event;
  DecodeInto(text, table, decoder, event);
  return event;
}

std::string DecodeError(const std::string& text) {
  try {
    Decode(text);
  } catch (const FieldError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("prefix_blocks: an array of integers >= 0, kept in order") {
  TraceEvent e = Decode(R"({"t":0,"type":"arrival","prefix_blocks":[3,1,2,3,0,18446744073709551615]})");
  CHECK(e.hint.prefix_blocks ==
        std::vector<std::uint64_t>{3, 1, 2, 3, 0, 18446744073709551615ull});
  CHECK(Decode(R"({"t":0,"type":"arrival"})").hint.prefix_blocks.empty());
  CHECK(Decode(R"({"t":0,"type":"arrival","prefix_blocks":[]})").hint.prefix_blocks.empty());
}

TEST_CASE("prefix_blocks: a reused event forgets the previous arrival's blocks") {
  InstanceTable table;
  EventDecoder decoder;
  TraceEvent e;
  DecodeInto(R"({"t":0,"type":"arrival","prefix_blocks":[1,2]})", table, decoder, e);
  CHECK(e.hint.prefix_blocks.size() == 2);
  DecodeInto(R"({"t":1,"type":"arrival","hint":{}})", table, decoder, e);
  CHECK(e.hint.prefix_blocks.empty());
}

TEST_CASE("prefix_blocks: anything else is an error naming the field") {
  CHECK(DecodeError(R"({"t":0,"type":"arrival","prefix_blocks":"1,2"})") ==
        R"(field "prefix_blocks": expected an array of block ids (integers >= 0), got "1,2")");
  CHECK(DecodeError(R"({"t":0,"type":"arrival","prefix_blocks":null})") ==
        R"(field "prefix_blocks": expected an array of block ids (integers >= 0), got null)");
  CHECK(DecodeError(R"({"t":0,"type":"arrival","prefix_blocks":[1,-2]})") ==
        R"(field "prefix_blocks[1]": expected a block id (an integer >= 0), got -2)");
  CHECK(DecodeError(R"({"t":0,"type":"arrival","prefix_blocks":[1.5]})") ==
        R"(field "prefix_blocks[0]": expected a block id (an integer >= 0), got 1.5)");
  CHECK(DecodeError(R"({"t":0,"type":"arrival","prefix_blocks":[1,"2"]})") ==
        R"(field "prefix_blocks[1]": expected a block id (an integer >= 0), got "2")");
  CHECK(DecodeError(R"({"t":0,"type":"arrival","prefix_blocks":[[1]]})") ==
        R"(field "prefix_blocks[0]": expected a block id (an integer >= 0), got [1])");
}

TEST_CASE("input_tokens, output_tokens: integers from 0 to 2^53, kept") {
  TraceEvent e = Decode(R"({"t":0,"type":"arrival","input_tokens":7590,"output_tokens":0})");
  CHECK(e.input_tokens == 7590u);
  CHECK(e.output_tokens == 0u);
  e = Decode(R"({"t":0,"type":"arrival","input_tokens":9007199254740992})");
  CHECK(e.input_tokens == (std::uint64_t{1} << 53));
  CHECK_FALSE(e.output_tokens.has_value());
  CHECK_FALSE(Decode(R"({"t":0,"type":"arrival"})").input_tokens.has_value());
}

TEST_CASE("input_tokens, output_tokens: a reused event forgets the previous arrival's") {
  InstanceTable table;
  EventDecoder decoder;
  TraceEvent e;
  DecodeInto(R"({"t":0,"type":"arrival","input_tokens":1,"output_tokens":2})", table, decoder, e);
  DecodeInto(R"({"t":1,"type":"arrival","hint":{}})", table, decoder, e);
  CHECK_FALSE(e.input_tokens.has_value());
  CHECK_FALSE(e.output_tokens.has_value());
}

TEST_CASE("input_tokens, output_tokens: anything else is an error naming the field") {
  constexpr const char* kExpected = "expected an integer >= 0 (a token count, at most 2^53)";
  CHECK(DecodeError(R"({"t":0,"type":"arrival","input_tokens":-1})") ==
        std::string(R"(field "input_tokens": )") + kExpected + ", got -1");
  CHECK(DecodeError(R"({"t":0,"type":"arrival","input_tokens":2.5})") ==
        std::string(R"(field "input_tokens": )") + kExpected + ", got 2.5");
  CHECK(DecodeError(R"({"t":0,"type":"arrival","output_tokens":"12"})") ==
        std::string(R"(field "output_tokens": )") + kExpected + R"(, got "12")");
  CHECK(DecodeError(R"({"t":0,"type":"arrival","output_tokens":null})") ==
        std::string(R"(field "output_tokens": )") + kExpected + ", got null");
  CHECK(DecodeError(R"({"t":0,"type":"arrival","output_tokens":9007199254740993})") ==
        std::string(R"(field "output_tokens": )") + kExpected + ", got 9007199254740993");
}

Report Run(const std::string& text, const std::vector<std::string>& specs,
           const SimOptions& options = {}) {
  testing::TempFile trace(text);
  std::vector<StrategyRequest> requests;
  for (const std::string& spec : specs) requests.push_back(testing::Request(spec));
  return BuildReport(Replay(trace.path(), TraceEncoding::kAuto, requests, {}, options));
}

// Two idle Instances; four requests share the prompt prefix [1, 2].
constexpr const char* kSharedPrefix = R"({"lbsim_trace":1,"instances":[{"id":"a","inflight":0},{"id":"b","inflight":0}]}
{"t":0,"type":"arrival","prefix_blocks":[1,2]}
{"t":1,"type":"arrival","prefix_blocks":[1,2]}
{"t":2,"type":"arrival","prefix_blocks":[1,2]}
{"t":3,"type":"arrival","prefix_blocks":[1,2]}
)";

TEST_CASE("every strategy's prefix hit rate: matched leading blocks / requested blocks") {
  Report report = Run(kSharedPrefix, {"rr", "kv"});
  // round_robin: a b a b -> matched 0, 0, 2, 2 of 8.
  const StrategyReport& rr = report.strategies[0];
  REQUIRE(rr.prefix_cache);
  CHECK(rr.prefix_cache->requested_blocks == 8);
  CHECK(rr.prefix_cache->matched_blocks == 4);
  CHECK(rr.prefix_cache->hit_rate == 0.5);
  CHECK(rr.prefix_cache->capacity_blocks == kDefaultCacheBlocks);
  CHECK(rr.instances[0].cached_blocks == 2);
  CHECK(rr.instances[1].cached_blocks == 2);
  // kv_aware: a (miss) then a a a (hits) -> matched 0, 2, 2, 2 of 8.
  const StrategyReport& kv = report.strategies[1];
  REQUIRE(kv.prefix_cache);
  CHECK(kv.prefix_cache->matched_blocks == 6);
  CHECK(kv.prefix_cache->hit_rate == 0.75);
  CHECK(kv.instances[0].cached_blocks == 2);
  CHECK(kv.instances[1].cached_blocks == 0);
}

TEST_CASE("no prefix_blocks in the trace: no prefix cache figures") {
  Report report = Run(R"({"lbsim_trace":1,"instances":[{"id":"a"}]}
{"t":0,"type":"arrival"}
)",
                      {"rr"});
  CHECK_FALSE(report.strategies[0].prefix_cache);
}

TEST_CASE("the simulated caches: capacity per Instance, emptied by re-registration") {
  const char* text = R"({"lbsim_trace":1,"instances":[{"id":"a"}]}
{"t":0,"type":"arrival","prefix_blocks":[1,2,3]}
{"t":1,"type":"arrival","prefix_blocks":[1,2,3]}
{"t":2,"type":"down","instance":"a"}
{"t":3,"type":"up","instance":"a"}
{"t":4,"type":"arrival","prefix_blocks":[1,2,3]}
{"t":5,"type":"remove","instance":"a"}
{"t":6,"type":"arrival","prefix_blocks":[1,2,3]}
{"t":7,"type":"up","instance":"a"}
{"t":8,"type":"arrival","prefix_blocks":[1,2,3]}
)";
  SimOptions small;
  small.cache_blocks = 2;
  Report report = Run(text, {"rr"}, small);
  const PrefixCacheReport& cache = *report.strategies[0].prefix_cache;
  CHECK(cache.capacity_blocks == 2);
  // Routed: t0 miss (caches 1,2), t1 match 2, t4 match 2 (down/up keeps the
  // cache), t6 no Instance (not requested), t8 a new registration: miss.
  CHECK(cache.requested_blocks == 12);
  CHECK(cache.matched_blocks == 4);
  CHECK(report.strategies[0].instances[0].cached_blocks == 2);
}

}  // namespace
}  // namespace lbsim
