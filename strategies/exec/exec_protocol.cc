#include "strategies/exec/exec_protocol.h"

#include <fmt/format.h>

#include "base/json/json_line_parser.h"
#include "base/json/json_write.h"

namespace lbsim {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxReasonLength = 32;

bool IsReasonWord(std::string_view w) {
  if (w.empty() || w.size() > kMaxReasonLength || w == "no_instances") return false;
  if (w.front() < 'a' || w.front() > 'z') return false;
  for (char c : w)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// "inst-a, inst-b, ..." (at most five).
std::string CandidateIds(std::span<const Candidate> candidates) {
  std::string out;
  for (std::size_t i = 0; i < candidates.size() && i < 5; ++i) {
    if (i) out += ", ";
    out += candidates[i].id;
  }
  if (candidates.size() > 5) out += fmt::format(", ... ({} in all)", candidates.size());
  return out;
}

}  // namespace

void AppendExecRequest(std::string& out, const ArrivalInfo& arrival,
                       std::span<const Candidate> candidates, const Hint& hint) {
  fmt::format_to(std::back_inserter(out), "{{\"seq\":{},\"t\":", arrival.seq);
  AppendJsonDouble(out, arrival.t);
  out += ",\"request\":";
  AppendJsonString(out, arrival.request);
  out += ",\"candidates\":[";
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    out += i ? ",{\"id\":" : "{\"id\":";
    AppendJsonString(out, c.id);
    out += ",\"weight\":";
    AppendJsonDouble(out, c.weight);
    out += ",\"inflight\":";
    if (c.inflight) fmt::format_to(std::back_inserter(out), "{}", *c.inflight);
    else out += "null";
    out += ",\"qps_1m\":";
    if (c.qps_1m) AppendJsonDouble(out, *c.qps_1m);
    else out += "null";
    out += '}';
  }
  out += "],\"hint\":";
  out += hint.raw_json.empty() ? std::string_view("null") : std::string_view(hint.raw_json);
  out += "}\n";
}

bool ParseExecReply(std::string_view line, std::span<const Candidate> candidates,
                    std::uint64_t seq, ExecReply& reply, std::string& error) {
  JsonLineParser parser;
  if (!parser.Parse(line)) {
    error = parser.error();
    return false;
  }
  const json& r = parser.value();
  if (!r.is_object()) {
    error = fmt::format("expected an object {{\"instance\": ID, \"reason\": WORD}}, got {}",
                        ShortJson(r));
    return false;
  }
  auto seq_it = r.find("seq");
  if (seq_it != r.end() &&
      !(seq_it->is_number_unsigned() && seq_it->get<std::uint64_t>() == seq)) {
    error = fmt::format("field \"seq\": expected {} (this decision's seq), got {}", seq,
                        ShortJson(*seq_it));
    return false;
  }
  auto instance = r.find("instance");
  if (instance != r.end() && instance->is_null()) {
    reply.refused = true;  // the strategy refused the decision
    reply.reason = "refused";
    return true;
  }
  if (instance == r.end() || !instance->is_string()) {
    error = fmt::format("field \"instance\": expected the id of a candidate ({}) or null "
                        "(refused), {}",
                        CandidateIds(candidates),
                        instance == r.end() ? "but it is missing" : "got " + ShortJson(*instance));
    return false;
  }
  const std::string& id = instance->get_ref<const std::string&>();
  std::size_t index = 0;
  while (index < candidates.size() && candidates[index].id != id) ++index;
  if (index == candidates.size()) {
    error = fmt::format("field \"instance\": expected the id of a candidate ({}) or null "
                        "(refused), got {}",
                        CandidateIds(candidates), ShortJson(*instance));
    return false;
  }
  auto reason = r.find("reason");
  if (reason == r.end() || !reason->is_string() ||
      !IsReasonWord(reason->get_ref<const std::string&>())) {
    error = fmt::format(
        "field \"reason\": expected a word of a-z, 0-9 and _ starting with a letter (at "
        "most {} characters, not no_instances), {}",
        kMaxReasonLength, reason == r.end() ? "but it is missing" : "got " + ShortJson(*reason));
    return false;
  }
  reply.index = index;
  reply.reason = reason->get<std::string>();
  reply.refused = false;
  return true;
}

}  // namespace lbsim
