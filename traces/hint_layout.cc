#include "traces/hint_layout.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
  if (layout_text::SkipPassedValue(value.text.data(), base, value_end) != value_end)
    return FrameMember::kOther;
  const auto begin = static_cast<std::size_t>(value.text.data() - base);
  cuts.emplace_back(begin, begin + value.text.size());
  return FrameMember::kPassed;
}

// Whether `known` is `id`: inline word compares rather than a call, as a
// hint's ids are short and most are the ones the entry named last time.
bool SameId(const std::string& known, std::string_view id) {
  return known.size() == id.size() && layout_text::SameBytes(known.data(), id.data(), id.size());
}

}  // namespace

bool HintLayout::Learn(const JsonView& hint) {
  head_ = {};
  separator_.clear();
  separator_known_ = false;
  tail_ = {};
  entries_.clear();
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
        if (!LearnEntry(w, source, id_begin + id.text.size() - 1, scratch, entry_end))
          return false;
      }
    }
  }
  if (entries == 0) return false;  // no map, or an empty one
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
                            std::string& scratch, std::size_t& entry_end) {
  const char* const base = source.data();
  EntryLayout entry;
  if (!w.EnterObject()) return false;
  for (JsonView key; w.NextKey(key);) {
    if (key.escaped || (w.Kind() != JsonKind::kNumber && w.Kind() != JsonKind::kNull))
      return false;
    const std::size_t field = QueueFieldIndex(ReadString(key, scratch));
    const JsonView value = w.TakeValue();
    const char* const value_end = value.text.data() + value.text.size();
    TraceTime number;
    if (value.is_number() && ReadDecimal(value.text.data(), base, value_end, number) != value_end)
      return false;
    const auto value_begin = static_cast<std::size_t>(value.text.data() - base);
    entry.text.append(source.substr(from, value_begin - from));
    entry.literal_end.push_back(static_cast<std::uint32_t>(entry.text.size()));
    entry.field.push_back(field == kQueueFields.size() ? kPassedOver
                                                       : static_cast<std::uint8_t>(field));
    from = value_begin + value.text.size();
  }
  // The entry's '}' is the first after its last value (or after its id,
  // when it has none): only whitespace, or ": {", comes between.
  entry_end = source.find('}', from) + 1;
  entry.text.append(source.substr(from, entry_end - from));
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
  return KeepEntry(std::move(entry));
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
  // All of them or none: count the new ones first.
  const auto added = std::count_if(other.entries_.begin(), other.entries_.end(),
                                   [&](const EntryLayout& entry) {
                                     return std::find(entries_.begin(), entries_.end(), entry) ==
                                            entries_.end();
                                   });
  if (entries_.size() + static_cast<std::size_t>(added) > kMaxEntryLayouts) return false;
  for (const EntryLayout& entry : other.entries_) KeepEntry(entry);
  if (!separator_known_ && other.separator_known_) {
    separator_ = other.separator_;
    separator_known_ = true;
  }
  return true;
}

inline const char* HintLayout::Frame::Fits(const char* p, const char* begin, const char* end) const {
  std::size_t from = 0;
  for (std::size_t i = 0;; ++i) {
    const std::size_t n = literal_end[i] - from;
    if (!LiteralAt(p, end, text.data() + from, n)) return nullptr;
    p += n;
    from = literal_end[i];
    if (i + 1 == literal_end.size()) return p;
    if (!(p = layout_text::SkipPassedValue(p, begin, end))) return nullptr;
  }
}

inline const char* HintLayout::FitsEntry(const EntryLayout& layout, const char* p,
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
    // A Proxy's queue depths are mostly one digit: read as ReadDecimal
    // reads it (a digit, then neither a digit nor a '.') without its word
    // arithmetic.
    if (end - p >= 2) {
      const auto digit = static_cast<unsigned char>(p[0] - '0');
      if (digit <= 9 && !layout_text::IsDigit(p[1]) && p[1] != '.') {
        values[i] = digit;
        ++p;
        continue;
      }
    }
    if (p < end && *p == 'n') {
      if (!(p = ReadNull(p, end))) return nullptr;
      values[i] = kNull;
      continue;
    }
    TraceTime number;
    p = ReadDecimal(p, begin, end, number);
    if (!p) return nullptr;
    values[i] = number.value;
  }
}

const char* HintLayout::Fits(const char* p, const char* begin, const char* end,
                             HintText& read) const {
  read.entries.clear();
  read.value_count = 0;
  if (!(p = head_.Fits(p, begin, end))) return nullptr;
  if (p < end && *p != '"') return tail_.Fits(p, begin, end);  // no entry
  std::size_t layout = 0;  // the one the last entry fitted: tried first
  for (;;) {
    std::string_view id;
    if (p == end || *p != '"' || !(p = ReadId(p + 1, end, kMaxIdBytes, id))) return nullptr;
    // Room for the numbers of any entry layout.
    const std::size_t at = read.value_count;
    if (read.values.size() < at + most_slots_) read.values.resize(2 * (at + most_slots_));
    double* const values = read.values.data() + at;
    // The entry layouts from the last one fitted on, each once: at most
    // one fits an entry (their literals fix where each number goes).
    const char* entry_end;
    for (std::size_t tried = 1; !(entry_end = FitsEntry(entries_[layout], p, begin, end, values));
         ++tried) {
      if (tried == entries_.size()) return nullptr;
      layout = layout + 1 == entries_.size() ? 0 : layout + 1;
    }
    read.entries.push_back({id, static_cast<std::uint8_t>(layout)});
    read.value_count = at + entries_[layout].field.size();
    p = entry_end;
    if (!separator_known_ || !At(p, end, separator_)) break;
    p += separator_.size();
  }
  return tail_.Fits(p, begin, end);
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
  hint.queues.clear();
  hint.any_overflow = false;
  const double* values = read.values.data();
  for (std::size_t k = 0; k < read.entries.size(); ++k) {
    const EntryLayout& layout = entries_[read.entries[k].layout];
    const std::size_t slots = layout.field.size();
    if (resolved_[k] != kUnregistered) {
      // Made in place: a temporary entry would be zeroed and then copied,
      // twice the bytes of the entry per entry of the hint.
      Hint::Entry& entry = hint.queues.emplace_back();
      entry.instance = resolved_[k];
      for (std::size_t s = 0; s < slots; ++s) {
        const std::uint8_t field = layout.field[s];
        // null: not a number, to any reading; a key not a queue field: passed over.
        if (field == kPassedOver || std::isnan(values[s])) continue;
        entry.load.known[field] = true;
        entry.load.value[field] = values[s];
      }
    }
    values += slots;
  }
}

}  // namespace lbsim
