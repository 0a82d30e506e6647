#include "traces/gen/trace_line_writer.h"

#include <cerrno>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/json/json_write.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

constexpr std::size_t kFlushBytes = 1 << 16;

}  // namespace

void TraceLineWriter::Number(double x) {
  // JSON has no infinity or NaN, and a replay refuses them: so is the trace.
  if (!std::isfinite(x))
    throw InputError(fmt::format(
        "a time, duration or rate of the trace would be {}, past the range of numbers a trace "
        "holds; choose smaller values",
        x));
  // Shortest text that reads back as x; integral values print without ".0".
  fmt::format_to(std::back_inserter(buffer_), "{}", x);
}

void TraceLineWriter::NumberKey(std::string_view key, double x) {
  buffer_ += ",\"";
  buffer_ += key;
  buffer_ += "\":";
  Number(x);
}

void TraceLineWriter::BeginEvent() {
  if (document_) buffer_ += events_ ? ",\n" : "\n";
  buffer_ += "{\"t\":";
}

void TraceLineWriter::EndLine() {
  buffer_ += document_ ? "}" : "}\n";
  if (buffer_.size() >= kFlushBytes) Flush();
}

void TraceLineWriter::Flush() {
  errno = 0;
  if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), out_) != buffer_.size())
    throw TraceWriteError(std::strerror(errno ? errno : EIO));
  buffer_.clear();
}

void TraceLineWriter::Finish() {
  if (document_) buffer_ += events_ ? "\n]}\n" : "]}\n";
  Flush();
}

void TraceLineWriter::Header(std::string_view name, std::string_view description,
                             std::string_view time_unit, std::optional<std::uint64_t> seed,
                             const ProxyProfile* proxy,
                             const std::vector<GeneratedInstance>& instances,
                             std::optional<std::uint64_t> prefix_block_tokens,
                             std::string_view proxy_strategy,
                             std::optional<PythonVersion> python) {
  const std::size_t start = buffer_.size();
  buffer_ += "{\"lbsim_trace\":1,";
  if (proxy) {
    buffer_ += "\"proxy\":";
    AppendJsonString(buffer_, proxy->name);
    buffer_ += ',';
  }
  if (!proxy_strategy.empty()) {
    buffer_ += "\"proxy_strategy\":";
    AppendJsonString(buffer_, proxy_strategy);
    buffer_ += ',';
  }
  if (python) {
    buffer_ += "\"python\":";
    AppendJsonString(buffer_, PythonVersionName(*python));
    buffer_ += ',';
  }
  buffer_ += "\"name\":";
  AppendJsonString(buffer_, name);
  if (!description.empty()) {
    buffer_ += ",\"description\":";
    AppendJsonString(buffer_, description);
  }
  buffer_ += ",\"time_unit\":";
  AppendJsonString(buffer_, time_unit);
  if (seed) fmt::format_to(std::back_inserter(buffer_), ",\"lbsim_gen\":{{\"seed\":{}}}", *seed);
  if (prefix_block_tokens)
    fmt::format_to(std::back_inserter(buffer_), ",\"prefix_block_tokens\":{}", *prefix_block_tokens);
  buffer_ += ",\"instances\":[";
  for (std::size_t k = 0; k < instances.size(); ++k) {
    const GeneratedInstance& inst = instances[k];
    buffer_ += k ? ",{\"id\":" : "{\"id\":";
    AppendJsonString(buffer_, inst.id);
    if (inst.weight) NumberKey("weight", *inst.weight);
    if (inst.speed) NumberKey("speed", *inst.speed);
    if (inst.inflight) fmt::format_to(std::back_inserter(buffer_), ",\"inflight\":{}", *inst.inflight);
    if (inst.qps_1m) NumberKey("qps_1m", *inst.qps_1m);
    buffer_ += '}';
  }
  buffer_ += "]}";
  // A replay refuses a line past kMaxLineBytes: so is the trace here.
  if (buffer_.size() - start > kMaxLineBytes)
    throw InputError(fmt::format(
        "the trace's header line (name, description, Instances) would be longer than the "
        "limit of {} MiB for a trace line",
        kMaxLineBytes >> 20));
  buffer_.resize(buffer_.size() - 1);
  if (document_) {
    buffer_ += ",\"events\":[";
    return;
  }
  EndLine();
}

void TraceLineWriter::Arrival(double t, double duration,
                              std::span<const std::uint64_t> prefix_blocks,
                              std::optional<Tokens> tokens, Response response) {
  BeginEvent();
  Number(t);
  buffer_ += ",\"type\":\"arrival\",\"duration\":";
  Number(duration);
  if (tokens)
    fmt::format_to(std::back_inserter(buffer_), ",\"input_tokens\":{},\"output_tokens\":{}",
                   tokens->input, tokens->output);
  if (!prefix_blocks.empty()) {
    buffer_ += ",\"prefix_blocks\":[";
    for (std::size_t i = 0; i < prefix_blocks.size(); ++i)
      fmt::format_to(std::back_inserter(buffer_), "{}{}", i ? "," : "", prefix_blocks[i]);
    buffer_ += ']';
  }
  if (response.ttft) NumberKey("ttft", *response.ttft);
  if (response.completions) buffer_ += ",\"route\":\"completions\"";
  ++events_;
  ++arrivals_;
  EndLine();
}

void TraceLineWriter::RecordedArrival(double t, std::optional<std::string_view> request,
                                      std::optional<double> duration,
                                      std::string_view hint_json,
                                      const std::string* proxy_choice) {
  BeginEvent();
  Number(t);
  buffer_ += ",\"type\":\"arrival\"";
  if (request) {
    buffer_ += ",\"request\":";
    AppendJsonString(buffer_, *request);
  }
  if (duration) NumberKey("duration", *duration);
  if (!hint_json.empty()) {
    buffer_ += ",\"hint\":";
    buffer_ += hint_json;
  }
  buffer_ += ",\"proxy_choice\":";
  if (proxy_choice) AppendJsonString(buffer_, *proxy_choice);
  else buffer_ += "null";
  ++events_;
  ++arrivals_;
  EndLine();
}

void TraceLineWriter::Change(const InstanceChange& c) {
  static constexpr const char* kTypes[] = {"up", "down", "remove"};
  BeginEvent();
  Number(c.at);
  fmt::format_to(std::back_inserter(buffer_), ",\"type\":\"{}\",\"instance\":",
                 kTypes[static_cast<int>(c.kind)]);
  AppendJsonString(buffer_, c.instance);
  if (c.weight) NumberKey("weight", *c.weight);
  if (c.speed) NumberKey("speed", *c.speed);
  ++events_;
  EndLine();
}

void TraceLineWriter::Load(double t, std::string_view id, std::optional<std::int64_t> inflight,
                           std::optional<double> qps_1m) {
  BeginEvent();
  Number(t);
  buffer_ += ",\"type\":\"load\",\"instance\":";
  AppendJsonString(buffer_, id);
  if (inflight) fmt::format_to(std::back_inserter(buffer_), ",\"inflight\":{}", *inflight);
  if (qps_1m) NumberKey("qps_1m", *qps_1m);
  ++events_;
  EndLine();
}

}  // namespace lbsim
