#include "traces/trace_stream.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "base/errors.h"
#include "base/json/json_syntax_error.h"

namespace lbsim {

void HandOnHeader(const std::string& path, const TraceHeader& header, InstanceTable& table,
                  TraceVisitor& visitor) {
  for (const HeaderInstance& inst : header.instances) table.Intern(inst.id);
  try {
    visitor.OnHeader(header, table);
  } catch (const FieldError& e) {
    throw InputError(fmt::format("{}: header: {}", path, e.what()));
  }
}

void FailAtEvent(const std::string& path, bool document, std::uint64_t position,
                 const std::string& what) {
  if (document) throw InputError(fmt::format("{}: events[{}]: {}", path, position, what));
  throw InputError(fmt::format("{}:{}: {}", path, position, what));
}

void FailToScanLine(const std::string& path, std::uint64_t number, std::string_view line,
                    JsonScanner::Status status, const JsonScanner& scanner) {
  switch (status) {
    case JsonScanner::Status::kTooDeep:
    case JsonScanner::Status::kTooMany:
      throw InputError(fmt::format("{}:{}: {}", path, number, LimitMessage(status)));
    case JsonScanner::Status::kDuplicateKey:
      throw InputError(
          fmt::format("{}:{}: {}", path, number, DuplicateKeyMessage(scanner.duplicate_key())));
    default:
      throw InputError(fmt::format("{}:{}: {}", path, number, DescribeLineSyntaxError(line)));
  }
}

void TraceStream::Header(const JsonView& header, std::uint64_t position) {
  TraceHeader h;
  try {
    h = DecodeHeader(header, document_);
  } catch (const FieldError& e) {
    if (document_) throw InputError(fmt::format("{}: header: {}", path_, e.what()));
    throw InputError(fmt::format("{}:{}: header: {}", path_, position, e.what()));
  }
  header_seen_ = true;
  decoder_.set_hint_reading(proxy_.Resolve(h.proxy, h.python).hint_reading());
  HandOnHeader(path_, h, table_, visitor_);
}

void CountNearMisses(const KeyNearMisses& near_misses, bool document, std::uint64_t position,
                     std::vector<KeyNearMiss>& counted) {
  const auto& found = near_misses.found();
  for (std::size_t k = counted.size(); k < found.size(); ++k)
    counted.push_back(KeyNearMiss{
        found[k].first, found[k].second,
        document ? fmt::format("events[{}]", position) : fmt::format("line {}", position),
        position});
}

void TraceStream::HandOn(std::uint64_t position) {
  if (counts_.near_misses.size() != near_misses_.found().size())
    CountNearMisses(near_misses_, document_, position, counts_.near_misses);
  last_t_ = event_.t.value;
  event_.position = position;
  ++counts_.events;
  if (event_.type == EventType::kArrival) ++counts_.arrivals;
  try {
    visitor_.OnEvent(event_);
  } catch (const FieldError& e) {  // from the visitor, about this event
    Fail(position, e.what());
  } catch (const InputError& e) {
    Fail(position, e.what());
  }
}

void TraceStream::Event(const JsonView& value, std::span<const JsonMember> members,
                        std::uint64_t position) {
  layouts_.Forget();  // the decoder sets event_ in its own way
  try {
    decoder_.Decode(value, members, table_, event_, raw_hint_, last_t_);
  } catch (const FieldError& e) {
    Fail(position, e.what());
  }
  HandOn(position);
}

bool TraceStream::EventByLayout(std::string_view text, std::uint64_t position,
                                std::size_t& size) {
  if (!layouts_.Read(text, table_, last_t_, event_, size)) return false;
  HandOn(position);
  return true;
}

}  // namespace lbsim
