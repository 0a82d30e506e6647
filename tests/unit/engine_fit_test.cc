// lbsim engines fit (docs/engine-fit.md): the measurement files, each
// batch's schedule, and the fit. Expected values are computed here from the
// documented rules (a batch of B prompts of n tokens is prefilled in
// ceil(B n / max_batched_tokens) steps; a decode step of B sequences costs
// beta[0] + beta[2] B), never from lbsim's code.

#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "base/errors.h"
#include "sim/fit/engine_fit.h"
#include "sim/fit/measurement_files.h"

namespace lbsim {
namespace {

EngineConfig Limits(std::uint64_t budget = 2048, std::uint64_t running = 256) {
  EngineConfig c;
  c.name = "limits";
  c.beta_us = {1000, 10, 5};
  c.kv_blocks = 100000;
  c.block_tokens = 16;
  c.max_running = running;
  c.max_batched_tokens = budget;
  return c;
}

Measurement Ttft(std::uint64_t b, std::uint64_t n, double us) {
  return Measurement{.figure = MeasuredFigure::kTtft, .batch = b, .input_tokens = n,
                     .output_tokens = 1, .value_us = us, .where = "t"};
}

std::string ErrorOf(auto&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("engine fit: a batch's slowest TTFT waits for every prompt, in budget-sized steps") {
  const EngineConfig c = Limits(2048);
  for (auto [b, n] : {std::pair{1, 100}, {2, 500}, {2, 1025}, {4, 1113}, {8, 64}}) {
    const ScheduleRow r = MeasurementRow(c, Ttft(b, n, 1.0));
    CHECK(r.steps == std::ceil(b * n / 2048.0));
    CHECK(r.prefill == b * n);
    CHECK(r.decode == 0);
  }
}

TEST_CASE("engine fit: past max_running a batch waits for the first requests to finish") {
  // 4 requests of 100 tokens, 2 at a time, one token each: two steps of 200.
  const ScheduleRow r = MeasurementRow(Limits(2048, 2), Ttft(4, 100, 1.0));
  CHECK(r.steps == 2);
  CHECK(r.prefill == 400);
}

TEST_CASE("engine fit: TPOT and E2E of a batch that fits one prefill step") {
  // 2 requests of 500 tokens, 5 out: one prefill step, then 4 decode steps of 2.
  const EngineConfig c = Limits();
  Measurement m{.figure = MeasuredFigure::kTpot, .batch = 2, .input_tokens = 500,
                .output_tokens = 5, .value_us = 1.0, .where = "t"};
  ScheduleRow r = MeasurementRow(c, m);
  CHECK(r.steps == doctest::Approx(1.0));
  CHECK(r.prefill == 0);
  CHECK(r.decode == doctest::Approx(2.0));
  m.figure = MeasuredFigure::kE2e;
  r = MeasurementRow(c, m);
  CHECK(r.steps == 5);
  CHECK(r.prefill == 1000);
  CHECK(r.decode == 8);
  // A table's TPOT is one decode step of the batch.
  m.figure = MeasuredFigure::kTpot;
  m.decode_step = true;
  m.batch = 3;
  r = MeasurementRow(c, m);
  CHECK((r.steps == 1 && r.prefill == 0 && r.decode == 3));
}

TEST_CASE("engine fit: the prediction adds pre-processing and k x alpha[2]") {
  EngineConfig c = Limits();
  c.alpha_us = {100, 2, 50};
  // 1 request of 100 tokens, 3 out: prefill step 1000 + 1000; 2 decode steps of 1005.
  Measurement m{.figure = MeasuredFigure::kE2e, .batch = 1, .input_tokens = 100,
                .output_tokens = 3, .value_us = 1.0, .where = "t"};
  CHECK(PredictMeasurement(c, m) == doctest::Approx(300 + 2000 + 2 * 1005 + 3 * 50));
  m.figure = MeasuredFigure::kTtft;
  CHECK(PredictMeasurement(c, m) == doctest::Approx(300 + 2000 + 50));
  m.figure = MeasuredFigure::kTpot;
  CHECK(PredictMeasurement(c, m) == doctest::Approx(1005 + 50));
}

TEST_CASE("engine fit: exact measurements give their coefficients back") {
  const double b0 = 20000, b1 = 1500, b2 = 400;
  std::vector<Measurement> points;
  for (std::uint64_t b : {1, 2, 3, 4})
    for (std::uint64_t n : {89, 525, 1025, 2000}) {
      const double steps = std::ceil(static_cast<double>(b * n) / 2048.0);
      points.push_back(Ttft(b, n, steps * b0 + static_cast<double>(b * n) * b1));
      points.push_back(Measurement{.figure = MeasuredFigure::kTpot, .batch = b,
                                   .input_tokens = n, .output_tokens = 2,
                                   .value_us = b0 + b2 * static_cast<double>(b),
                                   .decode_step = true, .where = "t"});
    }
  const EngineFit fit = FitEngine(points, {.base = Limits(), .held_out = {}});
  CHECK(fit.config.beta_us[0] == doctest::Approx(b0).epsilon(1e-9));
  CHECK(fit.config.beta_us[1] == doctest::Approx(b1).epsilon(1e-9));
  CHECK(fit.config.beta_us[2] == doctest::Approx(b2).epsilon(1e-9));
  CHECK(fit.config.alpha_us == std::array<double, 3>{0, 0, 0});
  CHECK(fit.fitted == std::array<bool, 3>{true, true, true});
  REQUIRE(fit.errors.size() == 2);
  CHECK(fit.errors[0].points == 16);
  CHECK(fit.errors[0].median_abs_error < 1e-12);
  CHECK(fit.config.kv_blocks == 100000);
}

TEST_CASE("engine fit: held-out batch sizes are predicted, not fitted") {
  std::vector<Measurement> points;
  for (std::uint64_t b : {1, 2, 3})
    for (std::uint64_t n : {100, 400}) points.push_back(Ttft(b, n, 5000 + 2.0 * b * n));
  // Batch 3 is off the line; held out it does not move the fit.
  points.push_back(Ttft(3, 700, 1e9));
  const EngineFit fit = FitEngine(points, {.base = Limits(), .held_out = {3}});
  CHECK(fit.config.beta_us[0] == doctest::Approx(5000));
  CHECK(fit.config.beta_us[1] == doctest::Approx(2.0));
  CHECK(!fit.fitted[2]);
  CHECK(fit.config.beta_us[2] == 5);  // the base's
  REQUIRE(fit.held_out.size() == 1);
  CHECK(fit.held_out[0].points == 3);
  CHECK(fit.held_out[0].worst.input_tokens == 700);
  CHECK(fit.held_out[0].worst_error == doctest::Approx((5000 + 4200 - 1e9) / 1e9));
}

TEST_CASE("engine fit: a step's cost below 1 us is held at the bound and said so") {
  // TTFT = 2 us a token - 50 ms: the best line has a negative intercept.
  std::vector<Measurement> points;
  for (std::uint64_t n : {100000, 200000, 400000}) points.push_back(Ttft(1, n, 2.0 * n - 50000));
  EngineConfig base = Limits(1u << 20);
  base.kv_blocks = 1u << 20;
  const EngineFit fit = FitEngine(points, {.base = base, .held_out = {}});
  CHECK(fit.config.beta_us[0] == kMinFittedStepUs);
  CHECK(fit.at_bound[0]);
  CHECK(!fit.at_bound[1]);
  CHECK(fit.config.beta_us[1] > 0);
}

TEST_CASE("engine fit: measurements that cannot tell the coefficients apart are refused") {
  const std::vector<Measurement> one = {Ttft(1, 100, 5000)};
  CHECK(ErrorOf([&] { FitEngine(one, {.base = Limits(), .held_out = {}}); }) ==
        "the measurements cannot tell beta[0], beta[1] apart: expected measurements at more "
        "than one batch size or prompt length");
  CHECK(ErrorOf([&] { FitEngine(one, {.base = Limits(), .held_out = {1}}); }) ==
        "expected measurements to fit, got none outside the held-out batch sizes");
}

TEST_CASE("engine fit: a request larger than the base's KV cache is refused by name") {
  EngineConfig c = Limits();
  c.kv_blocks = 4;
  CHECK(ErrorOf([&] { MeasurementRow(c, Ttft(1, 100, 1)); }) ==
        "t: a request of 100 prompt and 1 output tokens does not fit the KV cache of 64 tokens "
        "(4 blocks of 16): give --base a configuration with a larger one");
}

TEST_CASE("engine fit: warmup log lines, CRLF, FAILED requests and the median of repeats") {
  const std::string log =
      "\xF0\x9F\x9A\x80 [Detailed Warmup] Starting\r\n"
      "[1/1] Testing: BatchSize=2, PromptLen=64 ...\r\n"
      "[TTFT] BS=2, PL=64, repeat=1, task=1/2, ttft=800.00ms\r\n"
      "[TTFT] BS=2, PL=64, repeat=1, task=2/2, ttft=900.00ms\r\n"
      "[INFO] Repeat TTFT stats: BS=2, PL=64, repeat=1, valid=2/2\r\n"
      "[TTFT] BS=2, PL=64, repeat=2, task=1/2, ttft=100.00ms\r\n"
      "[TTFT] BS=2, PL=64, repeat=2, task=2/2, ttft=200.00ms\r\n"
      "[TTFT] BS=2, PL=64, repeat=3, task=2/2, ttft=210.50ms\r\n"
      "[TTFT] BS=2, PL=64, repeat=3, task=1/2, ttft=110.00ms\r\n"
      "[TTFT] BS=2, PL=64, repeat=4, task=1/2, ttft=FAILED\r\n"
      "[TTFT] BS=2, PL=64, repeat=4, task=2/2, ttft=5000.00ms\r\n"
      "[TTFT] BS=1, PL=10, repeat=1, task=1/1, ttft=50.00ms";
  const MeasurementFile f = ReadWarmupLog("w.txt", log, 25);
  REQUIRE(f.points.size() == 2);
  // Sorted by (batch, PL): batch 1 first.
  CHECK(f.points[0].batch == 1);
  CHECK(f.points[0].input_tokens == 35);
  CHECK(f.points[0].value_us == 50000);
  CHECK(f.points[1].batch == 2);
  CHECK(f.points[1].input_tokens == 89);
  CHECK(f.points[1].value_us == doctest::Approx(210500));  // median of 900, 200, 210.5
  CHECK(f.points[1].where == "w.txt:3");
  CHECK(f.summary ==
        "9 [TTFT] lines, 4 complete batches (1 left out: a request FAILED or missing): the "
        "median slowest TTFT of each of 2 configurations, prompts of PL + 25 tokens");
  CHECK(ErrorOf([] { ReadWarmupLog("w.txt", "x\n[TTFT] BS=2, PL=64, ttft=1ms\n", 25); }) ==
        "w.txt:2: expected a warmup line \"[TTFT] BS=N, PL=N, repeat=N, task=I/N, ttft=Xms\", "
        "got \"[TTFT] BS=2, PL=64, ttft=1ms\"");
  CHECK(ErrorOf([] {
          ReadWarmupLog("w.txt", "[TTFT] BS=1, PL=64, repeat=1, task=1/1, ttft=0.00ms\n", 25);
        }) == "w.txt:1: ttft: expected a time > 0 in ms, got 0");
  CHECK(ErrorOf([] { ReadWarmupLog("w.txt", "no lines here\n", 25); }) ==
        "w.txt: expected \"[TTFT]\" lines, got none");
  CHECK(ErrorOf([] {
          ReadWarmupLog("w.txt", "[TTFT] BS=2, PL=64, repeat=1, task=1/2, ttft=5.00ms\n", 25);
        }) == "w.txt: expected a complete batch (a time for every request of a repeat), got none "
              "of 1 (a request FAILED or missing in each)");
}

TEST_CASE("engine fit: benchmark tables, their units, nulls and strict keys") {
  const MeasurementFile t = ReadBenchmarkTable(
      "t.json",
      R"({"ttft_unit":"s","lengths":[89,217],"rows":[{"batch_size":2,"ttft":[0.25,null]}]})",
      MeasurementFormat::kTtftTable);
  REQUIRE(t.points.size() == 1);
  CHECK(t.points[0].value_us == 250000);
  CHECK(t.points[0].input_tokens == 89);
  CHECK(t.summary == "1 TTFT entries over 1 batch sizes and 2 lengths (1 null)");
  const MeasurementFile p = ReadBenchmarkTable(
      "p.json", "{\r\n\"tpot_unit\": \"ms\", \"lengths\": [33], \"rows\": [{\"batch_size\": 8, "
                "\"tpot\": [28.1]}]\r\n}",
      MeasurementFormat::kTpotTable);
  REQUIRE(p.points.size() == 1);
  CHECK(p.points[0].decode_step);
  CHECK(p.points[0].value_us == doctest::Approx(28100));
  CHECK(ErrorOf([] {
          ReadBenchmarkTable("t.json",
                             R"({"ttft_unit":"ms","lengths":[1],"row":[]})",
                             MeasurementFormat::kTtftTable);
        }) == "t.json: row: not a key of the table (expected ttft_unit, lengths, rows)");
  CHECK(ErrorOf([] {
          ReadBenchmarkTable("t.json",
                             R"({"ttft_unit":"ms","lengths":[1,2],"rows":[{"batch_size":1,"ttft":[1]}]})",
                             MeasurementFormat::kTtftTable);
        }) == "t.json: rows[0].ttft: expected an array of 2 values, one per length (a number > 0 "
              "or null), got [1]");
  CHECK(ErrorOf([] {
          ReadBenchmarkTable("t.json", R"({"ttft_unit":"min","lengths":[1],"rows":[]})",
                             MeasurementFormat::kTtftTable);
        }) == "t.json: ttft_unit: expected \"ms\", \"s\" or \"us\", got \"min\"");
}

TEST_CASE("engine fit: a CSV's columns, units and empty cells") {
  const MeasurementFile f = ReadMeasurementCsv(
      "m.csv",
      "\xEF\xBB\xBF# comment\r\nbatch_size, prompt_tokens, output_tokens, ttft_s, e2e_us\r\n"
      "2,100,3,0.5,\r\n\r\n1,50,1,,7000\r\n");
  REQUIRE(f.points.size() == 2);
  CHECK(f.points[0].figure == MeasuredFigure::kTtft);
  CHECK(f.points[0].value_us == 500000);
  CHECK(f.points[0].where == "m.csv:3");
  CHECK(f.points[1].figure == MeasuredFigure::kE2e);
  CHECK(f.points[1].value_us == 7000);
  CHECK(ErrorOf([] { ReadMeasurementCsv("m.csv", "batch_size,prompt_tokens,output_tokens\n"); }) ==
        "m.csv:1: expected a header of batch_size, prompt_tokens, output_tokens and ttft_, tpot_ "
        "or e2e_ columns with a unit (ms, s, us), got \"batch_size,prompt_tokens,output_tokens\"");
  CHECK(ErrorOf([] {
          ReadMeasurementCsv("m.csv", "batch_size,prompt_tokens,output_tokens,tpot_ms\n1,10,1,5\n");
        }) == "m.csv:2: tpot_ms: expected output_tokens >= 2 for a time per output token, got 1");
  CHECK(ErrorOf([] {
          ReadMeasurementCsv("m.csv", "batch_size,prompt_tokens,output_tokens,ttft_min\n");
        }).starts_with("m.csv:1: column \"ttft_min\": expected a header of"));
  CHECK(ErrorOf([] {
          ReadMeasurementCsv("m.csv", "batch_size,prompt_tokens,output_tokens,ttft_ms\n0,10,1,5\n");
        }) == "m.csv:2: batch_size: expected an integer from 1 to 4096, got \"0\"");
  // Finite in its unit, not in microseconds.
  CHECK(ErrorOf([] {
          ReadMeasurementCsv("m.csv", "batch_size,prompt_tokens,output_tokens,ttft_ms\n1,10,1,1e308\n");
        }) == "m.csv:2: TTFT: expected a time > 0 and at most 2^53 us (285 years), got inf us");
}

TEST_CASE("engine fit: limits keep every schedule small") {
  Measurement m = Ttft(kMaxFitBatch + 1, 10, 1);
  CHECK(ErrorOf([&] { CheckMeasurementLimits(m); }) ==
        "t: batch size: expected at most 4096, got 4097");
  m = Ttft(4096, 10, 1);
  m.output_tokens = 2048;
  CHECK(ErrorOf([&] { CheckMeasurementLimits(m); }) ==
        "t: batch size x output tokens: expected at most 4194304, got 8388608");
  EngineConfig c = Limits(1);
  CHECK(ErrorOf([&] { MeasurementRow(c, Ttft(4096, 1u << 20, 1)); })
            .find("takes more than 2^26 request-steps") != std::string::npos);
}

}  // namespace
}  // namespace lbsim
