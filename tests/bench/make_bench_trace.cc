#include "make_bench_trace.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace lbsim::bench {
namespace {

// The keys of a Proxy-built hint's entry, in the Proxy's order: six counts,
// then three times.
constexpr const char* kProxyKeys[] = {
    "prepare_queue_depth",   "ready_queue_depth",    "active_prepare",
    "active_ready",          "pending_prefill_count", "active_decode_count",
    "next_slot_ready_in_ms", "prefill_free_in_ms",   "predicted_total_backlog_ms"};

}  // namespace

BenchTraceShape RealisticShape() {
  BenchTraceShape shape;
  shape.ids = IdStyle::kUuid;
  shape.times = TimeStyle::kFractionalSeconds;
  shape.hint_percent = 10;
  shape.float_loads = true;
  return shape;
}

std::string Describe(const BenchTraceShape& shape) {
  const char* ids = shape.ids == IdStyle::kNone ? "no ids" : shape.ids == IdStyle::kShort ? "short ids" : "UUID ids";
  const char* times = shape.times == TimeStyle::kIntegerMs           ? "integer ms"
                      : shape.times == TimeStyle::kFractionalSeconds ? "fractional s"
                                                                     : "Unix s";
  return fmt::format("{}{}, {}, {}% {}{}hints{}{}{}{}{}{}{}{}",
                     shape.instances == 16 ? "" : fmt::format("{} Instances, ", shape.instances),
                     ids, times, shape.hint_percent,
                     shape.varying_hints ? "varying " : "",
                     shape.exported_hints ? "exported Proxy-built "
                     : shape.proxy_hints  ? "Proxy-built "
                                          : "",
                     shape.float_loads ? ", float loads" : "",
                     shape.log_keys ? ", Proxy log keys" : "",
                     shape.chat_bodies ? ", chat bodies" : "",
                     shape.sparse_keys ? ", keys that come and go" : "",
                     shape.prefix_blocks ? ", prefix blocks" : "",
                     shape.script ? ", as a script writes it" : "",
                     shape.long_requests ? ", 1-20 s requests" : "",
                     shape.document ? ", a JSON document" : "");
}

std::uint64_t WriteBenchTrace(const std::string& path, const BenchTraceShape& shape) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + path);
  std::mt19937_64 rng(shape.seed);
  auto uniform = [&rng](std::uint64_t n) { return rng() % n; };
  const bool seconds = shape.times != TimeStyle::kIntegerMs;

  std::string out = fmt::format(R"({{"lbsim_trace": 1, "name": "bench", "time_unit": "{}", "instances": [)",
                                seconds ? "s" : "ms");
  for (std::uint32_t i = 0; i < shape.instances; ++i)
    out += fmt::format(R"({}{{"id": "inst-{:05}", "inflight": 0, "qps_1m": 0}})", i ? ", " : "", i);
  out += shape.document ? "],\n\"events\": [\n" : "]}\n";

  std::uint64_t events = 0;
  // Events are lines of JSON Lines, or elements of the document's array.
  auto event = [&](const std::string& text) {
    if (shape.document && events > 0) out += ",\n";
    out += text;
    if (!shape.document) out += '\n';
    ++events;
  };
  // A time (and a duration) in the trace's unit: ms ticks, or seconds with
  // microseconds as a Proxy log writes them.
  auto time_text = [&](std::uint64_t micros) {
    return seconds ? fmt::format("{}.{:06}", micros / 1'000'000, micros % 1'000'000)
                   : fmt::format("{}", micros / 1000);
  };
  // An event's time: Unix seconds carry a seventh decimal (the same for
  // events at the same microsecond, so times never go back).
  constexpr std::uint64_t kUnixStart = 1'764'750'000;
  auto event_time = [&](std::uint64_t micros) {
    if (shape.times != TimeStyle::kUnixSeconds) return time_text(micros);
    return fmt::format("{}.{:06}{}", kUnixStart + micros / 1'000'000, micros % 1'000'000,
                       micros * 7 % 10);
  };
  auto log_keys = [&]() -> std::string {
    if (!shape.log_keys) return "";
    return fmt::format(R"(, "model": "llama-3.1-8b-instruct", "stream": {}, "instance": "inst-{:05}")",
                       uniform(4) == 0 ? "false" : "true", uniform(shape.instances));
  };
  auto chat_body = [&]() -> std::string {
    if (!shape.chat_bodies) return "";
    static constexpr std::string_view kWords[] = {
        "route", "the", "request", "to", "an", "instance", "with", "least", "load", "and",
        "explain", "why", "cache", "prefix", "tokens", "in", "a", "short", "answer", "please",
        "summarize", "this", "document", "\\\"quoted\\\"", "line\\nbreak", "for", "me", "today"};
    std::string text;
    for (std::uint64_t n = 8 + uniform(73); n > 0; --n) {
      if (!text.empty()) text += ' ';
      text += kWords[uniform(std::size(kWords))];
    }
    return R"(, "messages": [{"role": "system", "content": "You are a helpful assistant."}, )"
           R"({"role": "user", "content": ")" + text + R"("}])";
  };
  auto sparse_keys = [&]() -> std::string {
    if (!shape.sparse_keys) return "";
    std::string keys;
    if (uniform(2)) keys += fmt::format(R"(, "user": "u-{}")", uniform(1000));
    if (uniform(2)) keys += R"(, "stream": true)";
    if (uniform(2)) keys += fmt::format(R"(, "priority": {})", 1 + uniform(3));
    if (uniform(2)) keys += fmt::format(R"(, "session": "s-{:08x}")", uniform(1u << 31));
    return keys;
  };
  // Prompt p's shared blocks are ids p * 64 .. p * 64 + 39; a request's own
  // come after every shared one.
  std::uint64_t own_block = 300 * 64;
  auto prefix_blocks = [&]() -> std::string {
    if (!shape.prefix_blocks) return "";
    std::string ids;
    const std::uint64_t prompt = uniform(300);
    for (std::uint64_t k = 0, n = 4 + uniform(37); k < n; ++k)
      ids += fmt::format("{}{}", ids.empty() ? "" : ", ", prompt * 64 + k);
    for (std::uint64_t k = uniform(11); k > 0; --k)
      ids += fmt::format("{}{}", ids.empty() ? "" : ", ", own_block++);
    return R"(, "prefix_blocks": [)" + ids + "]";
  };
  auto request = [&](std::uint64_t a) -> std::string {
    switch (shape.ids) {
      case IdStyle::kNone: return "";
      case IdStyle::kShort: return fmt::format(R"(, "request": "r{}")", a);
      case IdStyle::kUuid: {
        const std::uint64_t hi = rng(), lo = rng();
        return fmt::format(R"(, "request": "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}")", hi >> 32,
                           (hi >> 16) & 0xffff, hi & 0xfff, 0x8000 | (lo >> 48 & 0x3fff),
                           lo & 0xffffffffffffull);
      }
    }
    return "";
  };
  // A float time in ms as the Proxy computes it: 0.0 half the time.
  auto proxy_ms = [&]() {
    return uniform(2) == 0 ? 0.0 : static_cast<double>(rng() >> 11) * 0x1p-53 * 400.0;
  };
  // A float as Python's json.dumps writes it: the shortest digits that
  // read back to it, with a ".0" on an integral one.
  auto python_float = [](double v) {
    const std::string text = fmt::format("{}", v);
    return text.find_first_of(".e") == std::string::npos ? text + ".0" : text;
  };
  auto hint = [&]() {
    std::string map;
    std::uint64_t prepare_total = 0, ready_total = 0;
    const auto first =
        shape.varying_hints ? static_cast<std::uint32_t>(uniform(shape.instances)) : 0u;
    for (std::uint32_t k = 0; k < shape.instances; ++k) {
      if (shape.varying_hints && uniform(8) == 0) continue;
      const std::string_view apart = map.empty() ? "" : ", ";
      const std::uint32_t instance = (first + k) % shape.instances;
      if (!shape.proxy_hints) {
        map += fmt::format(
            R"({}"inst-{:05}": {{"active_prepare": {}, "active_ready": {}, "prepare_queue_depth": {}, "ready_queue_depth": {}}})",
            apart, instance, uniform(3), uniform(4), uniform(6), uniform(6));
        continue;
      }
      const std::uint64_t prepare = uniform(6), ready = uniform(6);
      const std::uint64_t active_prepare = uniform(3), active_ready = uniform(4);
      const std::uint64_t pending_prefill = uniform(3), active_decode = uniform(9);
      const double next_slot = proxy_ms(), prefill_free = proxy_ms();
      prepare_total += prepare;
      ready_total += ready;
      // The Proxy's members in its order; an exporter drops the zero ones
      // and shuffles the rest.
      const std::uint64_t counts[] = {prepare,      ready,           active_prepare,
                                      active_ready, pending_prefill, active_decode};
      const double times[] = {next_slot, prefill_free, std::max(next_slot, prefill_free)};
      std::vector<std::string> members;
      for (std::size_t i = 0; i < std::size(counts); ++i)
        if (!shape.exported_hints || counts[i] != 0)
          members.push_back(fmt::format(R"("{}": {})", kProxyKeys[i], counts[i]));
      for (std::size_t i = 0; i < std::size(times); ++i)
        if (!shape.exported_hints || times[i] != 0.0)
          members.push_back(fmt::format(R"("{}": {})", kProxyKeys[6 + i], python_float(times[i])));
      if (shape.exported_hints)
        for (std::size_t i = members.size(); i > 1; --i) std::swap(members[i - 1], members[uniform(i)]);
      map += fmt::format(R"({}"inst-{:05}": {{{}}})", apart, instance, fmt::join(members, ", "));
    }
    // A script's hint carries the request beside its queues.
    const std::string request =
        !shape.script
            ? ""
            : fmt::format(
                  R"("request": {{"request_id": "chatcmpl-{:016x}", "model": "llama-3.1-8b-instruct", "prompt_tokens": {}, "max_tokens": 256, "stream": {}}}, )",
                  rng(), uniform(4000), uniform(4) == 0 ? "false" : "true");
    if (!shape.proxy_hints)
      return R"(, "hint": {)" + request + R"("queue_depths": {"per_instance": {)" + map + "}}}";
    return fmt::format(
        R"(, "hint": {{{}"queue_depths": {{"prepare_queue_depth": {}, "ready_queue_depth": {}, "per_instance": {{{}}}}}}})",
        request, prepare_total, ready_total, map);
  };

  std::uint64_t micros = 0;
  double script_seconds = 0.0;  // a script's time: a float summed step by step
  auto below_one = [&]() { return static_cast<double>(rng() >> 11) * 0x1p-53; };
  for (std::uint64_t a = 1; a <= shape.arrivals; ++a) {
    const std::uint64_t step = uniform(shape.max_gap_us);
    micros += step;
    const std::uint64_t duration = shape.long_requests
                                       ? (1000 + uniform(19000)) * 1000 + uniform(1000)
                                       : (20 + uniform(400)) * 1000 + uniform(1000);
    std::string t = event_time(micros);
    std::string duration_member = fmt::format(R"(, "duration": {})", time_text(duration));
    if (shape.script) {
      script_seconds += (static_cast<double>(step) + below_one()) * 1e-6;
      t = python_float(script_seconds);
      duration_member =
          uniform(10) < 8
              ? fmt::format(R"(, "duration": {})",
                            python_float((static_cast<double>(duration) + below_one()) * 1e-6))
              : "";
    }
    const std::string id =
        (shape.script && uniform(10) >= 7 ? "" : request(a)) + log_keys() + chat_body() +
        sparse_keys() + prefix_blocks();
    if (shape.hint_percent && uniform(100) < shape.hint_percent) {
      event(fmt::format(R"({{"t": {}, "type": "arrival"{}{}{}}})", t, id, duration_member,
                        hint()));
    } else if (shape.arrivals_per_hint && a % shape.arrivals_per_hint == 0) {
      // Two distinct Instances: a trace refuses a key repeated in one object.
      const std::uint64_t first = uniform(shape.instances);
      const std::uint64_t queue = uniform(8), decode = uniform(4);
      const std::uint64_t second =
          shape.instances > 1 ? (first + 1 + uniform(shape.instances - 1)) % shape.instances
                              : first;
      const std::uint64_t prefill = uniform(3);
      if (second == first) {
        event(fmt::format(
            R"({{"t": {}, "type": "arrival"{}{}, "hint": {{"queue_depths": )"
            R"({{"per_instance": {{"inst-{:05}": {{"queue_depth": {}, "active_decode_count": {}}}}}}}}}}})",
            t, id, duration_member, first, queue, decode));
      } else {
        event(fmt::format(
            R"({{"t": {}, "type": "arrival"{}{}, "hint": {{"queue_depths": )"
            R"({{"per_instance": {{"inst-{:05}": {{"queue_depth": {}, "active_decode_count": {}}}, )"
            R"("inst-{:05}": {{"pending_prefill_count": {}}}}}}}}}}})",
            t, id, duration_member, first, queue, decode, second, prefill));
      }
    } else {
      event(fmt::format(R"({{"t": {}, "type": "arrival"{}{}}})", t, id, duration_member));
    }
    if (a % shape.arrivals_per_snapshot == 0) {
      const std::uint64_t instance = uniform(shape.instances);
      if (shape.script) {
        const bool null = uniform(20) == 0;
        const std::uint64_t inflight = uniform(12);
        const std::string qps =
            uniform(10) < 7 ? fmt::format(R"(, "qps_1m": {}.{:02})", uniform(300), uniform(100))
                            : "";
        event(fmt::format(R"({{"t": {}, "type": "load", "instance": "inst-{:05}", "inflight": {}{}}})",
                          t, instance, null ? "null" : std::to_string(inflight), qps));
      } else if (shape.float_loads) {
        const bool null = uniform(20) == 0;
        event(fmt::format(
            R"({{"t": {}, "type": "load", "instance": "inst-{:05}", "inflight": {}, "qps_1m": {}}})",
            t, instance, null ? "null" : fmt::format("{}", uniform(12)),
            fmt::format("{}.{:02}", uniform(300), uniform(100))));
      } else {
        event(fmt::format(
            R"({{"t": {}, "type": "load", "instance": "inst-{:05}", "inflight": {}, "qps_1m": {}}})",
            t, instance, uniform(12), uniform(300)));
      }
    }
    if (out.size() > (1u << 20)) {
      std::fwrite(out.data(), 1, out.size(), f);
      out.clear();
    }
  }
  if (shape.document) out += "\n]}\n";
  std::fwrite(out.data(), 1, out.size(), f);
  // On disk before anything is timed: gigabytes of a bench's traces still
  // being written back would throttle the runs that write (a decision
  // log) and take CPU from all of them.
  if (std::fflush(f) != 0 || ::fsync(::fileno(f)) != 0 || std::fclose(f) != 0)
    throw std::runtime_error("cannot write " + path);
  return events;
}

}  // namespace lbsim::bench
