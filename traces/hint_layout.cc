#include "traces/hint_layout.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>

#include "traces/layout_text.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

using layout_text::LiteralAt;
using layout_text::ReadDecimal;
using layout_text::ReadId;
using layout_text::ReadNull;

// What a `null` slot reads as: no number ReadDecimal gives.
constexpr double kNull = std::numeric_limits<double>::quiet_NaN();

// The most ids one hint may name that the table lacks: each is compared
// with the others (a repeated one is the general path's to report).
constexpr std::size_t kMaxUnregistered = 64;

// Whether `literal` comes next at `p`, in a text that ends at `end`.
bool At(const char* p, const char* end, const std::string& literal) {
  return LiteralAt(p, end, literal.data(), literal.size());
}

// Where the member `key` of a hint, or of its queue_depths, leaves the
// walk (the walker at its value): at the one named `name`; past one whose
// value the decoder passes over as a Frame reads past it (where that
// value lies in `base`'s text added to `cuts`); or at one of neither
// kind, which the layout does not take. A key with escapes is of neither:
// it could name queue_depths or per_instance.
enum class FrameMember { kNamed, kPassed, kOther };
FrameMember TakeFrameMember(JsonWalker& w, const JsonView& key, std::string_view name,
                            const char* base,
                            std::vector<std::pair<std::size_t, std::size_t>>& cuts) {
  if (key.escaped) return FrameMember::kOther;
  if (key.text.substr(1, key.text.size() - 2) == name) return FrameMember::kNamed;
  const JsonView value = w.TakeValue();
  const char* const value_end = value.text.data() + value.text.size();
  if (layout_text::SkipPassedValue(value.text.data(), value_end) != value_end)
    return FrameMember::kOther;
  const auto begin = static_cast<std::size_t>(value.text.data() - base);
  cuts.emplace_back(begin, begin + value.text.size());
  return FrameMember::kPassed;
}

// Reads the number or null of a slot at `p`, in the text [begin, end), into
// `value` (kNull for null); where it ends, or nullptr.
inline const char* ReadSlotValue(const char* p, const char* begin, const char* end,
                                 double& value) {
  // A Proxy's queue depths are mostly one digit: read as ReadDecimal reads
  // it (a digit, then neither a digit nor a '.') without its word
  // arithmetic. What follows is the caller's to check.
  if (end - p >= 2) {
    const auto digit = static_cast<unsigned char>(p[0] - '0');
    if (digit <= 9 && !layout_text::IsDigit(p[1]) && p[1] != '.') {
      value = digit;
      return p + 1;
    }
  }
  if (p < end && *p == 'n') {
    value = kNull;
    return ReadNull(p, end);
  }
  TraceTime number;
  if (!(p = ReadDecimal(p, begin, end, number))) return nullptr;
  value = number.value;
  return p;
}

// Whether `known` is `id`: inline word compares rather than a call, as a
// hint's ids are short and most are the ones the entry named last time.
bool SameId(const std::string& known, std::string_view id) {
  return known.size() == id.size() && layout_text::SameBytes(known.data(), id.data(), id.size());
}

}  // namespace

void HintLayout::Punctuation::Absorb(const Punctuation& other) {
  alike = alike && other.alike;
  if (other.open.empty()) return;
  if (open.empty()) {
    open = other.open;
    colon = other.colon;
    close = other.close;
  } else if (open != other.open || colon != other.colon || close != other.close) {
    alike = false;
  }
  if (other.comma.empty()) return;
  if (comma.empty()) {
    comma = other.comma;
  } else if (comma != other.comma) {
    alike = false;
  }
}

bool HintLayout::Learn(const JsonView& hint) {
  head_ = {};
  separator_.clear();
  separator_known_ = false;
  tail_ = {};
  entries_.clear();
  punctuation_ = {};
  relies_on_punctuation_ = false;
  most_slots_ = 0;

  const std::string_view source = hint.text;
  const char* const base = source.data();
  std::string scratch;
  // The values passed over, in the hint's order: before the map's first
  // entry or after its last.
  std::vector<std::pair<std::size_t, std::size_t>> cuts;
  std::size_t entries = 0;
  std::size_t head_end = 0;   // where the first entry's id begins
  std::size_t entry_end = 0;  // where the last entry ended
  JsonWalker w(source);
  if (!w.EnterObject()) return false;
  for (JsonView outer; w.NextKey(outer);) {
    const FrameMember member = TakeFrameMember(w, outer, "queue_depths", base, cuts);
    if (member == FrameMember::kPassed) continue;
    if (member == FrameMember::kOther || !w.EnterObject()) return false;
    for (JsonView inner; w.NextKey(inner);) {
      const FrameMember member = TakeFrameMember(w, inner, "per_instance", base, cuts);
      if (member == FrameMember::kPassed) continue;
      if (member == FrameMember::kOther || !w.EnterObject()) return false;
      for (JsonView id; w.NextKey(id);) {
        const auto id_begin = static_cast<std::size_t>(id.text.data() - base);  // its quote
        if (entries++ == 0) {
          head_end = id_begin;
        } else {
          const std::string_view separator = source.substr(entry_end, id_begin - entry_end);
          if (separator_known_ && separator != separator_) return false;
          separator_.assign(separator);
          separator_known_ = true;
        }
        if (!LearnEntry(w, source, id_begin + id.text.size() - 1, scratch, entry_end,
                        relies_on_punctuation_))
          return false;
      }
    }
  }
  if (entries == 0) return false;  // no map, or an empty one
  if (relies_on_punctuation_ && !punctuation_.Usable()) return false;
  // A frame for the text [from, to), with the values cut out that lie in it.
  const auto frame = [&](std::size_t from, std::size_t to) {
    Frame f;
    for (const auto& [begin, end] : cuts) {
      if (begin < from || end > to) continue;
      f.text.append(source.substr(from, begin - from));
      f.literal_end.push_back(static_cast<std::uint32_t>(f.text.size()));
      from = end;
    }
    f.text.append(source.substr(from, to - from));
    f.literal_end.push_back(static_cast<std::uint32_t>(f.text.size()));
    return f;
  };
  head_ = frame(0, head_end);
  tail_ = frame(entry_end, source.size());
  return true;
}

bool HintLayout::LearnEntry(JsonWalker& w, std::string_view source, std::size_t from,
                            std::string& scratch, std::size_t& entry_end, bool& dropped) {
  const char* const base = source.data();
  EntryLayout entry;
  Punctuation punctuation;  // this entry's
  if (!w.EnterObject()) return false;
  for (JsonView key; w.NextKey(key);) {
    if (key.escaped) return false;
    const std::size_t field = QueueFieldIndex(ReadString(key, scratch));
    const bool passed = field == kQueueFields.size();
    if (!passed && w.Kind() != JsonKind::kNumber && w.Kind() != JsonKind::kNull) return false;
    const JsonView value = w.TakeValue();
    const char* const value_end = value.text.data() + value.text.size();
    TraceTime number;
    if (passed ? layout_text::SkipPassedValue(value.text.data(), value_end) != value_end
               : value.is_number() &&
                     ReadDecimal(value.text.data(), base, value_end, number) != value_end)
      return false;
    const auto value_begin = static_cast<std::size_t>(value.text.data() - base);
    // Up to the key's opening quote (from the id's closing quote, or the
    // last value), and from its closing quote to the value.
    const auto key_begin = static_cast<std::size_t>(key.text.data() - base);
    const std::size_t key_end = key_begin + key.text.size();
    const std::string_view before = source.substr(from, key_begin + 1 - from);
    const std::string_view colon = source.substr(key_end - 1, value_begin - (key_end - 1));
    if (punctuation.open.empty()) {
      punctuation.open = before;
      punctuation.colon = colon;
    } else {
      if (colon != punctuation.colon || (!punctuation.comma.empty() && before != punctuation.comma))
        punctuation.alike = false;
      punctuation.comma = before;
    }
    entry.text.append(source.substr(from, value_begin - from));
    entry.literal_end.push_back(static_cast<std::uint32_t>(entry.text.size()));
    entry.field.push_back(passed ? kPassedOver : static_cast<std::uint8_t>(field));
    from = value_begin + value.text.size();
  }
  // The entry's '}' is the first after its last value (or after its id,
  // when it has none): only whitespace, or ": {", comes between.
  entry_end = source.find('}', from) + 1;
  entry.text.append(source.substr(from, entry_end - from));
  if (!punctuation.open.empty()) punctuation.close = source.substr(from, entry_end - from);
  punctuation_.Absorb(punctuation);
  entry.literal_end.push_back(static_cast<std::uint32_t>(entry.text.size()));
  const std::size_t slots = entry.field.size();
  if (entry.text.size() + slots >= 16) {
    for (std::size_t i = 0, literal = 0; i <= slots; literal = entry.literal_end[i++]) {
      entry.one_digit.append(entry.text, literal, entry.literal_end[i] - literal);
      entry.one_digit_slack.append(entry.literal_end[i] - literal, '\0');
      if (i == slots) break;
      entry.one_digit += '0';
      entry.one_digit_slack += '\x09';
    }
  }
  if (!KeepEntry(std::move(entry))) dropped = true;
  return true;
}

bool HintLayout::KeepEntry(EntryLayout entry) {
  if (std::find(entries_.begin(), entries_.end(), entry) != entries_.end()) return true;
  if (entries_.size() == kMaxEntryLayouts) return false;
  most_slots_ = std::max(most_slots_, entry.field.size());
  entries_.push_back(std::move(entry));
  return true;
}

bool HintLayout::MergeEntries(const HintLayout& other) {
  if (head_ != other.head_ || tail_ != other.tail_ ||
      (separator_known_ && other.separator_known_ && separator_ != other.separator_))
    return false;
  Punctuation punctuation = punctuation_;
  punctuation.Absorb(other.punctuation_);
  // All of them, or those that fit and the punctuation for the rest, or
  // none: count the new ones first.
  const auto added = std::count_if(other.entries_.begin(), other.entries_.end(),
                                   [&](const EntryLayout& entry) {
                                     return std::find(entries_.begin(), entries_.end(), entry) ==
                                            entries_.end();
                                   });
  const bool drops = entries_.size() + static_cast<std::size_t>(added) > kMaxEntryLayouts;
  if ((drops || relies_on_punctuation_ || other.relies_on_punctuation_) && !punctuation.Usable())
    return false;
  for (const EntryLayout& entry : other.entries_) KeepEntry(entry);
  punctuation_ = std::move(punctuation);
  relies_on_punctuation_ = relies_on_punctuation_ || other.relies_on_punctuation_ || drops;
  if (!separator_known_ && other.separator_known_) {
    separator_ = other.separator_;
    separator_known_ = true;
  }
  return true;
}

inline const char* HintLayout::Frame::Fits(const char* p, const char* end) const {
  std::size_t from = 0;
  for (std::size_t i = 0;; ++i) {
    const std::size_t n = literal_end[i] - from;
    if (!LiteralAt(p, end, text.data() + from, n)) return nullptr;
    p += n;
    from = literal_end[i];
    if (i + 1 == literal_end.size()) return p;
    if (!(p = layout_text::SkipPassedValue(p, end))) return nullptr;
  }
}

[[gnu::always_inline]] inline const char* HintLayout::FitsEntry(const EntryLayout& layout, const char* p,
                                         const char* begin, const char* end, double* values) {
  const std::size_t slots = layout.field.size();
  // A Proxy's queue depths are mostly one digit: an entry whose numbers
  // all are is compared whole. The byte after each digit is a literal's
  // first, which no number goes on with (a ',', '}' or space), so each
  // digit is read as ReadDecimal would read it.
  const std::size_t one_digit_size = layout.one_digit.size();
  if (one_digit_size != 0 && static_cast<std::size_t>(end - p) >= one_digit_size &&
      layout_text::WithinSlack(p, layout.one_digit.data(), layout.one_digit_slack.data(),
                               one_digit_size)) {
    for (std::size_t i = 0; i < slots; ++i) values[i] = p[layout.literal_end[i] + i] - '0';
    return p + one_digit_size;
  }
  const char* const literals = layout.text.data();
  std::size_t from = 0;
  for (std::size_t i = 0;; ++i) {
    const std::size_t n = layout.literal_end[i] - from;
    if (!LiteralAt(p, end, literals + from, n)) return nullptr;
    p += n;
    from = layout.literal_end[i];
    if (i == slots) return p;
    p = layout.field[i] == kPassedOver ? layout_text::SkipPassedValue(p, end)
                                       : ReadSlotValue(p, begin, end, values[i]);
    if (!p) return nullptr;
  }
}

const char* HintLayout::FitsByPunctuation(const char* p, const char* begin, const char* end,
                                          double* values) const {
  const Punctuation& q = punctuation_;
  if (!At(p, end, q.open)) return nullptr;
  p += q.open.size();
  std::fill_n(values, kQueueFields.size(), kNull);
  unsigned fields_seen = 0;
  layout_text::KeysSeen<kMaxPassedKeys> passed;  // the keys passed over
  for (;;) {
    // The key (its closing quote begins the colon's text), then its value:
    // a queue field's number or null, or a value passed over. A repeated
    // key is the general path's to report.
    std::string_view key;
    if (!(p = ReadId(p, end, kMaxKeyBytes, key)) || !At(p, end, q.colon)) return nullptr;
    p += q.colon.size();
    const std::size_t field = QueueFieldIndex(key);
    if (field < kQueueFields.size()) {
      if (fields_seen >> field & 1u) return nullptr;
      fields_seen |= 1u << field;
      if (!(p = ReadSlotValue(p, begin, end, values[field]))) return nullptr;
    } else {
      if (!passed.Add(key) || !(p = layout_text::SkipPassedValue(p, end))) return nullptr;
    }
    if (!q.comma.empty() && At(p, end, q.comma)) {
      p += q.comma.size();
      continue;
    }
    return At(p, end, q.close) ? p + q.close.size() : nullptr;
  }
}

const char* HintLayout::Fits(const char* p, const char* begin, const char* end,
                             HintText& read) const {
  read.entries.clear();
  read.value_count = 0;
  if (!(p = head_.Fits(p, end))) return nullptr;
  if (p < end && *p != '"') return tail_.Fits(p, end);  // no entry
  // Room for the numbers of an entry of either kind.
  const std::size_t room = std::max(most_slots_, kQueueFields.size());
  const bool by_punctuation = punctuation_.Usable();
  // How the last entry was read: by the punctuation, or by the entry
  // layout `layout`.
  bool punctuation_first = false;
  std::size_t layout = 0;
  for (;;) {
    std::string_view id;
    if (p == end || *p != '"' || !(p = ReadId(p + 1, end, kMaxIdBytes, id))) return nullptr;
    const std::size_t at = read.value_count;
    if (read.values.size() < at + room) read.values.resize(2 * (at + room));
    double* const values = read.values.data() + at;
    // The entry layout the last entry fitted, then the others in turn,
    // each once (at most one fits: their literals fix where each number
    // goes), then the punctuation; the punctuation first after an entry
    // read by it.
    const char* entry_end =
        punctuation_first ? nullptr : FitsEntry(entries_[layout], p, begin, end, values);
    auto fitted = static_cast<std::uint8_t>(layout);
    if (!entry_end) {
      if (punctuation_first) {
        entry_end = FitsByPunctuation(p, begin, end, values);
        fitted = kByPunctuation;
      }
      for (std::size_t tried = punctuation_first ? 0 : 1; !entry_end && tried < entries_.size();
           ++tried) {
        layout = layout + 1 == entries_.size() ? 0 : layout + 1;
        if ((entry_end = FitsEntry(entries_[layout], p, begin, end, values)))
          fitted = static_cast<std::uint8_t>(layout);
      }
      if (!entry_end && by_punctuation && !punctuation_first) {
        entry_end = FitsByPunctuation(p, begin, end, values);
        fitted = kByPunctuation;
      }
      if (!entry_end) return nullptr;
    }
    punctuation_first = fitted == kByPunctuation;
    read.entries.push_back({id, fitted});
    read.value_count =
        at + (punctuation_first ? kQueueFields.size() : entries_[fitted].field.size());
    p = entry_end;
    if (!separator_known_ || !At(p, end, separator_)) break;
    p += separator_.size();
  }
  return tail_.Fits(p, end);
}

bool HintLayout::Resolve(const HintText& read, const InstanceTable& table) {
  ++resolves_;
  unregistered_.clear();
  const std::size_t entries = read.entries.size();
  resolved_.resize(entries);
  if (last_index_.size() < entries) last_index_.resize(entries, kUnregistered);
  if (seen_.size() < table.size()) seen_.resize(table.size(), 0);
  for (std::size_t k = 0; k < entries; ++k) {
    const std::string_view id = read.entries[k].id;
    InstanceIndex index = last_index_[k];
    if (index == kUnregistered || !SameId(table.Id(index), id)) {
      const std::optional<InstanceIndex> found = table.Find(id);
      if (!found) {  // never registered: cannot be a candidate
        if (unregistered_.size() == kMaxUnregistered ||
            std::find(unregistered_.begin(), unregistered_.end(), id) != unregistered_.end())
          return false;
        unregistered_.push_back(id);
        resolved_[k] = kUnregistered;
        continue;
      }
      index = last_index_[k] = *found;
    }
    if (seen_[index] == resolves_) return false;  // named twice
    seen_[index] = resolves_;
    resolved_[k] = index;
  }
  return true;
}

void HintLayout::Fill(const HintText& read, Hint& hint) const {
  // An entry read by its punctuation holds every queue field, in order.
  static constexpr auto kEveryField = [] {
    std::array<std::uint8_t, kQueueFields.size()> fields{};
    for (std::size_t i = 0; i < fields.size(); ++i) fields[i] = static_cast<std::uint8_t>(i);
    return fields;
  }();
  hint.queues.clear();
  hint.any_overflow = false;
  const double* values = read.values.data();
  for (std::size_t k = 0; k < read.entries.size(); ++k) {
    const std::uint8_t layout = read.entries[k].layout;
    const std::span<const std::uint8_t> fields =
        layout == kByPunctuation ? std::span<const std::uint8_t>(kEveryField)
                                 : std::span<const std::uint8_t>(entries_[layout].field);
    if (resolved_[k] != kUnregistered) {
      // Made in place: a temporary entry would be zeroed and then copied,
      // twice the bytes of the entry per entry of the hint.
      Hint::Entry& entry = hint.queues.emplace_back();
      entry.instance = resolved_[k];
      for (std::size_t s = 0; s < fields.size(); ++s) {
        const std::uint8_t field = fields[s];
        // null or left out: not a number, to any reading; a key not a
        // queue field: passed over.
        if (field == kPassedOver || std::isnan(values[s])) continue;
        entry.load.known[field] = true;
        entry.load.value[field] = values[s];
      }
    }
    values += fields.size();
  }
}

}  // namespace lbsim
