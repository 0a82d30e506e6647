// The LLM engine model (docs/engine.md): its configuration, KV cache,
// histograms, and the rules replayed end to end on small traces whose
// numbers follow from the documented formulas by hand.

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "replay_fixture.h"
#include "sim/replay/engine_config.h"
#include "sim/replay/kv_cache.h"
#include "sim/replay/llm_engine.h"
#include "sim/replay/log_histogram.h"
#include "sim/replay/unit_index.h"
#include "sim/report/report.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

// A small engine: steps of 1000 us + 10 us per prefill token + 5 us per
// decode token; 100 us + 1 us per input token of pre-processing; 500 us to
// the client.
EngineConfig Small(std::uint64_t blocks = 64, std::uint64_t block_tokens = 16,
                   std::uint64_t running = 4, std::uint64_t budget = 256) {
  return {.name = "small", .description = "", .beta_us = {1000, 10, 5},
          .alpha_us = {100, 1, 500}, .kv_blocks = blocks, .block_tokens = block_tokens,
          .max_running = running, .max_batched_tokens = budget};
}

SimOptions WithEngine(const EngineConfig& config) {
  SimOptions o;
  o.engine.config = std::make_shared<const EngineConfig>(config);
  return o;
}

// A replay of `text` (JSON Lines) through `specs` with `options`; the engine
// log lines of the first run in `log` when given.
Report Run(const std::string& text, const SimOptions& options,
           const std::vector<std::string>& specs = {"rr"}, std::vector<std::string>* log = nullptr) {
  testing::TempFile trace(text);
  std::vector<StrategyRequest> requests;
  for (const std::string& spec : specs) requests.push_back(testing::Request(spec));
  struct Lines final : EngineLog {
    std::vector<std::string>* out;
    void Line(std::string_view json) override {
      if (out) out->emplace_back(json);
    }
  } lines;
  lines.out = log;
  std::vector<EngineLog*> logs(specs.size(), nullptr);
  logs[0] = &lines;
  ReplayResult result = Replay(
      trace.path(),
      [&](InstanceTable& table, TraceVisitor& visitor) {
        return ReadTrace(trace.path(), TraceEncoding::kAuto, table, visitor);
      },
      requests, {}, options, logs);
  return BuildReport(result);
}

const EngineFigures& Engine(const Report& r, std::size_t k = 0) {
  return *r.strategies.at(k).what_if->engine;
}

TEST_CASE("LogHistogram: exact counts, max and mean, and percentiles a value of the bucket") {
  LogHistogram h;
  for (int i = 1; i <= 100; ++i) h.Add(i);
  CHECK(h.count() == 100);
  CHECK(h.max() == 100);
  CHECK(h.sum() == 5050);
  // Integers up to 256 are alone in their buckets: exact nearest-rank values.
  CHECK(h.Percentile(50) == 50);
  CHECK(h.Percentile(90) == 90);
  CHECK(h.Percentile(99) == 99);
  CHECK(h.Percentile(100) == 100);
  LogHistogram fine;
  fine.Add(1.0);
  fine.Add(1.001);  // the same bucket as 1.0 (1/256 wide)
  fine.Add(1.01);   // the next one
  CHECK(fine.Percentile(50) == 1.001);  // rank 2: the largest value of the first bucket
  CHECK(fine.Percentile(34) == 1.001);
  CHECK(fine.Percentile(100) == 1.01);
  LogHistogram empty;
  CHECK(empty.Percentile(50) == 0.0);
  // Per mille: rank ceil(q x n / 1000), at least 1 (q = 0: the smallest).
  CHECK(h.Quantile(0) == 1);
  CHECK(h.Quantile(995) == 100);  // rank ceil(99.5)
  CHECK(h.Quantile(994) == 100);  // rank ceil(99.4)
  CHECK(h.Quantile(990) == 99);
  CHECK(h.Quantile(1000) == 100);
  CHECK(h.Quantile(5) == 1);
  CHECK(h.Quantile(11) == 2);
  CHECK(empty.Quantile(500) == 0.0);
}

TEST_CASE("LogHistogram: within 0.4% of the exact nearest-rank value, merged as one") {
  LogHistogram a, b, all;
  std::vector<double> values;
  double x = 0.5;
  for (int i = 0; i < 5000; ++i) {
    x = std::fmod(x * 7.31 + 0.123, 1000.0);
    values.push_back(x);
    (i % 3 ? a : b).Add(x);
    all.Add(x);
  }
  a.Merge(b);
  std::sort(values.begin(), values.end());
  for (unsigned p : {1u, 25u, 50u, 90u, 99u, 100u}) {
    const double exact = values[(p * values.size() + 99) / 100 - 1];
    CHECK(a.Percentile(p) == all.Percentile(p));
    CHECK(a.Percentile(p) >= exact);
    CHECK(a.Percentile(p) <= exact * (1 + 1.0 / 256));
  }
  CHECK(a.count() == all.count());
  CHECK(a.max() == all.max());
}

TEST_CASE("UnitIndex finds what std::unordered_map finds, through inserts and erases") {
  UnitIndex index;
  std::unordered_map<std::uint64_t, std::uint32_t> reference;
  std::mt19937_64 random(5);
  for (int i = 0; i < 200000; ++i) {
    // Few distinct ids, clustered and extreme, so probes collide and wrap.
    const std::uint64_t id = random() % 3 == 0 ? random() % 300 : ~std::uint64_t{0} - random() % 200;
    const auto it = reference.find(id);
    CHECK((index.Find(id) == UnitIndex::kNone) == (it == reference.end()));
    if (it != reference.end()) {
      CHECK(index.Find(id) == it->second);
      if (random() % 2) {
        index.Erase(id);
        reference.erase(it);
      }
    } else if (random() % 3) {
      const auto slot = static_cast<std::uint32_t>(random() % 1000);
      index.Insert(id, slot);
      reference.emplace(id, slot);
    }
    REQUIRE(index.size() == reference.size());
  }
  for (const auto& [id, slot] : reference) CHECK(index.Find(id) == slot);
}

TEST_CASE("LogHistogram: a run of n equal values counts as n Adds of it") {
  LogHistogram once, each;
  once.Add(0.25);
  each.Add(0.25);
  once.Add(0.1, 7);
  for (int k = 0; k < 7; ++k) each.Add(0.1);
  CHECK(once.count() == each.count());
  CHECK(once.sum() == each.sum());  // added in turn: the same rounding
  CHECK(once.Percentile(50) == each.Percentile(50));
  CHECK(once.max() == each.max());
}

TEST_CASE("KvCache: free blocks first, then the least recently released units") {
  KvCache cache(10, 2);  // units of 2 blocks
  REQUIRE(cache.Allocate(6));
  const std::uint32_t one = cache.Publish(1);  // 2 of the 6 blocks become unit 1, referenced once
  const std::uint32_t two = cache.Publish(2);
  CHECK(one != two);
  CHECK(cache.Find(1) == one);
  CHECK(cache.Find(2) == two);
  CHECK(cache.Find(3) == KvCache::kNone);
  CHECK(cache.Refs(one) == 1);
  CHECK(cache.used() == 6);
  CHECK(cache.held() == 6);
  cache.Unref(two);  // released first: evicted first
  cache.Unref(one);
  CHECK(cache.Refs(one) == 0);
  CHECK(cache.held() == 2);
  CHECK(cache.Available() == 8);
  CHECK_FALSE(cache.Allocate(9));  // more than free + evictable: nothing changes
  CHECK(cache.Find(1) == one);
  CHECK(cache.Find(2) == two);
  REQUIRE(cache.Allocate(5));  // 4 free, then unit 2 goes
  CHECK(cache.Find(1) == one);  // a resident unit keeps its slot
  CHECK(cache.Find(2) == KvCache::kNone);
  CHECK(cache.evictions() == 1);
  cache.Ref(one);  // referenced again: not evictable
  CHECK(cache.Available() == 1);
  CHECK_FALSE(cache.Allocate(2));
}

TEST_CASE("InstanceEngine: the owed prefill and each finished request's tokens, recounted") {
  // A cache small enough that requests are preempted while prefilling and
  // while decoding, and a budget that cuts decoders off: after every step,
  // the owed prefill must be the recount over the queues (requests without
  // a token yet), and every finished request must have made its tokens.
  const EngineConfig config = Small(/*blocks=*/16, /*block_tokens=*/4, /*running=*/6,
                                    /*budget=*/5);
  InstanceEngine engine(config, 4);
  std::vector<EngineRequest> requests(40);
  std::mt19937_64 rng(7);
  for (std::uint32_t i = 0; i < requests.size(); ++i) {
    EngineRequest& r = requests[i];
    r.input = 1 + rng() % 20;  // at most 60 tokens in all: each fits the 64 alone
    r.output = rng() % 41;
    r.known = r.input;
    // Most share a prompt prefix of two 4-token units, so admissions find it cached.
    if (r.input > 8 && i % 4 != 0) {
      r.units = {101, 102};
      r.units_size = 2;
      r.holds.assign(2, KvCache::kNone);
    }
  }
  auto recount = [&] {
    std::uint64_t owed = 0;
    for (std::uint32_t id : engine.waiting())
      if (requests[id].generated == 0) owed += requests[id].known - requests[id].computed;
    for (std::uint32_t id : engine.running())
      if (requests[id].generated == 0) owed += requests[id].known - requests[id].computed;
    return owed;
  };
  std::uint32_t next = 0, finished = 0, preempted = 0, hits = 0;
  double now = 0.0;
  while (finished < requests.size()) {
    for (int k = 0; k < 2 && next < requests.size(); ++k) engine.Enqueue(requests, next++);
    REQUIRE(engine.owed_prefill() == recount());
    if (!engine.Form(requests, now)) continue;
    preempted += static_cast<std::uint32_t>(engine.step().preempted.size());
    REQUIRE(engine.owed_prefill() == recount());
    now += 1.0;
    engine.Finish(requests, now);
    REQUIRE(engine.owed_prefill() == recount());
    for (std::uint32_t id : engine.outcome().finished) {
      const EngineRequest& r = requests[id];
      CHECK(r.generated == r.output);
      CHECK(r.known == r.input + r.output);
      if (r.output > 0) CHECK(r.last_token == now);
      hits += r.hit_tokens > 0;
      ++finished;
    }
  }
  CHECK(preempted > 0);
  CHECK(hits > 0);
  CHECK(engine.cache().held() == 0);
}

TEST_CASE("EngineConfig: the built-in default is BLIS's llama-3.1-8b set, and files are checked") {
  const EngineConfig& d = BuiltinEngines()[0];
  CHECK(d.name == "llama-3.1-8b-h100");
  CHECK(d.beta_us[0] == 5752.705191348184);
  CHECK(d.alpha_us[2] == 3357.4400353290152);
  CHECK(d.kv_blocks == 29205);
  CHECK(d.block_tokens == 16);
  CHECK(FindBuiltinEngine("llama-3.1-8b-h100") == &d);
  CHECK(EngineConfigFromJson(nlohmann::ordered_json::parse(EngineConfigJson(d)), "x") == d);
  auto error = [](const std::string& text) {
    try {
      EngineConfigFromJson(nlohmann::ordered_json::parse(text), "e.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string good =
      R"("lbsim_engine":1,"alpha_us":[0,0,0],"kv_blocks":4,"block_tokens":16,"max_running":1,"max_batched_tokens":8)";
  CHECK(error("{" + good + R"(,"beta_us":[1,0,0]})").empty());
  CHECK(error("{" + good + R"(,"beta_us":[0,1,1]})") ==
        "e.json: beta_us: expected an array of 3 finite numbers, microseconds: the first > 0, "
        "the others >= 0, got [0,1,1]");
  CHECK(error("{" + good + "}") ==
        "e.json: beta_us: expected an array of 3 finite numbers, microseconds: the first > 0, "
        "the others >= 0, got nothing (it is missing)");
  CHECK(error("{" + good + R"(,"beta_us":[1,0,0],"kv_block":3})") ==
        "e.json: kv_block: not a key of an engine configuration (expected one of lbsim_engine, "
        "name, description, beta_us, alpha_us, kv_blocks, block_tokens, max_running, "
        "max_batched_tokens)");
  CHECK(error(R"({"lbsim_engine":1,"beta_us":[1,0,0],"alpha_us":[0,0,0],"kv_blocks":0,"block_tokens":16,"max_running":1,"max_batched_tokens":8})") ==
        "e.json: kv_blocks: expected an integer from 1 to 2^32, got 0");
  CHECK(error(R"({"lbsim_engine":1,"beta_us":[1,0,0],"alpha_us":[0,0,0],"kv_blocks":4294967296,"block_tokens":4294967296,"max_running":1,"max_batched_tokens":8})") ==
        "e.json: kv_blocks x block_tokens: expected a cache of at most 2^53 tokens, got "
        "4294967296 x 4294967296");
  // A term past 2^53 us: beta[1] over 2^52 prefill tokens' worth at 2 a step;
  // alpha[2] over the longest output, here the cache's 64 tokens.
  CHECK(error(R"({"lbsim_engine":1,"beta_us":[1,4503599627370497,0],"alpha_us":[0,0,0],"kv_blocks":4,"block_tokens":16,"max_running":1,"max_batched_tokens":2})") ==
        "e.json: beta_us[1]: expected at most 4503599627370496 us (so that max_batched_tokens "
        "prefill tokens takes at most 2^53 us, 285 years), got 4503599627370497");
  CHECK(error(R"({"lbsim_engine":1,"beta_us":[1,0,0],"alpha_us":[0,0,1e15],"kv_blocks":4,"block_tokens":16,"max_running":1,"max_batched_tokens":2})") ==
        "e.json: alpha_us[2]: expected at most 140737488355328 us (so that the longest output "
        "takes at most 2^53 us, 285 years), got 1000000000000000");
}

constexpr const char* kOneInstance = R"({"lbsim_trace":1,"instances":[{"id":"a","inflight":0}]}
)";

TEST_CASE("engine: one request alone: TTFT = pre-processing + its prefill steps + the trip out") {
  // 100 input tokens, 5 out: pre 200 us; a prefill step of 1000 + 10 x 100 = 2000 us
  // makes token 1; four decode steps of 1005 us make the rest. BLIS's rule: token k
  // reaches the client k x 500 us after its step, so every gap carries 500 us more.
  std::vector<std::string> log;
  const Report r = Run(std::string(kOneInstance) +
                           R"({"t":0,"type":"arrival","input_tokens":100,"output_tokens":5})" "\n",
                       WithEngine(Small()), {"rr"}, &log);
  const EngineFigures& e = Engine(r);
  CHECK(e.counters.served == 1);
  CHECK(e.ttft.max == doctest::Approx(0.0027).epsilon(1e-12));
  CHECK(e.e2e.max == doctest::Approx(0.0002 + 0.002 + 4 * 0.001005 + 5 * 0.0005).epsilon(1e-12));
  CHECK(e.tpot.max == doctest::Approx(0.001505).epsilon(1e-12));
  CHECK(e.itl.count == 4);
  CHECK(e.itl.max == doctest::Approx(0.001505).epsilon(1e-12));
  CHECK(e.queue_delay.max == doctest::Approx(0.0002).epsilon(1e-12));
  CHECK(e.counters.steps == 5);
  CHECK(e.counters.prefill_tokens == 100);
  CHECK(e.counters.decode_tokens == 4);
  CHECK(e.counters.output_tokens == 5);
  REQUIRE(log.size() == 6);
  CHECK(log[0].find(R"("batch":[[1,100]],"preempted":[],"kv_blocks":7})") != std::string::npos);
  CHECK(log[5].find(R"("type":"request")") != std::string::npos);
}

TEST_CASE("engine: a prompt over the token budget is prefilled in chunks") {
  // Budget 64: 150 prompt tokens take 64 + 64 + 22; the third chunk makes token 1.
  std::vector<std::string> log;
  const Report r = Run(std::string(kOneInstance) +
                           R"({"t":0,"type":"arrival","input_tokens":150,"output_tokens":1})" "\n",
                       WithEngine(Small(64, 16, 4, 64)), {"rr"}, &log);
  const EngineFigures& e = Engine(r);
  CHECK(e.counters.steps == 3);
  CHECK(e.counters.prefill_tokens == 150);
  CHECK(e.ttft.max == doctest::Approx(0.00025 + 0.00164 * 2 + 0.00122 + 0.0005).epsilon(1e-12));
  CHECK(log[2].find(R"("batch":[[1,22]])") != std::string::npos);
}

TEST_CASE("engine: a request whose prefix is cached pays prefill only past it") {
  // Units of 32 tokens (2 blocks). The second request finds both units of
  // [7, 8] cached: it computes 70 - 64 = 6 prompt tokens.
  const std::string text = R"({"lbsim_trace":1,"prefix_block_tokens":32,"instances":[{"id":"a","inflight":0}]}
{"t":0,"type":"arrival","input_tokens":70,"output_tokens":2,"prefix_blocks":[7,8,9]}
{"t":1,"type":"arrival","input_tokens":70,"output_tokens":2,"prefix_blocks":[7,8,5]}
{"t":2,"type":"arrival","input_tokens":64,"output_tokens":2,"prefix_blocks":[7,8]}
)";
  std::vector<std::string> log;
  const Report r = Run(text, WithEngine(Small()), {"rr"}, &log);
  const EngineFigures& e = Engine(r);
  CHECK(e.counters.input_tokens == 204);
  // The third prompt is exactly its two units: one unit is left to compute
  // (at least one token is computed), so it hits 32 tokens.
  CHECK(e.counters.prefix_hit_tokens == 64 + 32);
  CHECK(e.counters.prefill_tokens == 70 + 6 + 32);
  bool second = false;
  for (const std::string& line : log)
    if (line.find(R"("request":2,)") != std::string::npos)
      second = line.find(R"("prefix_hit_tokens":64,"prefill_tokens":6,)") != std::string::npos;
  CHECK(second);
}

TEST_CASE("engine: a full cache preempts the last running request, which recomputes") {
  // 8 blocks of 16 tokens = 128 tokens; two requests of 60 + 40 tokens grow
  // past it together: the later one is preempted, recomputes its prompt and
  // the tokens it made, and both finish.
  const std::string text = std::string(kOneInstance) +
                           R"({"t":0,"type":"arrival","input_tokens":60,"output_tokens":40}
{"t":0,"type":"arrival","input_tokens":60,"output_tokens":40}
)";
  std::vector<std::string> log;
  const Report r = Run(text, WithEngine(Small(8)), {"rr"}, &log);
  const EngineFigures& e = Engine(r);
  CHECK(e.counters.served == 2);
  CHECK(e.counters.preemptions >= 1);
  CHECK(e.counters.preempted_requests == 1);
  CHECK(e.counters.prefill_tokens > 120);  // recomputation
  CHECK(e.counters.output_tokens == 80);
  CHECK(e.kv_utilisation_peak <= 1.0);
}

TEST_CASE("engine: a request too long for the whole cache is rejected at once") {
  const Report r = Run(std::string(kOneInstance) +
                           R"({"t":0,"type":"arrival","input_tokens":1000,"output_tokens":25}
{"t":1,"type":"arrival","input_tokens":10,"output_tokens":1}
)",
                       WithEngine(Small()));
  const EngineFigures& e = Engine(r);
  CHECK(e.counters.rejected == 1);  // 1025 tokens > 64 x 16
  CHECK(e.counters.served == 1);
  CHECK(e.e2e.count == 1);
}

TEST_CASE("engine: every arrival needs its token counts") {
  testing::TempFile trace(std::string(kOneInstance) + R"({"t":0,"type":"arrival","input_tokens":3}
)");
  try {
    Replay(trace.path(), TraceEncoding::kAuto, {testing::Request("rr")}, {},
           WithEngine(Small()));
    FAIL("replayed");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find(
              ":2: field \"output_tokens\": expected an integer >= 0 (a token count): the engine "
              "model (--engine) serves every arrival by its tokens, but it is missing") !=
          std::string::npos);
  }
}

TEST_CASE("engine: prefix_block_tokens must be a multiple of the engine's block size") {
  testing::TempFile trace(R"({"lbsim_trace":1,"prefix_block_tokens":24,"instances":[{"id":"a"}]}
)");
  try {
    Replay(trace.path(), TraceEncoding::kAuto, {testing::Request("rr")}, {},
           WithEngine(Small()));
    FAIL("replayed");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find(
              ": header: field \"prefix_block_tokens\": expected a multiple of the engine's "
              "block_tokens (16, engine small), got 24") != std::string::npos);
  }
}

TEST_CASE("engine: a trace in milliseconds takes the same steps in its unit") {
  const std::string one = R"({"t":0,"type":"arrival","input_tokens":100,"output_tokens":5})" "\n";
  const Report s = Run(std::string(kOneInstance) + one, WithEngine(Small()));
  const Report ms = Run(R"({"lbsim_trace":1,"time_unit":"ms","instances":[{"id":"a","inflight":0}]}
)" + one, WithEngine(Small()));
  CHECK(Engine(ms).e2e.max == doctest::Approx(Engine(s).e2e.max * 1000).epsilon(1e-12));
  CHECK(*Engine(ms).output_tokens_per_s ==
        doctest::Approx(*Engine(s).output_tokens_per_s).epsilon(1e-12));
}

TEST_CASE("engine: an Instance's speed divides every engine time") {
  const std::string one = R"({"t":0,"type":"arrival","input_tokens":100,"output_tokens":5})" "\n";
  const Report slow = Run(std::string(kOneInstance) + one, WithEngine(Small()));
  const Report fast = Run(R"({"lbsim_trace":1,"instances":[{"id":"a","inflight":0,"speed":2}]}
)" + one, WithEngine(Small()));
  CHECK(Engine(fast).e2e.max == doctest::Approx(Engine(slow).e2e.max / 2).epsilon(1e-12));
}

TEST_CASE("engine signals: least_load sees each engine's queue state in the hint") {
  // Two idle Instances; a long request goes to a and is still decoding at
  // t = 0.5. The trace's hint then says b has 9 active requests: without
  // signals least_load scores a 1 (its inflight) and b 9, and picks a. With
  // signals every 0.1, the engines have published a: active_ready 1,
  // active_decode_count 1 (score 1 + 1 + 0.5) and b: all 0, which replace
  // the trace's values for b: it picks b.
  const std::string text = R"({"lbsim_trace":1,"instances":[{"id":"a","inflight":0},{"id":"b","inflight":0}]}
{"t":0,"type":"arrival","input_tokens":1000,"output_tokens":600}
{"t":0.5,"type":"arrival","input_tokens":10,"output_tokens":1,"hint":{"queue_depths":{"per_instance":{"b":{"active_ready":9,"queue_depth":2}}}}}
)";
  SimOptions plain = WithEngine(Small(256));
  SimOptions signalled = plain;
  signalled.engine.signal_interval = 0.1;
  const Report a = Run(text, plain, {"ll"});
  CHECK(a.strategies[0].instances[0].selections == 2);
  const Report b = Run(text, signalled, {"ll"});
  CHECK(b.strategies[0].instances[0].selections == 1);
  CHECK(b.strategies[0].instances[1].selections == 1);
}

TEST_CASE("engine: exec strategies cannot run with engine signals") {
  testing::TempFile trace{std::string(kOneInstance)};
  SimOptions o = WithEngine(Small());
  o.engine.signal_interval = 1;
  CHECK_THROWS_WITH_AS(Replay(trace.path(), TraceEncoding::kAuto,
                              {testing::Request("exec:true")}, {}, o),
                       doctest::Contains("engine signals do not rewrite"), UsageError);
}

}  // namespace
}  // namespace lbsim
