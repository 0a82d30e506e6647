// ReadTraceAhead must be indistinguishable from ReadTrace to its visitor:
// the same header, events, ids, counts and errors, across batch
// boundaries, in both encodings, and whichever side fails first. Read for
// several consumers, each sees what ReadTrace shows one, and the error is
// the one feeding them in turn would meet first.

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "replay_fixture.h"
#include "trace_recording.h"
#include "base/errors.h"
#include "traces/read_ahead.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

using testing::RecordReading;
using testing::TempFile;
using testing::TraceReading;
using testing::TraceRecorder;

// Reads `text` as trace.<ext> both ways and checks they agree; returns the
// read-ahead's reading.
TraceReading CheckSame(const std::string& text, const std::string& ext,
                       TraceRecorder recorder = TraceRecorder()) {
  TempFile file(text, "trace." + ext);
  TraceReading direct = RecordReading(&ReadTrace, file.path(), TraceEncoding::kAuto, recorder);
  TraceReading ahead =
      RecordReading(&ReadTraceAhead, file.path(), TraceEncoding::kAuto, recorder);
  CHECK(ahead.seen.size() == direct.seen.size());
  CHECK(ahead.error == direct.error);
  CHECK(ahead == direct);
  return ahead;
}

// A trace of `events` events of every type and shape (registrations with
// and without weight, speed and load fields, load updates with values and
// nulls, for registered and unknown ids, downs, removals, arrivals with and
// without request ids, durations, token counts, hints and prefix blocks
// (with a hint and without); integral and fractional times), as JSON Lines
// or, with `document`, as a JSON document. Deterministic.
std::string MixedTrace(std::size_t events, bool document) {
  std::uint64_t state = 12345;
  auto next = [&](std::uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  auto value = [&](std::uint64_t n) {
    return next(6) == 0 ? std::string("null") : std::to_string(next(n));
  };
  std::vector<std::string> lines;
  int registered = 3;
  for (std::size_t i = 0; i < events; ++i) {
    const std::string t = fmt::format("{}", static_cast<double>(i) / 4.0);
    const std::string id = fmt::format("new-{}", next(registered));
    switch (next(14)) {
      case 0: {
        std::string extra;
        if (next(2)) extra += fmt::format(R"(, "weight": {})", 1 + next(3));
        if (next(3) == 0) extra += fmt::format(R"(, "speed": {}.5)", next(3));
        if (next(2)) extra += R"(, "inflight": )" + value(5);
        if (next(2)) extra += R"(, "qps_1m": )" + value(100);
        const std::string up = registered < 40 && next(2) ? fmt::format("new-{}", registered++) : id;
        lines.push_back(fmt::format(R"({{"t": {}, "type": "up", "instance": "{}"{}}})", t, up, extra));
        break;
      }
      case 1:
        lines.push_back(fmt::format(R"({{"t": {}, "type": "load", "instance": "{}", "inflight": {}, "qps_1m": {}}})",
                                    t, id, value(9), value(300)));
        break;
      case 2:
        lines.push_back(fmt::format(R"({{"t": {}, "type": "load", "instance": "{}", "{}": {}}})", t,
                                    next(5) ? id : "ghost", next(2) ? "inflight" : "qps_1m",
                                    value(9)));
        break;
      case 3:
        lines.push_back(fmt::format(R"({{"t": {}, "type": "{}", "instance": "{}"}})", t,
                                    next(4) ? "down" : "remove", id));
        break;
      case 4: {
        // Prefix blocks travel beside a packed arrival, or whole with a hint.
        const std::string hint =
            next(3) == 0 ? fmt::format(R"(, "hint": {{"queue_depths": {{"per_instance": {{"{}": {{"queue_depth": 1}}}}}}}})", id)
                         : std::string();
        lines.push_back(fmt::format(
            R"({{"t": {}, "type": "arrival", "request": "req-{}", "duration": {}, "prefix_blocks": [{}, {}]{}}})",
            t, i, next(50), next(4), next(4), hint));
        break;
      }
      case 5:
        lines.push_back(fmt::format(
            R"({{"t": {}, "type": "arrival", "hint": {{"queue_depths": {{"per_instance": {{"{}": {{"queue_depth": {}, "active_decode_count": 2}}}}}}}}}})",
            t, id, next(7)));
        break;
      case 6:
        lines.push_back(fmt::format(R"({{"t": {}, "type": "arrival", "request": "r\u00e9q {}"}})", t, i));
        break;
      case 7:
        lines.push_back(fmt::format(R"({{"t": {}, "type": "arrival"}})", t));
        break;
      case 8:
        lines.push_back(fmt::format(
            R"({{"t": {}, "type": "arrival", "duration": 1, "input_tokens": {}, "output_tokens": {}}})",
            t, next(9000), next(2) ? next(400) : 4294967296 + next(3)));
        break;
      case 9:
        lines.push_back(fmt::format(R"({{"t": {}, "type": "arrival", "request": "q{}", "input_tokens": {}}})",
                                    t, i, next(9)));
        break;
      default:
        lines.push_back(fmt::format(R"({{"t": {}, "type": "arrival", "duration": {}.{}}})", t, next(90), next(10)));
    }
  }
  const std::string header =
      R"("lbsim_trace": 1, "name": "mixed", "prefix_block_tokens": 512, "instances": [{"id": "new-0", "inflight": 0}, {"id": "new-1"}, {"id": "new-2", "qps_1m": 3}])";
  std::string text;
  if (document) {
    text = "{" + header + ", \"events\": [\n";
    for (std::size_t i = 0; i < lines.size(); ++i) text += (i ? ",\n" : "") + lines[i];
    text += "\n]}\n";
  } else {
    text = "{" + header + "}\n";
    for (const std::string& line : lines) text += line + "\n";
  }
  return text;
}

// Batches of the read-ahead, and a trace longer than its ring holds, which
// ends inside a batch: the reader fills the ring and waits for the visitor.
constexpr std::size_t kBatch = kReadAheadBatchEvents;
constexpr std::size_t kManyEvents = (kReadAheadBatches + 1) * kBatch + kBatch / 2;

TEST_CASE("read-ahead: the visitor sees what ReadTrace shows it, across many batches") {
  for (bool document : {false, true}) {
    CAPTURE(document);
    TraceReading r = CheckSame(MixedTrace(kManyEvents, document), document ? "json" : "ndjson");
    CHECK(r.error.empty());
    CHECK(r.seen.size() == kManyEvents + 1);  // the header and every event
    CHECK(r.ids.size() > 3);       // `up` events registered new ids
  }
}

TEST_CASE("read-ahead: progress follows the events visited, not the reading ahead") {
  // A trace of a few MiB, so that the reader reports progress, and a ring's
  // worth more than the visitor has seen at any time.
  const std::string text = MixedTrace(3 * kManyEvents, false);
  TempFile file(text, "trace.ndjson");
  struct Visited final : TraceVisitor {
    std::uint64_t events = 0;
    void OnHeader(const TraceHeader&, const InstanceTable&) override {}
    void OnEvent(const TraceEvent&) override { ++events; }
  } visitor;
  struct Heard final : TraceProgress {
    const Visited* visitor = nullptr;
    std::uint64_t updates = 0, last_done = 0, total = 0;
    bool events_match = true, done_rises = true;
    void Update(std::uint64_t done, std::uint64_t of, std::uint64_t events) override {
      ++updates;
      events_match = events_match && events == visitor->events;  // heard on the visiting side
      done_rises = done_rises && done >= last_done;
      last_done = done;
      total = of;
    }
  } heard;
  heard.visitor = &visitor;
  InstanceTable table;
  ReadTraceAhead(file.path(), TraceEncoding::kAuto, table, visitor, &heard);
  CHECK(heard.updates > 100);
  CHECK(heard.events_match);
  CHECK(heard.done_rises);
  CHECK(heard.total == text.size());
  CHECK(heard.last_done <= text.size());
}

TEST_CASE("read-ahead: a slow visitor sees every event while the reader waits on a full ring") {
  // Paused in the first batch, the visitor holds it while the reader fills
  // the rest of the ring and must wait rather than refill the held batch.
  TraceRecorder recorder;
  recorder.pause_at = 1;
  recorder.pause = std::chrono::milliseconds(300);
  TraceReading r = CheckSame(MixedTrace(kManyEvents, false), "ndjson", recorder);
  CHECK(r.error.empty());
  CHECK(r.seen.size() == kManyEvents + 1);
}

TEST_CASE("read-ahead: raw hints reach a visitor that asks for them") {
  TraceReading r = CheckSame(MixedTrace(3000, false), "ndjson", TraceRecorder(/*raw_hint=*/true));
  bool any_raw = false;
  for (const std::string& s : r.seen) any_raw = any_raw || s.find("raw={") != std::string::npos;
  CHECK(any_raw);
}

TEST_CASE("read-ahead: a header without events, and a trace that ends in a full batch") {
  CheckSame(MixedTrace(0, false), "ndjson");
  CheckSame(MixedTrace(kBatch, false), "ndjson");
  CheckSame(MixedTrace(2 * kBatch, true), "json");
}

TEST_CASE("read-ahead: a reader error far into the trace comes after every event before it") {
  std::string text = MixedTrace(4 * kBatch, false);
  // Break a line in the third batch (the header is line 1).
  const std::size_t broken = 3 * kBatch - 70;
  std::size_t at = 0;
  for (std::size_t line = 1; line < broken; ++line) at = text.find('\n', at) + 1;
  text.insert(at, "{\"t\": oops}\n");
  TraceReading r = CheckSame(text, "ndjson");
  CHECK(r.error.find(fmt::format(":{}: ", broken)) != std::string::npos);
  CHECK(r.seen.size() == broken - 1);
}

TEST_CASE("read-ahead: a visitor error names the event's line or index, and stops the reader") {
  for (bool input_error : {false, true}) {
    for (std::size_t fail_at : {std::size_t{0}, kBatch + kBatch / 2, kManyEvents - 1}) {
      CAPTURE(input_error);
      CAPTURE(fail_at);
      TraceRecorder recorder;
      recorder.fail_at = fail_at;
      recorder.input_error = input_error;
      TraceReading lines = CheckSame(MixedTrace(kManyEvents, false), "ndjson", recorder);
      CHECK(lines.error.find(fmt::format(":{}: ", fail_at + 2)) != std::string::npos);
      CHECK(lines.error.find("the visitor refuses this one") != std::string::npos);
      TraceReading doc = CheckSame(MixedTrace(kManyEvents, true), "json", recorder);
      CHECK(doc.error.find(fmt::format(": events[{}]: ", fail_at)) != std::string::npos);
    }
  }
}

TEST_CASE("read-ahead: a visitor error before a reader error wins, as in file order") {
  std::string text = MixedTrace(4 * kBatch, false) + "not json\n";
  TraceRecorder recorder;
  recorder.fail_at = 100;
  TraceReading r = CheckSame(text, "ndjson", recorder);
  CHECK(r.error.find(":102: ") != std::string::npos);
}

// Proxy hints on every arrival, as select_instance builds them, the hint
// the line's last value: the lines a reader may leave their hint unread
// for the visiting side (see ProxyLine), over these Instances.
constexpr const char* kProxyHeader =
    R"({"lbsim_trace": 1, "instances": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}]})"
    "\n";

// One entry as select_instance writes it, its numbers from `k`.
std::string ProxyEntry(const std::string& id, std::size_t k) {
  return fmt::format(
      R"("{}": {{"prepare_queue_depth": {}, "ready_queue_depth": {}, "active_prepare": {}, )"
      R"("active_ready": 0, "pending_prefill_count": 1, "active_decode_count": {}, )"
      R"("next_slot_ready_in_ms": {}.25, "prefill_free_in_ms": 0.0, )"
      R"("predicted_total_backlog_ms": {}}})",
      id, k % 7, k % 3, k % 2, 10 + k % 30, k * 3, k % 5 == 0 ? "null" : std::to_string(k) + ".5");
}

// An arrival at `k` ms whose hint has an entry for each of `ids`, and
// `after` between the hint and the line's closing brace.
std::string ProxyLine(std::size_t k, const std::vector<std::string>& ids,
                      const std::string& after = "") {
  std::string entries;
  for (std::size_t i = 0; i < ids.size(); ++i)
    entries += (i ? ", " : "") + ProxyEntry(ids[i], k + i);
  return fmt::format(
      R"({{"t": {}.{:03}, "type": "arrival", "request": "r{}", "duration": 0.5, "hint": )"
      R"({{"queue_depths": {{"prepare_queue_depth": {}, "ready_queue_depth": 1, )"
      R"("per_instance": {{{}}}}}}}{}}})"
      "\n",
      k / 1000, k % 1000, k, k % 9, entries, after);
}

// Reads `text`, JSON Lines, with ReadTrace as it is, with ReadTrace
// through a visitor that takes `share` eighths of the hints unread and
// reads them itself as the read-ahead's visiting side does, and with
// ReadTraceAhead; checks the three agree and returns the second.
TraceReading CheckDeferred(const std::string& text, std::uint8_t share = 8) {
  TempFile file(text, "trace.ndjson");
  const TraceReading direct =
      RecordReading(&ReadTrace, file.path(), TraceEncoding::kAuto, TraceRecorder());
  TraceRecorder deferring;
  deferring.deferred_share = share;
  TraceReading deferred = RecordReading(&ReadTrace, file.path(), TraceEncoding::kAuto, deferring);
  CHECK(deferred.error == direct.error);
  CHECK(deferred.NearMisses() == direct.NearMisses());
  CHECK(deferred == direct);
  const TraceReading ahead =
      RecordReading(&ReadTraceAhead, file.path(), TraceEncoding::kAuto, TraceRecorder());
  CHECK(ahead.error == direct.error);
  CHECK(ahead == direct);
  return deferred;
}

TEST_CASE("read-ahead: hints left to the visiting side decode as the reader decodes them") {
  const std::vector<std::string> all = {"a", "b", "c", "d"};
  std::string text = kProxyHeader;
  std::size_t k = 0;
  // Learned, then read by the layout on either side.
  for (int i = 0; i < 40; ++i) text += ProxyLine(k++, all);
  // Entries of another layout, an Instance more or less, in another order.
  for (int i = 0; i < 10; ++i) text += ProxyLine(k++, {"d", "b", "a"});
  text += ProxyLine(k++, {"a", "b", "c", "d", "ghost"});  // never registered
  for (int i = 0; i < 10; ++i) {
    // Keys left out and in a hash map's order (read by the punctuation).
    text += fmt::format(
        R"({{"t": {}, "type": "arrival", "request": "x{}", "duration": 0.5, "hint": )"
        R"({{"queue_depths": {{"prepare_queue_depth": 1, "ready_queue_depth": 1, "per_instance": )"
        R"({{"c": {{"active_decode_count": {}, "queue_depth": 2}}, "a": {{"ready_queue_depth": 1}}}}}}}}}})"
        "\n",
        k++ / 1000.0, i, i);
  }
  // What a layout never reads: an exponent, a float() string, a number past
  // the double range, an empty and a null hint, a hint of another shape.
  const std::string base = ProxyLine(k++, {"a"});
  std::string odd = base;
  odd.replace(odd.find("\"active_ready\": 0"), 17, "\"active_ready\": 1e2");
  text += odd;
  odd = base;
  odd.replace(odd.find("\"active_ready\": 0"), 17, "\"active_ready\": \"3\"");
  text += odd;
  odd = base;
  odd.replace(odd.find("\"active_ready\": 0"), 17, "\"active_ready\": 1" + std::string(400, '0'));
  text += odd;
  text += fmt::format(R"({{"t": {}, "type": "arrival", "request": "e", "duration": 0.5, "hint": {{}}}})" "\n", k++ / 1000.0);
  text += fmt::format(R"({{"t": {}, "type": "arrival", "request": "n", "duration": 0.5, "hint": null}})" "\n", k++ / 1000.0);
  text += fmt::format(R"({{"t": {}, "type": "arrival", "request": "s", "duration": 0.5, "hint": [1, {{"a": 2}}]}})" "\n", k++ / 1000.0);
  // Another member after the hint: its key a near miss the first time.
  text += ProxyLine(k++, all, R"(, "duraton": {"x": 1})");
  text += ProxyLine(k++, all, R"(, "extra": 2)");
  for (int i = 0; i < 20; ++i) text += ProxyLine(k++, all);

  const TraceReading deferred = CheckDeferred(text);
  CHECK(deferred.error.empty());
  CHECK(deferred.seen.size() == 1 + 40 + 10 + 1 + 10 + 3 + 3 + 2 + 20);
  CHECK(deferred.deferred_read > 60);  // every line a layout read
  REQUIRE(deferred.NearMisses().size() == 1);
  CHECK(deferred.NearMisses()[0].find("duraton ~ duration at line") == 0);
  for (std::uint8_t share : {0, 1, 4, 7}) {
    CAPTURE(static_cast<int>(share));
    CheckDeferred(text, share);
  }
  // Read by a pinned Proxy: float() reads the string, the large integer overflows.
  std::string pinned = text;
  pinned.replace(pinned.find("\"instances\""), 0, R"("proxy": "cacheroute@df8382d", )");
  CHECK(CheckDeferred(pinned).error.empty());
}

TEST_CASE("read-ahead: a hint left to the visiting side fails as the reader fails on it") {
  const std::vector<std::string> all = {"a", "b", "c", "d"};
  std::string good = kProxyHeader;
  for (std::size_t k = 0; k < 30; ++k) good += ProxyLine(k, all);
  const std::string line = ProxyLine(30, all);
  auto broken = [&](const std::string& from, const std::string& to) {
    std::string bad = line;
    bad.replace(bad.find(from), from.size(), to);
    return good + bad + ProxyLine(31, all);
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"\"active_ready\": 0", "\"active_ready\": "},          // no value
      {"\"active_ready\": 0", "\"active_ready\": 0,"},        // a trailing comma
      {"\"b\": {", "\"a\": {"},                               // an Instance named twice
      {"\"active_ready\": 0", "\"active_ready\": 0, \"active_ready\": 1"},  // a key twice
      {"\"ready_queue_depth\": 1, ",  // nested past the scanner's depth
       "\"ready_queue_depth\": " + std::string(600, '[') + std::string(600, ']') + ", "},
  };
  for (const auto& [from, to] : cases) {
    CAPTURE(to);
    const TraceReading r = CheckDeferred(broken(from, to));
    CHECK(r.error.find(":32: ") != std::string::npos);
    CHECK(r.deferred_read > 20);
  }
  // A second `t` after the hint: the decoder's to refuse.
  const TraceReading twice = CheckDeferred(good + ProxyLine(30, all, R"(, "t": 9)"));
  CHECK(twice.error.find(":32: ") != std::string::npos);
  // A hint that is not JSON at all, and a line that is not one value.
  CHECK(CheckDeferred(good + ProxyLine(30, all, "}{")).error.find(":32: ") != std::string::npos);
}

TEST_CASE("read-ahead: errors before any event (no file, bad header) are ReadTrace's") {
  CheckSame("{\"lbsim_trace\": 2}\n", "ndjson");
  CheckSame("", "ndjson");
  // No encoding in the name: told by the content, the same both ways.
  CheckSame("{\"lbsim_trace\": 1}\n{\"t\": 0, \"type\": \"arrival\"}\n", "txt");
  CHECK(CheckSame("x\n", "txt").error.find("cannot tell the trace encoding") != std::string::npos);
  TraceRecorder recorder;
  InstanceTable table;
  CHECK_THROWS_AS(ReadTraceAhead("/nonexistent/trace.ndjson", TraceEncoding::kAuto, table,
                                 recorder),
                  InputError);
}

// Reads `path` once for copies of `recorders`, one consumer each: what
// each saw (the counts are the reading's), or the one error.
struct SharedReading {
  std::vector<TraceReading> each;
  std::string error;
};
SharedReading ReadShared(const std::string& path, std::vector<TraceRecorder> recorders) {
  std::vector<InstanceTable> tables(recorders.size());
  std::vector<TraceConsumer> consumers;
  for (std::size_t k = 0; k < recorders.size(); ++k)
    consumers.push_back({&tables[k], &recorders[k]});
  SharedReading r;
  TraceCounts counts;
  try {
    counts = ReadTraceAhead(path, TraceEncoding::kAuto, consumers);
  } catch (const InputError& e) {
    r.error = e.what();
  }
  for (std::size_t k = 0; k < recorders.size(); ++k) {
    TraceReading one;
    one.seen = recorders[k].seen;
    one.ids = tables[k].Ids();
    one.counts = counts;
    r.each.push_back(std::move(one));
  }
  return r;
}

// The same reading from a pipe (a FIFO fed by a thread), which is not read
// ahead: the consumers are fed in turn on the calling thread.
SharedReading ReadSharedFromPipe(const std::string& text, std::vector<TraceRecorder> recorders) {
  TempFile dir("", "unused");
  const std::string path = dir.dir() + "/trace.ndjson";
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  std::thread writer([&] {
    // A reading that stops early closes the pipe: the write then fails
    // with EPIPE, and the SIGPIPE, blocked here, goes with the thread.
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
    const int fd = ::open(path.c_str(), O_WRONLY);
    if (fd < 0) return;
    for (std::size_t at = 0; at < text.size();) {
      const ssize_t n = ::write(fd, text.data() + at, text.size() - at);
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    ::close(fd);
  });
  SharedReading r = ReadShared(path, std::move(recorders));
  writer.join();
  return r;
}

TEST_CASE("read-ahead: several consumers each see what ReadTrace shows one") {
  for (bool document : {false, true}) {
    CAPTURE(document);
    TempFile file(MixedTrace(kManyEvents, document), document ? "trace.json" : "trace.ndjson");
    const TraceReading direct =
        RecordReading(&ReadTrace, file.path(), TraceEncoding::kAuto, TraceRecorder());
    REQUIRE(direct.error.empty());
    TraceRecorder slow;  // the others run ahead of it until the ring is full
    slow.pause_at = kBatch;
    slow.pause = std::chrono::milliseconds(50);
    const SharedReading shared = ReadShared(file.path(), {TraceRecorder(), slow, TraceRecorder()});
    CHECK(shared.error.empty());
    for (const TraceReading& one : shared.each) CHECK(one == direct);
  }
  const SharedReading piped =
      ReadSharedFromPipe(MixedTrace(kManyEvents, false), {TraceRecorder(), TraceRecorder()});
  TempFile file(MixedTrace(kManyEvents, false), "trace.ndjson");
  const TraceReading direct =
      RecordReading(&ReadTrace, file.path(), TraceEncoding::kAuto, TraceRecorder());
  CHECK(piped.error.empty());
  for (const TraceReading& one : piped.each) CHECK(one.seen == direct.seen);
}

TEST_CASE("read-ahead: of several consumers' failures, the one met first in turn wins") {
  auto failing = [](std::size_t at, std::size_t rank, std::string refusal) {
    TraceRecorder r;
    r.fail_at = at;
    r.rank = rank;
    r.refusal = std::move(refusal);
    return r;
  };
  struct Case {
    std::vector<TraceRecorder> recorders;
    std::string line;  // ":LINE: " of the error (the header is line 1)
    std::string refusal;
  };
  const std::vector<Case> cases = {
      // The earliest event first, whoever fails there.
      {{failing(3 * kBatch, 0, "zero"), failing(300, 5, "one"), TraceRecorder()}, ":302: ", "one"},
      // At one event, the lowest rank, then the first consumer.
      {{failing(700, 4, "zero"), TraceRecorder(), failing(700, 2, "two")}, ":702: ", "two"},
      {{failing(700, 2, "zero"), TraceRecorder(), failing(700, 2, "two")}, ":702: ", "zero"},
      {{TraceRecorder(), failing(0, 1, "one"), failing(0, 0, "two")}, ":2: ", "two"},
  };
  for (bool piped : {false, true}) {
    for (const Case& c : cases) {
      CAPTURE(piped);
      CAPTURE(c.refusal);
      // A reader error after them all comes last.
      const std::string text = MixedTrace(kManyEvents, false) + "not json\n";
      TempFile file(text, "trace.ndjson");
      const SharedReading r =
          piped ? ReadSharedFromPipe(text, c.recorders) : ReadShared(file.path(), c.recorders);
      CHECK(r.error.find(c.line) != std::string::npos);
      CHECK(r.error.find(c.refusal) != std::string::npos);
    }
  }
  // At the header, a later consumer's lower rank still wins, however soon
  // the first one fails there.
  for (int i = 0; i < 20; ++i) {
    TraceRecorder first = failing(0, 5, "zero"), second = failing(0, 2, "one");
    first.fail_at_header = second.fail_at_header = true;
    TempFile file(MixedTrace(3 * kBatch, false), "trace.ndjson");
    const SharedReading r = ReadShared(file.path(), {first, second});
    CHECK(r.error.find(": header: one") != std::string::npos);
  }

  // Only the reader fails: every consumer saw every event before it.
  const std::string text = MixedTrace(2 * kBatch, false) + "not json\n";
  TempFile file(text, "trace.ndjson");
  const SharedReading r = ReadShared(file.path(), {TraceRecorder(), TraceRecorder()});
  CHECK(r.error.find(fmt::format(":{}: ", 2 * kBatch + 2)) != std::string::npos);
  for (const TraceReading& one : r.each) CHECK(one.seen.size() == 2 * kBatch + 1);
}

}  // namespace
}  // namespace lbsim
