#include "trace_recording.h"

#include <thread>

#include <fmt/format.h>

#include "base/errors.h"

namespace lbsim::testing {

std::string DescribeEvent(const TraceEvent& e) {
  std::string s = fmt::format("{} t={}/{}/{} @{} ", static_cast<int>(e.type), e.t.value,
                              e.t.integral, e.t.integer, e.position);
  s += fmt::format("inst={} idx={} ", e.instance, e.index ? std::to_string(*e.index) : "-");
  s += fmt::format("w={} sp={} ", e.weight.value_or(-1), e.speed.value_or(-1));
  s += fmt::format("inf={}/{} qps={}/{} ", static_cast<int>(e.inflight.state), e.inflight.value,
                   static_cast<int>(e.qps_1m.state), e.qps_1m.value);
  s += fmt::format("req={} dur={} ", e.request ? *e.request : "<none>",
                   e.duration.value_or(-1));
  s += fmt::format("in={} out={} ",
                   e.input_tokens ? std::to_string(*e.input_tokens) : "-",
                   e.output_tokens ? std::to_string(*e.output_tokens) : "-");
  s += fmt::format("pc={}/{} ", static_cast<int>(e.proxy_choice.state), e.proxy_choice.value);
  s += fmt::format("ttft={} route={} kt={} ", e.ttft.value_or(-1),
                   e.route ? static_cast<int>(*e.route) : -1,
                   e.knowledge_tokens ? std::to_string(*e.knowledge_tokens) : "-");
  s += fmt::format("deferred={} ovf={} ", e.deferred_line, e.hint.any_overflow);
  for (const Hint::Entry& q : e.hint.queues) {
    s += fmt::format("q{}:", q.instance);
    for (std::size_t i = 0; i < q.load.value.size(); ++i) {
      if (q.load.known[i]) s += fmt::format("{}={},", i, q.load.value[i]);
      if (q.load.overflow[i]) s += fmt::format("{}=overflow,", i);
    }
  }
  s += " raw=" + e.hint.raw_json + " blocks=";
  for (std::uint64_t b : e.hint.prefix_blocks) s += std::to_string(b) + ",";
  return s;
}

std::string DescribeHeader(const TraceHeader& header, const InstanceTable& table) {
  std::string s = fmt::format("header name={} about={} unit={} table={} pbt={}", header.name,
                              header.description, header.time_unit, table.size(),
                              header.prefix_block_tokens.value_or(0));
  s += fmt::format(" ps={}", header.proxy_strategy);
  for (const HeaderInstance& i : header.instances)
    s += fmt::format(" [{} w={} inf={} qps={} alive={} sp={}]", i.id, i.weight,
                     i.inflight ? std::to_string(*i.inflight) : "-",
                     i.qps_1m ? fmt::format("{}", *i.qps_1m) : "-", i.alive, i.speed);
  return s;
}

void TraceRecorder::OnHeader(const TraceHeader& header, const InstanceTable& table) {
  if (fail_at_header) throw FieldError(refusal);
  if (deferred_share) {
    deferred = std::make_shared<DeferredHints>(path);
    deferred->OnHeader(header, Proxy());
  }
  seen.push_back(DescribeHeader(header, table));
}

namespace {

// A DeferredHints error, already naming the file and line: past the
// reader's own wrapping of visitor errors, as the read-ahead throws it.
struct DeferredReadError {
  std::string message;
};

}  // namespace

void TraceRecorder::OnEvent(const TraceEvent& event) {
  const TraceEvent* e = &event;
  if (!event.deferred_line.empty() && deferred) {
    ++deferred_read;
    try {
      e = &deferred->Read(event, *table);
    } catch (const InputError& error) {
      throw DeferredReadError{error.what()};
    }
  }
  if (pause_at && events_ == *pause_at) std::this_thread::sleep_for(pause);
  if (fail_at && events_ == *fail_at) {
    if (input_error) throw InputError(refusal);
    throw FieldError("field \"t\": " + refusal);
  }
  ++events_;
  seen.push_back(DescribeEvent(*e));
}

std::vector<std::string> TraceReading::NearMisses() const {
  std::vector<std::string> text;
  for (const KeyNearMiss& m : counts.near_misses)
    text.push_back(fmt::format("{} ~ {} at {}", m.key, m.known, m.where));
  return text;
}

TraceReading RecordReading(TraceReadFunction read, const std::string& path,
                           TraceEncoding encoding, TraceRecorder recorder) {
  TraceReading r;
  InstanceTable table;
  recorder.path = path;
  recorder.table = &table;
  try {
    r.counts = read(path, encoding, table, recorder, nullptr);
    if (recorder.deferred)
      AddNearMisses(r.counts.near_misses, recorder.deferred->near_misses());
  } catch (const InputError& e) {
    r.error = e.what();
  } catch (const UsageError& e) {
    r.error = std::string("usage: ") + e.what();
  } catch (const DeferredReadError& e) {
    r.error = e.message;
  }
  r.seen = std::move(recorder.seen);
  r.deferred_read = recorder.deferred_read;
  r.ids = table.Ids();
  return r;
}

}  // namespace lbsim::testing
