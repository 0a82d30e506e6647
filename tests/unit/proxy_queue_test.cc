// The Proxy queue model against values worked out by hand from
// ../shared/spec/proxy-queue.md: the predictor, the pipeline (one forward
// before its first token, 20 ms dequeues, 5 ms polls, 8 workers, 256 ready
// places), the snapshot, the completions-route stall and its fix.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "base/errors.h"
#include "sim/replay/proxy_queue.h"
#include "sim/replay/queue_predictor.h"
#include "seeded_numbers.h"

namespace lbsim {
namespace {

// The shipped predictor at L = input + 36 tokens.
constexpr double kServiceAt36 = 0.047626;  // 47 + (36 - 35) / 10 * (53.26 - 47) ms

struct Timeline {
  std::vector<double> forwarded, first_token, ended;
};

// Runs every queue event (up to the clock `until`, if given), collecting
// each request's times in trace seconds by its record number.
void Run(ProxyQueue& q, Timeline& out, double until = INFINITY) {
  std::vector<ProxyQueue::Progress> progress;
  while (q.NextClock() && *q.NextClock() < until) {
    q.RunNext(progress);
    for (const ProxyQueue::Progress& p : progress) {
      std::vector<double>& v = p.kind == ProxyQueue::Progress::Kind::kForwarded ? out.forwarded
                               : p.kind == ProxyQueue::Progress::Kind::kFirstToken
                                   ? out.first_token
                                   : out.ended;
      if (v.size() <= p.record) v.resize(p.record + 1, NAN);
      v[p.record] = q.TraceTime(p.clock);
    }
  }
}

ProxyQueue::Request Chat(InstanceIndex i, std::uint64_t record, double ttft, double duration) {
  ProxyQueue::Request r;
  r.instance = i;
  r.record = record;
  r.ttft = ttft;
  r.duration = duration;
  return r;
}

TEST_CASE("proxy queue: the predictor follows the calibration curve, with a floor of 0 past it") {
  QueuePredictor p;  // shipped: a = b = c = d = 0
  CHECK(p.ServiceSeconds(0, 0) == doctest::Approx(kServiceAt36).epsilon(1e-12));
  CHECK(p.ServiceSeconds(309, 0) == doctest::Approx(0.472).epsilon(1e-12));  // L = 345
  CHECK(p.ServiceSeconds(310, 0) == 0.0);                                   // L = 346: past the curve
  CHECK(p.ServiceSeconds(0, 79) == doctest::Approx(0.09567).epsilon(1e-12));  // L = 115
  // L <= 115 takes the curve alone, even when the fit says more.
  QueuePredictor fitted;
  fitted.coefficients = {1.4644916e-3, 2.1549029e-5, -3.1657890e-2, -3.2547329e-2};
  CHECK(fitted.ServiceSeconds(0, 0) == doctest::Approx(kServiceAt36).epsilon(1e-12));
  // Past 345 tokens the fit alone: (a + b) x 1036 + c + d.
  const double l = 1036.0;
  CHECK(fitted.ServiceSeconds(1000, 0) ==
        doctest::Approx(1.4644916e-3 * l + 2.1549029e-5 * l - 3.1657890e-2 - 3.2547329e-2)
            .epsilon(1e-12));
}

TEST_CASE("proxy queue: one request is forwarded per Instance before its first token") {
  ProxyQueue q(ProxyQueueConfig{});
  q.Begin(0.0);
  for (std::uint64_t r = 0; r < 3; ++r) q.Enqueue(Chat(0, r, 0.1, 0.5), 0.0);
  Timeline t;
  Run(q, t);
  // r0 at once; r1 dequeued at 0.02 and r2 at 0.04, each forwarded at the
  // first 5 ms poll at or after the previous first token.
  CHECK(t.forwarded[0] == doctest::Approx(0.0).epsilon(1e-9));
  CHECK(t.forwarded[1] == doctest::Approx(0.1).epsilon(1e-9));
  CHECK(t.forwarded[2] == doctest::Approx(0.2).epsilon(1e-9));
  CHECK(t.first_token[2] == doctest::Approx(0.3).epsilon(1e-9));
  CHECK(t.ended[2] == doctest::Approx(0.7).epsilon(1e-9));
  CHECK(q.unfinished() == 0);
}

TEST_CASE("proxy queue: an Instance model reports the first token and the end") {
  ProxyQueueConfig config;
  config.instance_reports_times = true;
  ProxyQueue q(config);
  q.Begin(0.0);
  const std::uint32_t chat = q.Enqueue(Chat(0, 0, 9.0, 9.0), 0.0);  // times not read
  ProxyQueue::Request c = Chat(0, 1, 9.0, 9.0);
  c.completions = true;
  const std::uint32_t completions = q.Enqueue(c, 0.0);
  std::vector<ProxyQueue::Progress> progress;
  q.RunNext(progress);  // release
  q.RunNext(progress);  // take: the chat request is forwarded at once
  REQUIRE(progress.size() == 1);
  CHECK(progress[0].kind == ProxyQueue::Progress::Kind::kForwarded);
  CHECK(progress[0].task == chat);
  // Nothing is scheduled for it but the second request's dequeue at 20 ms.
  REQUIRE(q.NextClock());
  CHECK(q.TraceTime(*q.NextClock()) == doctest::Approx(0.02).epsilon(1e-9));
  // A chat response that ends without a first token gets one at its end.
  q.Ended(chat, 0.03);
  Timeline t;
  Run(q, t, q.Clock(0.0301));
  CHECK(t.first_token[0] == doctest::Approx(0.03).epsilon(1e-9));
  CHECK(t.ended[0] == doctest::Approx(0.03).epsilon(1e-9));
  // The completions request, dequeued at 0.02, goes at its poll at 0.03,
  // which runs after the end reported at 0.03 before that poll was set.
  // Its engine's first token is not the Proxy's: its one chunk comes at
  // the end.
  CHECK(t.forwarded[1] == doctest::Approx(0.03).epsilon(1e-9));
  q.FirstToken(completions, 0.04);
  q.Ended(completions, 0.06);
  Run(q, t);
  CHECK(t.first_token[1] == doctest::Approx(0.06).epsilon(1e-9));
  CHECK(t.ended[1] == doctest::Approx(0.06).epsilon(1e-9));
  CHECK(q.unfinished() == 0);
}

TEST_CASE("proxy queue: polls count from the dequeue, every 5 ms") {
  ProxyQueue q(ProxyQueueConfig{});
  q.Begin(0.0);
  q.Enqueue(Chat(0, 0, 0.0333, 1.0), 0.0);
  q.Enqueue(Chat(0, 1, 0.01, 1.0), 0.0);
  Timeline t;
  Run(q, t);
  // r1 is dequeued at 0.02, polls at 0.025, 0.030, 0.035: the first at or
  // after r0's first token (0.0333).
  CHECK(t.forwarded[1] == doctest::Approx(0.035).epsilon(1e-9));
}

TEST_CASE("proxy queue: dispatch polls past the limit stop the run, those within it do not") {
  // r1 polls from 0.02 until r0's first token at 1 s: 196 polls.
  for (const auto& [limit, refused] : {std::pair{196u, false}, std::pair{195u, true}}) {
    ProxyQueueConfig config;
    config.max_dispatch_polls = limit;
    ProxyQueue q(config);
    q.Begin(0.0);
    q.Enqueue(Chat(0, 0, 1.0, 2.0), 0.0);
    q.Enqueue(Chat(0, 1, 0.01, 1.0), 0.0);
    Timeline t;
    if (refused) {
      CHECK_THROWS_WITH_AS(Run(q, t),
                           doctest::Contains("--proxy-queue: the run needs more than 195 dispatch "
                                             "polls"),
                           UsageError);
    } else {
      Run(q, t);
      CHECK(t.forwarded[1] == doctest::Approx(1.0).epsilon(1e-9));
    }
  }
}

TEST_CASE("proxy queue: dequeues are 20 ms apart and at most 8 requests are held") {
  ProxyQueue q(ProxyQueueConfig{});
  q.Begin(0.0);
  for (std::uint64_t r = 0; r < 10; ++r) q.Enqueue(Chat(0, r, 5.0, 6.0), 0.0);
  Timeline t;
  std::vector<InstanceIndex> ids;
  std::vector<QueueSnapshotEntry> e;
  Run(q, t, q.Clock(0.11));
  q.Snapshot(0.11, ids, e);
  REQUIRE(e.size() == 1);
  CHECK(e[0].active_ready == 6);  // dequeued at 0, 0.02, ..., 0.10
  CHECK(e[0].ready_queue_depth == 4);
  CHECK(e[0].pending_prefill_count == 10);
  // Ten prefills of 47.626 ms chained from 0; the lowest of the 8 slots
  // holds the third one's first token.
  CHECK(e[0].prefill_free_in_ms == doctest::Approx(10 * 47.626 - 110).epsilon(1e-6));
  CHECK(e[0].next_slot_ready_in_ms == doctest::Approx(3 * 47.626 - 110).epsilon(1e-6));
  Run(q, t, q.Clock(1.0));
  q.Snapshot(1.0, ids, e);
  CHECK(e[0].active_ready == 8);
  CHECK(e[0].ready_queue_depth == 2);
  CHECK(e[0].prefill_free_in_ms == 0.0);
  CHECK(e[0].next_slot_ready_in_ms == 0.0);
  CHECK(t.forwarded.size() == 1);  // r0 has no first token yet
}

TEST_CASE("proxy queue: the snapshot of same-instant arrivals and of the chain") {
  ProxyQueue q(ProxyQueueConfig{});
  q.Begin(0.0);
  q.Enqueue(Chat(0, 0, 1.0, 2.0), 0.0);
  std::vector<InstanceIndex> ids;
  std::vector<QueueSnapshotEntry> e;
  q.Snapshot(0.0, ids, e);  // a second arrival at the same instant
  REQUIRE(e.size() == 1);
  CHECK(e[0].prepare_queue_depth == 1);
  CHECK(e[0].ready_queue_depth == 0);
  CHECK(e[0].pending_prefill_count == 0);
  q.Enqueue(Chat(1, 1, 1.0, 2.0), 0.0);
  Timeline t;
  Run(q, t, q.Clock(0.01));
  q.Snapshot(0.01, ids, e);
  REQUIRE(ids == std::vector<InstanceIndex>{0, 1});  // by first request
  for (const QueueSnapshotEntry& x : e) {
    CHECK(x.prepare_queue_depth == 0);
    CHECK(x.active_ready == 1);
    CHECK(x.pending_prefill_count == 1);
    // F = 0 + 47.626 ms, seen 10 ms later; one slot of eight is taken.
    CHECK(x.prefill_free_in_ms == doctest::Approx(37.626).epsilon(1e-6));
    CHECK(x.next_slot_ready_in_ms == 0.0);
    CHECK(x.predicted_total_backlog_ms == x.prefill_free_in_ms);
  }
  std::string json;
  InstanceTable names;
  names.Intern("a");
  names.Intern("b");
  q.AppendSnapshotJson(0.0, names, json);
  CHECK(json.rfind("{\"prepare_queue_depth\":0,\"ready_queue_depth\":0,\"per_instance\":{\"a\":{"
                   "\"prepare_queue_depth\":0,\"ready_queue_depth\":0,\"active_prepare\":0,"
                   "\"active_ready\":1,\"pending_prefill_count\":1,\"active_decode_count\":0,"
                   "\"next_slot_ready_in_ms\":0.0,\"prefill_free_in_ms\":",
                   0) == 0);
}

TEST_CASE("proxy queue: 8b116b6's snapshot has the four depths only, L1 versions none") {
  ProxyQueueConfig four;
  four.fields = QueueSnapshotFields::kFour;
  ProxyQueue q(four);
  q.Begin(0.0);
  q.Enqueue(Chat(0, 0, 1.0, 2.0), 0.0);
  InstanceTable names;
  names.Intern("a");
  std::string json;
  q.AppendSnapshotJson(0.0, names, json);
  CHECK(json ==
        "{\"prepare_queue_depth\":1,\"ready_queue_depth\":0,\"per_instance\":{\"a\":{"
        "\"prepare_queue_depth\":1,\"ready_queue_depth\":0,\"active_prepare\":0,"
        "\"active_ready\":0}}}");
  // No backlog yet (nothing reserved): the hint has no entry, the
  // standing load has the four depths.
  Hint hint;
  q.FillHint(0.0, hint);
  CHECK(hint.queues.empty());
  const QueueLoad* standing = q.StandingLoad(0);
  REQUIRE(standing);
  CHECK(standing->known[3]);  // prepare_queue_depth
  CHECK(standing->value[3] == 1.0);
  CHECK_FALSE(standing->known[5]);  // pending_prefill_count: L3's
  CHECK_FALSE(standing->known[7]);  // predicted_total_backlog_ms: L3's

  ProxyQueueConfig none;
  none.fields = QueueSnapshotFields::kNone;
  ProxyQueue l1(none);
  l1.Begin(0.0);
  l1.Enqueue(Chat(0, 0, 1.0, 2.0), 0.0);
  json.clear();
  l1.AppendSnapshotJson(0.0, names, json);
  CHECK(json.empty());
  l1.FillHint(0.0, hint);
  CHECK(hint.queues.empty());
  CHECK(l1.StandingLoad(0) == nullptr);
}

TEST_CASE("proxy queue: the hint holds the backlogged Instances, the standing loads the others") {
  ProxyQueue q(ProxyQueueConfig{});
  q.Begin(0.0);
  q.Enqueue(Chat(0, 0, 0.2, 0.5), 0.0);  // a reservation of 47.626 ms, first token at 0.2
  q.Enqueue(Chat(1, 1, 0.0, 0.3), 0.0);  // first token at once, ends at 0.3
  Timeline t;
  Run(q, t, q.Clock(0.01));
  Hint hint;
  q.FillHint(0.01, hint);
  // Instance 0 has its predicted prefill ahead: its whole entry is in the
  // hint. Instance 1's first token rebuilt its chain at 0: no backlog, one
  // decoding request, in its standing load only.
  REQUIRE(hint.queues.size() == 1);
  CHECK(hint.queues[0].instance == 0);
  CHECK(hint.queues[0].load.value[5] == 1.0);  // pending_prefill_count
  CHECK(hint.queues[0].load.value[7] == doctest::Approx(37.626).epsilon(1e-6));
  const QueueLoad* one = q.StandingLoad(1);
  REQUIRE(one);
  CHECK(one->value[2] == 1.0);  // active_ready
  CHECK(one->value[5] == 0.0);  // pending_prefill_count
  CHECK(one->value[6] == 1.0);  // active_decode_count
  CHECK(one->known[7]);
  CHECK(one->value[7] == 0.0);  // predicted_total_backlog_ms
  // At 0.1 the prediction has run out while Instance 0 still waits for its
  // first token: no backlog, its pending request in its standing load.
  Run(q, t, q.Clock(0.1));
  q.FillHint(0.1, hint);
  CHECK(hint.queues.empty());
  const QueueLoad* zero = q.StandingLoad(0);
  REQUIRE(zero);
  CHECK(zero->value[5] == 1.0);
  // Once both have ended, both are idle: no entry at all.
  Run(q, t);
  CHECK(q.StandingLoad(0) == nullptr);
  CHECK(q.StandingLoad(1) == nullptr);
}

TEST_CASE("proxy queue: the listed Instances are exactly those with a backlog, at every decision") {
  // Random arrivals over 12 Instances, some at one instant, token counts
  // that make reservations from 0 to about 80 ms, responses with and
  // without a first token; after each PrepareTimed the listed set must be
  // the snapshot's Instances whose predicted backlog is positive.
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    testing::SeededNumbers n(seed);
    ProxyQueue q(ProxyQueueConfig{});
    q.Begin(0.0);
    Timeline timeline;
    double t = 0.0;
    std::vector<InstanceIndex> ids;
    std::vector<QueueSnapshotEntry> entries;
    for (std::uint64_t r = 0; r < 600; ++r) {
      if (n.Below(4) != 0) t += static_cast<double>(n.Below(60)) * 0.001;
      Run(q, timeline, q.Clock(t));
      q.PrepareTimed(t);
      q.Snapshot(t, ids, entries);
      std::vector<InstanceIndex> expected;
      for (std::size_t k = 0; k < ids.size(); ++k)
        if (entries[k].predicted_total_backlog_ms > 0.0) expected.push_back(ids[k]);
      std::vector<InstanceIndex> listed(q.Instances().begin(), q.Instances().end());
      std::sort(expected.begin(), expected.end());
      std::sort(listed.begin(), listed.end());
      CHECK(listed == expected);
      const double ttft = static_cast<double>(n.Below(80)) * 0.001;
      ProxyQueue::Request request = Chat(static_cast<InstanceIndex>(n.Below(12)), r, ttft,
                                         ttft + static_cast<double>(n.Below(300)) * 0.001);
      request.input_tokens = n.Below(600);
      q.Enqueue(request, t);
    }
  }
}

TEST_CASE("proxy queue: a completions request stays pending for ever before 0927797") {
  for (const bool fixed : {false, true}) {
    CAPTURE(fixed);
    ProxyQueueConfig config;
    config.clears_ended_pending = fixed;
    ProxyQueue q(config);
    q.Begin(0.0);
    ProxyQueue::Request completions = Chat(0, 0, 0.0, 0.3);
    completions.completions = true;
    q.Enqueue(completions, 0.0);
    q.Enqueue(Chat(0, 1, 0.1, 0.2), 0.0);
    Timeline t;
    Run(q, t);
    // The completions request's one chunk is at its end: its first token.
    CHECK(t.first_token[0] == doctest::Approx(0.3).epsilon(1e-9));
    CHECK(t.ended[0] == doctest::Approx(0.3).epsilon(1e-9));
    if (fixed) {
      CHECK(q.unfinished() == 0);
      CHECK(t.forwarded[1] == doctest::Approx(0.3).epsilon(1e-9));
      CHECK_FALSE(q.StalledBehindCompletions());
    } else {
      CHECK(q.unfinished() == 1);
      CHECK(t.forwarded.size() == 1);  // r1 never forwarded
      CHECK(q.StalledBehindCompletions());
      std::vector<InstanceIndex> ids;
      std::vector<QueueSnapshotEntry> e;
      q.Snapshot(10.0, ids, e);
      CHECK(e[0].pending_prefill_count == 2);
      CHECK(e[0].active_ready == 1);  // r1, held by a worker for ever
    }
  }
}

TEST_CASE("proxy queue: a full ready queue holds a reserved putter and the prepare tasks") {
  ProxyQueue q(ProxyQueueConfig{});
  q.Begin(0.0);
  // 200 at once (r0 is dequeued at once), then 100 a millisecond later.
  Timeline t;
  for (std::uint64_t r = 0; r < 200; ++r) q.Enqueue(Chat(0, r, 100.0, 200.0), 0.0);
  Run(q, t, q.Clock(0.001));
  for (std::uint64_t r = 200; r < 300; ++r) q.Enqueue(Chat(0, r, 100.0, 200.0), 0.001);
  Run(q, t, q.Clock(0.002));
  std::vector<InstanceIndex> ids;
  std::vector<QueueSnapshotEntry> e;
  q.Snapshot(0.002, ids, e);
  // 256 on the queue, r257 reserved and waiting for room, 43 prepared.
  CHECK(e[0].ready_queue_depth == 256);
  CHECK(e[0].active_ready == 1);
  CHECK(e[0].pending_prefill_count == 258);
  CHECK(e[0].active_prepare == 8);  // 43 prepared tasks wait; 8 hold the semaphore
}

TEST_CASE("proxy queue: the clock of a millisecond trace") {
  ProxyQueueConfig config;
  config.milliseconds = true;
  ProxyQueue q(config);
  q.Begin(500.0);
  CHECK(q.Clock(500.0) == 1000000.0);
  CHECK(q.Clock(1500.0) == 1000001.0);
  CHECK(q.TraceTime(1000001.0) == 1500.0);
  q.Enqueue(Chat(0, 0, 100.0, 250.0), 500.0);
  q.Enqueue(Chat(0, 1, 100.0, 250.0), 500.0);
  Timeline t;
  Run(q, t);
  CHECK(t.first_token[0] == doctest::Approx(600.0).epsilon(1e-9));
  CHECK(t.forwarded[1] == doctest::Approx(600.0).epsilon(1e-9));
  CHECK(t.ended[1] == doctest::Approx(850.0).epsilon(1e-9));
}

TEST_CASE("proxy queue: Python's repr of a float") {
  const std::pair<double, const char*> cases[] = {
      {0.0, "0.0"},           {47.626, "47.626"},     {1000.0, "1000.0"},
      {1e16, "1e+16"},        {1e-5, "1e-05"},        {0.0001, "0.0001"},
      {1.5e-7, "1.5e-07"},    {123456789.0, "123456789.0"},
      {1234567890123456.0, "1234567890123456.0"}, {1e22, "1e+22"},
      {0.1, "0.1"},           {153.5929999081418, "153.5929999081418"},
      {-2.5, "-2.5"},         {2.5e-300, "2.5e-300"}};
  for (const auto& [x, text] : cases) {
    std::string out;
    AppendPythonFloat(out, x);
    CHECK(out == text);
  }
}

}  // namespace
}  // namespace lbsim

namespace lbsim {
namespace {

TEST_CASE("proxy queue: more than 256 arrivals at one instant to one Instance are refused") {
  ProxyQueue q(ProxyQueueConfig{});
  q.Begin(0.0);
  for (std::uint64_t r = 0; r < 256; ++r) q.Enqueue(Chat(0, r, 1.0, 2.0), 0.0);
  CHECK_THROWS_AS(q.Enqueue(Chat(0, 256, 1.0, 2.0), 0.0), InputError);
}

}  // namespace
}  // namespace lbsim
