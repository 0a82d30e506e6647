#include "traces/line_layouts.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "traces/event_decoder.h"
#include "base/json/json_bytes.h"
#include "base/json/json_view.h"
#include "traces/layout_text.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

using namespace layout_text;

// The text between the quotes of a string value (escapes left as they are).
std::string_view Unquoted(const JsonView& v) { return v.text.substr(1, v.text.size() - 2); }

// Whether `v` is null or an object without members: a hint that carries no
// queue information.
bool HoldsNothing(const JsonView& v) {
  return v.is_null() ||
         (v.is_object() && v.text.find_first_not_of(" \t\r\n", 1) == v.text.size() - 1);
}

// Whether `v`, an object or array, is one SkipPassedContainer reads past:
// lines laid out like it are not read otherwise.
bool PassedContainer(const JsonView& v) {
  const char* const end = v.text.data() + v.text.size();
  return SkipPassedContainer(v.text.data(), end) == end;
}

static_assert(LineLayouts::kMaxBytes <= kMaxLineBytes &&
              LineLayouts::kMaxBytes <= kMaxValueBytes);

// Past the request id at `p` (just after its opening quote) that ReadId
// does not take but the decoder does: any non-empty string the scanner
// takes, escapes and UTF-8 included, of at most kMaxIdBytes bytes as it
// stands, so that decoded it is at most that too (the decoder's limit).
// Out of line: the ids of most traces are plain ASCII.
[[gnu::noinline]] const char* ReadOtherRequestId(const char* p, const char* end,
                                                 std::string_view& id, bool& escaped) {
  const char* const id_end = SkipStringBody(p, end);
  if (!id_end || id_end == p || static_cast<std::size_t>(id_end - p) > kMaxIdBytes)
    return nullptr;
  id = std::string_view(p, id_end - p);
  escaped = id.find('\\') != std::string_view::npos;
  return id_end;
}

// A bit per key a line holds, as Learn and ReadByPunctuation note them.
constexpr unsigned kType = 1, kT = 2, kDuration = 4, kInstance = 8, kInflight = 16, kQps = 32,
                   kRequest = 64, kInput = 128, kOutput = 256, kHint = 512, kEmptyHint = 1024,
                   kPrefix = 2048;

}  // namespace

static_assert(sizeof(TraceEvent) == kTraceEventSize,
              "a TraceEvent field was added or changed: handle it here, then update "
              "kTraceEventSize (traces/trace_event.h)");

const LineLayouts::KeySlot* LineLayouts::SlotOf(std::string_view key) {
  static constexpr KeySlot kKeySlots[] = {
      {"t", Slot::kTime, kT},
      {"duration", Slot::kDuration, kDuration},
      {"instance", Slot::kInstance, kInstance},
      {"inflight", Slot::kInflight, kInflight},
      {"qps_1m", Slot::kQps, kQps},
      {"request", Slot::kRequest, kRequest},
      {"input_tokens", Slot::kInputTokens, kInput},
      {"output_tokens", Slot::kOutputTokens, kOutput},
      {"prefix_blocks", Slot::kPrefixBlocks, kPrefix}};
  for (const KeySlot& k : kKeySlots)
    if (k.key == key) return &k;
  return nullptr;
}

// Inlined: it reads every value of every line a layout reads.
[[gnu::always_inline]] inline const char* LineLayouts::ReadSlot(Slot slot, const char* p,
                                                                const char* begin,
                                                                const char* end, Values& values,
                                                                std::vector<std::uint64_t>& prefix_ids) {
  TraceTime number;
  switch (slot) {
    case Slot::kInstance:
      return ReadId(p, end, kMaxIdBytes, values.instance);
    case Slot::kRequest:
      if (const char* id_end = ReadId(p, end, kMaxIdBytes, values.request)) return id_end;
      return ReadOtherRequestId(p, end, values.request, values.request_escaped);
    case Slot::kTime:
      p = ReadDecimal(p, begin, end, number);
      values.t = number.value;
      values.t_integral = number.integral;
      values.t_integer = number.integer;
      return p;
    case Slot::kDuration:
      p = ReadDecimal(p, begin, end, number);
      values.duration = number.value;
      values.has_duration = true;
      return p;
    case Slot::kQps:
      values.has_qps_1m = true;
      if (p != end && *p == 'n') {
        values.qps_1m_null = true;
        return ReadNull(p, end);
      }
      p = ReadDecimal(p, begin, end, number);
      values.qps_1m = number.value;
      return p;
    case Slot::kInflight:
      values.has_inflight = true;
      if (p != end && *p == 'n') {
        values.inflight_null = true;
        return ReadNull(p, end);
      }
      p = ReadDecimal(p, begin, end, number);
      values.inflight = static_cast<std::int64_t>(number.integer);
      return p && number.integral ? p : nullptr;
    case Slot::kInputTokens:
      p = ReadDecimal(p, begin, end, number);
      values.input_tokens = number.integer;
      values.has_input_tokens = true;
      return p && number.integral ? p : nullptr;
    case Slot::kOutputTokens:
      p = ReadDecimal(p, begin, end, number);
      values.output_tokens = number.integer;
      values.has_output_tokens = true;
      return p && number.integral ? p : nullptr;
    case Slot::kPrefixBlocks:
      // Stored as they are checked: read once.
      prefix_ids.clear();
      values.has_prefix_blocks = true;
      return ReadBlockIds(p, end, &prefix_ids);
    case Slot::kHint:
      return nullptr;  // the layout's hint reads it
    case Slot::kPassedString:
      return SkipStringBody(p, end);
    case Slot::kPassedNumber:
      return SkipPassedNumber(p, end);
    case Slot::kPassedWord:
      return ReadWord(p, end);
    case Slot::kPassedContainer:
      return SkipPassedContainer(p, end);
  }
  return nullptr;
}

const char* LineLayouts::Fits(const Layout& layout, std::string_view text, bool lines,
                              bool defer, Values& values, HintText& hint,
                              std::vector<std::uint64_t>& prefix_ids) {
  // No byte a line's layout takes is a '\n' (literals come from a line,
  // and slots refuse control characters), so the line ends where the last
  // literal does, if a '\n' follows it.
  const char* p = text.data();
  const char* const end = p + text.size();
  const char* const literals = layout.text.data();
  std::size_t from = 0;
  for (std::size_t i = 0;; ++i) {
    const std::size_t n = layout.literal_end[i] - from;
    if (!LiteralAt(p, end, literals + from, n)) return nullptr;
    p += n;
    from = layout.literal_end[i];
    if (i == layout.slots) return !lines || (p != end && *p == '\n') ? p : nullptr;
    if (layout.slot[i] == Slot::kHint) {
      values.has_hint = true;
      if (defer && lines && i + 1 == layout.slots) {
        // The line's last value: the hint is what lies between here and
        // the last literal, which ends the line.
        const std::size_t tail = layout.literal_end[i + 1] - from;
        const auto* nl = static_cast<const char*>(std::memchr(p, '\n', end - p));
        if (nl && static_cast<std::size_t>(nl - p) > tail &&
            std::memcmp(nl - tail, literals + from, tail) == 0) {
          values.deferred_hint = p;
          values.deferred_hint_end = nl - tail;
          return nl;
        }
      }
      p = layout.hint.Fits(p, text.data(), end, hint);
    } else {
      p = ReadSlot(layout.slot[i], p, text.data(), end, values, prefix_ids);
    }
    if (!p) return nullptr;
  }
}

const char* LineLayouts::FitsOthers(std::string_view text, Values& v) {
  const char* line_end;
  for (std::size_t i = 0; i < count_; ++i) {
    if (i == last_fit_ ||
        !(line_end = Fits(layouts_[i], text, lines_, defer_now_, (v = Values{}), hint_text_,
                                 prefix_ids_)))
      continue;
    last_fit_ = i;
    return line_end;
  }
  return nullptr;
}

const char* LineLayouts::Fit(std::string_view text, Values& v, Fitted& fitted) {
  if (const char* line_end = Fits(layouts_[last_fit_], text, lines_, defer_now_, v, hint_text_,
                                 prefix_ids_)) {
    fitted = {layouts_[last_fit_].type, last_fit_, false};
    return line_end;
  }
  return punctuation_first_ ? FitPunctuationFirst(text, v, fitted)
                            : FitLayoutsFirst(text, v, fitted);
}

// Both inline: called out of line, they cost the realistic cut 0.3% more
// instructions, lines read by punctuation 0.8%.
[[gnu::always_inline]] inline const char* LineLayouts::FitLayoutsFirst(std::string_view text,
                                                                       Values& v,
                                                                       Fitted& fitted) {
  const char* line_end = FitsOthers(text, v);
  const bool missed = line_end == nullptr;
  if (missed && !(line_end = ReadByPunctuation(text, (v = Values{}), fitted.type,
                                               fitted.hint_owner)))
    return nullptr;  // read by neither: counts for nothing
  if (missed) fitted.by_punctuation = true;
  else fitted = {layouts_[last_fit_].type, last_fit_, false};
  miss_rate_ = miss_rate_ - (miss_rate_ >> 3) + (missed ? 32 : 0);
  if (miss_rate_ > kPunctuationFirstRate) {
    punctuation_first_ = true;
    lines_until_retry_ = kPunctuationFirstLines;
  }
  return line_end;
}

[[gnu::always_inline]] inline const char* LineLayouts::FitPunctuationFirst(std::string_view text,
                                                                           Values& v,
                                                                           Fitted& fitted) {
  if (--lines_until_retry_ == 0) {
    punctuation_first_ = false;
    miss_rate_ = 0;
  }
  const char* line_end = ReadByPunctuation(text, (v = Values{}), fitted.type, fitted.hint_owner);
  if (line_end) {
    fitted.by_punctuation = true;
  } else if ((line_end = FitsOthers(text, (v = Values{})))) {
    fitted = {layouts_[last_fit_].type, last_fit_, false};
  }
  return line_end;
}

const char* LineLayouts::ReadByPunctuation(std::string_view text, Values& v, EventType& type,
                                           std::size_t& hint_owner) {
  const Punctuation& q = punctuation_;
  if (q.open.empty()) return nullptr;
  const char* p = text.data();
  const char* const begin = p;
  const char* const end = p + text.size();
  if (!LiteralAt(p, end, q.open.data(), q.open.size())) return nullptr;
  p += q.open.size();
  unsigned seen = 0;
  bool arrival = false;
  KeysSeen<kMaxPassedKeys> passed;  // the keys the decoder passes over
  member_count_ = 0;
  bool learnable = true;  // its members fit members_
  for (;;) {
    // The key's name, then its closing quote, which starts q.colon.
    const char* const key_begin = p - 1;
    std::string_view key;
    if (!(p = ReadId(p, end, kMaxKeyBytes, key)) ||
        !LiteralAt(p, end, q.colon.data(), q.colon.size()))
      return nullptr;
    p += q.colon.size();
    const char* const value_begin = p;
    const KeySlot* const known = SlotOf(key);
    unsigned bit = known ? known->bit : 0;
    if (known && (known->slot == Slot::kInstance || known->slot == Slot::kRequest)) {
      // An id slot reads between the quotes.
      if (p == end || *p != '"' || !(p = ReadSlot(known->slot, p + 1, begin, end, v, prefix_ids_)) ||
          p == end || *p != '"')
        return nullptr;
      ++p;
    } else if (known) {
      p = ReadSlot(known->slot, p, begin, end, v, prefix_ids_);
    } else if (key == "type") {
      bit = kType;
      if (LiteralAt(p, end, "\"arrival\"", 9)) {
        arrival = true;
        p += 9;
      } else if (LiteralAt(p, end, "\"load\"", 6)) {
        p += 6;
      } else {
        return nullptr;
      }
    } else if (key == "hint") {
      // A run that wants each hint's text reads it the general way.
      if (!learn_hints_) return nullptr;
      bit = kHint;
      if (LiteralAt(p, end, "{}", 2)) {
        p += 2;
      } else if (LiteralAt(p, end, "null", 4)) {
        p += 4;
      } else {
        // As the hint of a kept hinted layout reads it, the last fitted first.
        const char* hint_end = nullptr;
        for (std::size_t k = 0; k < count_ && !hint_end; ++k) {
          const std::size_t i = k == 0 ? last_fit_ : (k == last_fit_ ? 0 : k);
          if (layouts_[i].hinted && (hint_end = layouts_[i].hint.Fits(p, begin, end, hint_text_)))
            hint_owner = i;
        }
        p = hint_end;
        v.has_hint = p != nullptr;
        learnable = false;
      }
    } else if (IsEventKey(key)) {
      return nullptr;  // one the decoder reads (weight, speed, ...): not for these readers
    } else {
      if (!passed.Add(key)) return nullptr;
      if (near_misses_) near_misses_->Note(key);
      p = SkipPassedValue(p, end);
    }
    if (!p || (seen & bit)) return nullptr;
    seen |= bit;
    if (member_count_ < members_.size()) {
      const auto view = [](const char* from, const char* to) {
        return JsonView{KindOf(*from), false, std::string_view(from, to - from)};
      };
      // A passed-over string may hold escapes: Learn only asks of ids.
      members_[member_count_++] = {view(key_begin, key_begin + key.size() + 2),
                                   view(value_begin, p)};
    } else {
      learnable = false;
    }
    if (LiteralAt(p, end, q.comma.data(), q.comma.size())) {
      p += q.comma.size();
      continue;
    }
    if (!LiteralAt(p, end, q.close.data(), q.close.size())) return nullptr;
    p += q.close.size();
    break;
  }
  if (lines_ && (p == end || *p != '\n')) return nullptr;
  // The keys Learn takes for an arrival or a load.
  constexpr unsigned kArrivalOnly = kDuration | kRequest | kInput | kOutput | kPrefix | kHint;
  if (!(seen & kType) || !(seen & kT)) return nullptr;
  if (arrival) {
    type = EventType::kArrival;
  } else {
    if (!(seen & kInstance) || (seen & kArrivalOnly)) return nullptr;
    type = EventType::kLoad;
  }
  if (!learnable) member_count_ = 0;
  return p;
}

void LineLayouts::LearnPunctuation(std::string_view line, std::span<const JsonMember> members) {
  if (members.size() < 2) return;
  const auto between = [](const char* from, const char* to) {
    return std::string_view(from, static_cast<std::size_t>(to - from));
  };
  // Each piece ends with, or starts after, a key's quote.
  const char* const first_key = members.front().key.text.data();
  const std::string_view open = between(line.data(), first_key + 1);
  const JsonView& last = members.back().value;
  const std::string_view close =
      between(last.text.data() + last.text.size(), line.data() + line.size());
  std::string_view colon, comma;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const JsonMember& m = members[i];
    const std::string_view this_colon =
        between(m.key.text.data() + m.key.text.size() - 1, m.value.text.data());
    if (i > 0 && this_colon != colon) return;
    colon = this_colon;
    if (i + 1 == members.size()) break;
    const std::string_view this_comma =
        between(m.value.text.data() + m.value.text.size(), members[i + 1].key.text.data() + 1);
    if (i > 0 && this_comma != comma) return;
    comma = this_comma;
  }
  punctuation_ = {std::string(open), std::string(colon), std::string(comma), std::string(close)};
}

std::size_t LineLayouts::Validate(std::string_view text) {
  if (count_ == 0) return 0;
  Values v;
  Fitted fitted;
  const char* const value_end = Fit(text, v, fitted);
  if (!value_end) return 0;
  const auto size = static_cast<std::size_t>(value_end - text.data());
  if (size > kMaxBytes) return 0;
  if (v.has_hint) {
    // Its ids are the keys of one object: a repeated one is the scanner's
    // to report.
    ids_.clear();
    for (const HintText::Entry& e : hint_text_.entries) ids_.push_back(e.id);
    std::sort(ids_.begin(), ids_.end());
    if (std::adjacent_find(ids_.begin(), ids_.end()) != ids_.end()) return 0;
  }
  if (fitted.by_punctuation) LearnRead(text.substr(0, size));
  return size;
}

bool LineLayouts::Read(std::string_view text, const InstanceTable& table, double not_before,
                       TraceEvent& event, std::size_t& size) {
  if (count_ == 0) return false;
  Values v;
  Fitted fitted;
  defer_now_ = defer_share_ && (hinted_read_ & 7u) < *defer_share_;
  const char* const line_end = Fit(text, v, fitted);
  if (!line_end) return false;
  // The general path reports a line out of time order, or too long, or of
  // too many values.
  const auto line_size = static_cast<std::size_t>(line_end - text.data());
  if (line_size > kMaxBytes || !(v.t >= not_before)) return false;
  // A hint naming an Instance twice is the general path's to report.
  if (v.has_hint && !v.deferred_hint &&
      !layouts_[fitted.hint_owner].hint.Resolve(hint_text_, table))
    return false;
  size = line_size;
  const EventType type = fitted.type;
  event.t = TraceTime{v.t, v.t_integral, v.t_integer};
  if (type == EventType::kArrival) {
    // An arrival read into an arrival this left: only the request, the
    // duration and the token counts differ.
    if (!left_arrival_) {
      event.type = type;
      event.ClearFields();
      left_arrival_ = true;
    }
    event.duration.reset();
    if (v.has_duration) event.duration = v.duration;
    event.request.reset();
    if (v.request_escaped) event.request = Unescape(v.request, request_);
    else if (!v.request.empty()) event.request = v.request;
    event.input_tokens.reset();
    if (v.has_input_tokens) event.input_tokens = v.input_tokens;
    event.output_tokens.reset();
    if (v.has_output_tokens) event.output_tokens = v.output_tokens;
    // No layout reads the Proxy queue fields (their lines take the general
    // path), but the general path may have left them set.
    event.ttft.reset();
    event.route.reset();
    event.knowledge_tokens.reset();
    event.proxy_choice = {};
    event.deferred_line = {};
    if (v.has_hint) ++hinted_read_;
    if (v.deferred_hint) {
      event.hint.queues.clear();
      event.hint.any_overflow = false;
      event.deferred_line = text.substr(0, line_size);
      event.deferred_hint_begin = static_cast<std::uint32_t>(v.deferred_hint - text.data());
      event.deferred_hint_end = static_cast<std::uint32_t>(v.deferred_hint_end - text.data());
      layouts_[fitted.hint_owner].used = true;
    } else if (v.has_hint) {
      Layout& layout = layouts_[fitted.hint_owner];
      layout.hint.Fill(hint_text_, event.hint);
      layout.used = true;
      hint_backoff_ = 0;
    } else {
      event.hint.queues.clear();
    }
    if (v.has_prefix_blocks) event.hint.prefix_blocks.assign(prefix_ids_.begin(), prefix_ids_.end());
    else event.hint.prefix_blocks.clear();
    if (fitted.by_punctuation) LearnRead(text.substr(0, line_size));
    return true;
  }
  left_arrival_ = false;
  event.type = type;
  event.ClearFields();
  event.instance = v.instance;
  event.index = table.Find(v.instance);
  using InflightState = FieldUpdate<std::int64_t>::State;
  using QpsState = FieldUpdate<double>::State;
  if (v.has_inflight)
    event.inflight = {v.inflight_null ? InflightState::kNull : InflightState::kValue, v.inflight};
  if (v.has_qps_1m)
    event.qps_1m = {v.qps_1m_null ? QpsState::kNull : QpsState::kValue, v.qps_1m};
  if (fitted.by_punctuation) LearnRead(text.substr(0, line_size));
  return true;
}

void LineLayouts::LearnRead(std::string_view line) {
  // While most lines fit no layout, learning theirs would only push out
  // the others.
  if (member_count_ > 0 && !punctuation_first_) Learn(line, std::span<const JsonMember>(members_.data(), member_count_));
}

void LineLayouts::Learn(std::string_view line, std::span<const JsonMember> members) {
  struct Cut {
    std::size_t begin, end;
    Slot slot;
  };
  std::array<Cut, kMaxSlots> cuts;
  std::size_t slots = 0;
  unsigned seen = 0;
  std::string_view type;
  const JsonView* hint = nullptr;
  const auto at = [&](std::string_view part) {
    return static_cast<std::size_t>(part.data() - line.data());
  };
  for (const JsonMember& m : members) {
    if (m.key.escaped) return;
    const std::string_view key = Unquoted(m.key);
    const JsonView& value = m.value;
    unsigned bit;
    if (key == "type") {
      if (!value.is_string() || value.escaped) return;
      type = Unquoted(value);
      bit = kType;
    } else {
      Slot slot;
      bool passed = false;  // a key the decoder passes over
      if (const KeySlot* const known = SlotOf(key)) slot = known->slot, bit = known->bit;
      else if (key == "hint") {
        if (!learn_hints_) return;
        slot = Slot::kHint, bit = kHint;
      } else if (IsEventKey(key)) {
        return;  // one the decoder reads (weight, speed, ...): not for these layouts
      } else {
        // A key the decoder passes over: its value is only read past, and
        // its slot is chosen by the value's kind.
        passed = true;
        if (value.is_string()) slot = Slot::kPassedString, bit = 0;
        else if (value.is_number()) slot = Slot::kPassedNumber, bit = 0;
        else if (value.is_bool() || value.is_null()) slot = Slot::kPassedWord, bit = 0;
        else if (PassedContainer(value)) slot = Slot::kPassedContainer, bit = 0;
        else return;
      }
      const bool id = slot == Slot::kInstance || slot == Slot::kRequest ||
                      slot == Slot::kPassedString;
      // An instance is read as it stands; a request's escapes are decoded
      // (ReadOtherRequestId) and a passed-over string is only read past.
      if (value.escaped && slot == Slot::kInstance) return;
      if (slot == Slot::kHint && HoldsNothing(value)) {
        // It stays in the layout's text: the arrival has no queues, as the
        // decoder makes it.
        bit |= kEmptyHint;
      } else if (slot == Slot::kHint) {
        if (!value.is_object()) return;
        hint = &value;  // learned last: it costs a walk
      } else if (slot == Slot::kPrefixBlocks) {
        const char* const end = value.text.data() + value.text.size();
        if (ReadBlockIds(value.text.data(), end, nullptr) != end) return;
      } else if (!passed &&
                 (id ? !value.is_string()
                     : !(value.is_number() ||
                         (value.is_null() && (slot == Slot::kInflight || slot == Slot::kQps))))) {
        return;
      }
      if (!(bit & kEmptyHint)) {
        const std::string_view cut = id ? Unquoted(value) : value.text;
        if (slots == kMaxSlots) return;
        cuts[slots++] = {at(cut), at(cut) + cut.size(), slot};
      }
    }
    if (seen & bit) return;
    seen |= bit;
  }
  if (type == "arrival") {
    // An arrival's instance, inflight and qps_1m are passed over too.
    for (std::size_t i = 0; i < slots; ++i) {
      Cut& cut = cuts[i];
      if (cut.slot == Slot::kInstance) cut.slot = Slot::kPassedString;
      else if (cut.slot == Slot::kInflight || cut.slot == Slot::kQps)
        cut.slot = line[cut.begin] == 'n' ? Slot::kPassedWord : Slot::kPassedNumber;
    }
    seen &= ~(kInstance | kInflight | kQps);
  }
  Layout layout;
  // An arrival: t, type and maybe request, duration, token counts and a
  // hint. A load: t, type, instance and maybe inflight and qps_1m.
  constexpr unsigned kArrivalOptional =
      kDuration | kRequest | kInput | kOutput | kPrefix | kHint | kEmptyHint;
  if (type == "arrival" &&
      (seen | kArrivalOptional) == (kType | kT | kArrivalOptional)) {
    layout.type = EventType::kArrival;
  } else if (type == "load" && (seen & (kType | kT | kInstance)) == (kType | kT | kInstance) &&
             !(seen & kArrivalOptional)) {
    layout.type = EventType::kLoad;
  } else {
    return;
  }
  LearnPunctuation(line, members);
  if (hint) {
    if (hint_skips_left_ > 0) {
      --hint_skips_left_;
      return;
    }
    if (!layout.hint.Learn(*hint)) {
      BackOffHints();
      return;
    }
    layout.hinted = true;
  }
  std::size_t from = 0;
  for (std::size_t i = 0; i < slots; ++i) {
    layout.text.append(line.substr(from, cuts[i].begin - from));
    layout.literal_end[i] = static_cast<std::uint32_t>(layout.text.size());
    layout.slot[i] = cuts[i].slot;
    from = cuts[i].end;
  }
  layout.text.append(line.substr(from));
  layout.literal_end[slots] = static_cast<std::uint32_t>(layout.text.size());
  layout.slots = slots;
  Remember(std::move(layout));
}

void LineLayouts::Remember(Layout layout) {
  for (std::size_t i = 0; i < count_; ++i)
    if (layouts_[i].SameAs(layout)) return;
  if (layout.hinted)
    for (std::size_t i = 0; i < count_; ++i)
      if (layouts_[i].SameLineAs(layout) && layouts_[i].hint.MergeEntries(layout.hint)) return;
  std::size_t same_kind = 0, oldest = count_;
  for (std::size_t i = 0; i < count_; ++i) {
    if (layouts_[i].hinted != layout.hinted) continue;
    ++same_kind;
    if (oldest == count_ || layouts_[i].learned < layouts_[oldest].learned) oldest = i;
  }
  layout.learned = ++learned_;
  if (same_kind < (layout.hinted ? kMaxHintLayouts : kMaxLayouts)) {
    layouts_[count_++] = std::move(layout);
    return;
  }
  // A hinted layout that gave way unused: hints keep changing their layout.
  if (layout.hinted && !layouts_[oldest].used) BackOffHints();
  layouts_[oldest] = std::move(layout);
  last_fit_ = oldest;
}

void LineLayouts::BackOffHints() {
  hint_skips_left_ = hint_backoff_;
  hint_backoff_ = std::min<std::uint32_t>(2 * hint_backoff_ + 1, kMaxHintBackoff);
}

}  // namespace lbsim
