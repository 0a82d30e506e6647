#include "traces/deferred_hints.h"

#include <algorithm>

#include "base/errors.h"
#include "traces/trace_stream.h"

namespace lbsim {

DeferredHints::DeferredHints(std::string path) : path_(std::move(path)) {
  scanner_.AllowOverflowFrom(kEventOverflowDepth);
  decoder_.set_near_misses(&near_misses_);
}

const TraceEvent& DeferredHints::Read(const TraceEvent& event, InstanceTable& table) {
  event_ = event;
  const std::string_view line = event.deferred_line;
  const char* const begin = line.data();
  const char* const hint = begin + event.deferred_hint_begin;
  const char* const hint_end = begin + event.deferred_hint_end;
  for (std::size_t tried = 0; tried < layouts_.size(); ++tried) {
    const std::size_t k = (last_fit_ + tried) % layouts_.size();
    HintLayout& layout = layouts_[k];
    if (layout.Fits(hint, begin, hint_end, text_) != hint_end) continue;
    // A hint naming an Instance twice is the general path's to report.
    if (!layout.Resolve(text_, table)) break;
    layout.Fill(text_, event_.hint);
    event_.deferred_line = {};
    last_fit_ = k;
    return event_;
  }
  ReadWhole(table);
  return event_;
}

void DeferredHints::ReadWhole(InstanceTable& table) {
  const std::uint64_t position = event_.position;
  line_.assign(event_.deferred_line);  // the scanner wants a NUL after the text
  JsonView value;
  const JsonScanner::Status status = scanner_.ScanText(line_, value);
  if (status != JsonScanner::Status::kOk) FailToScanLine(path_, position, line_, status, scanner_);
  try {
    decoder_.Decode(value, scanner_.members(), table, event_);
  } catch (const FieldError& e) {
    FailAtEvent(path_, false, position, e.what());
  }
  event_.position = position;
  CountNearMisses(near_misses_, false, position, found_);
  for (const JsonMember& m : scanner_.members())
    if (!m.key.escaped && m.key.text == "\"hint\"") Learn(m.value);
}

void DeferredHints::Learn(const JsonView& hint) {
  HintLayout learned;
  if (!learned.Learn(hint)) return;
  for (HintLayout& kept : layouts_)
    if (kept == learned || kept.MergeEntries(learned)) return;
  if (layouts_.size() < kMaxLayouts) {
    layouts_.push_back(std::move(learned));
    return;
  }
  layouts_[next_slot_] = std::move(learned);
  next_slot_ = (next_slot_ + 1) % kMaxLayouts;
}

void AddNearMisses(std::vector<KeyNearMiss>& counts, const std::vector<KeyNearMiss>& more) {
  if (more.empty()) return;
  for (const KeyNearMiss& m : more) {
    auto same = std::find_if(counts.begin(), counts.end(),
                             [&](const KeyNearMiss& c) { return c.key == m.key; });
    if (same == counts.end()) counts.push_back(m);
    else if (m.position < same->position) *same = m;
  }
  std::stable_sort(counts.begin(), counts.end(), [](const KeyNearMiss& a, const KeyNearMiss& b) {
    return a.position < b.position;
  });
  if (counts.size() > kMaxNearMisses) counts.resize(kMaxNearMisses);
}

}  // namespace lbsim
