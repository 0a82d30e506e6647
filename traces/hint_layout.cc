#include "traces/hint_layout.h"

#include <cmath>
#include <limits>

#include "traces/layout_text.h"

namespace lbsim {
namespace {

using layout_text::Load32;
using layout_text::ReadDecimal;
using layout_text::SameBytes;

// What a `null` slot reads as: no number ReadDecimal gives.
constexpr double kNull = std::numeric_limits<double>::quiet_NaN();

// Enters the object at the walker's cursor and moves to its first member,
// which must be `name`, written without escapes.
bool EnterFirstMember(JsonWalker& w, std::string_view name) {
  JsonView key;
  return w.EnterObject() && w.NextKey(key) && !key.escaped &&
         key.text.substr(1, key.text.size() - 2) == name;
}

}  // namespace

bool HintLayout::Learn(const JsonView& hint) {
  text_.clear();
  literal_end_.clear();
  slot_field_.clear();
  entry_begin_.clear();
  ids_.clear();
  index_.clear();
  resolved_size_ = SIZE_MAX;

  const std::string_view source = hint.text;
  const char* const base = source.data();
  std::size_t from = 0;  // where the literal not yet appended starts
  std::string scratch;
  JsonWalker w(source);
  if (!EnterFirstMember(w, "queue_depths") || !EnterFirstMember(w, "per_instance") ||
      !w.EnterObject())
    return false;
  for (JsonView id; w.NextKey(id);) {
    entry_begin_.push_back(static_cast<std::uint32_t>(slot_field_.size()));
    ids_.emplace_back(ReadString(id, scratch));
    if (!w.EnterObject()) return false;
    for (JsonView key; w.NextKey(key);) {
      if (key.escaped || (w.Kind() != JsonKind::kNumber && w.Kind() != JsonKind::kNull))
        return false;
      const std::size_t field = QueueFieldIndex(ReadString(key, scratch));
      if (field == kQueueFields.size()) return false;
      const JsonView value = w.TakeScalar();
      const char* const value_end = value.text.data() + value.text.size();
      TraceTime number;
      if (value.is_number() && ReadDecimal(value.text.data(), base, value_end, number) != value_end)
        return false;
      const auto value_begin = static_cast<std::size_t>(value.text.data() - base);
      text_.append(source.substr(from, value_begin - from));
      literal_end_.push_back(static_cast<std::uint32_t>(text_.size()));
      slot_field_.push_back(static_cast<std::uint8_t>(field));
      from = value_begin + value.text.size();
    }
  }
  // Nothing but per_instance in queue_depths, nothing but queue_depths in
  // the hint.
  JsonView key;
  if (w.NextKey(key) || w.NextKey(key)) return false;
  entry_begin_.push_back(static_cast<std::uint32_t>(slot_field_.size()));
  text_.append(source.substr(from));
  literal_end_.push_back(static_cast<std::uint32_t>(text_.size()));
  index_.assign(ids_.size(), std::nullopt);
  return true;
}

const char* HintLayout::Fits(const char* p, const char* begin, const char* end,
                             double* values) const {
  const char* const literals = text_.data();
  const std::size_t slots = slot_field_.size();
  std::size_t from = 0;
  for (std::size_t i = 0;; ++i) {
    const std::size_t n = literal_end_[i] - from;
    if (static_cast<std::size_t>(end - p) < n || !SameBytes(p, literals + from, n)) return nullptr;
    p += n;
    from = literal_end_[i];
    if (i == slots) return p;
    if (p < end && *p == 'n') {
      if (end - p < 4 || Load32(p) != Load32("null")) return nullptr;
      p += 4;
      values[i] = kNull;
      continue;
    }
    TraceTime number;
    p = ReadDecimal(p, begin, end, number);
    if (!p) return nullptr;
    values[i] = number.value;
  }
}

void HintLayout::Resolve(const InstanceTable& table) {
  for (std::size_t k = 0; k < ids_.size(); ++k) index_[k] = table.Find(ids_[k]);
  resolved_size_ = table.size();
}

void HintLayout::Fill(const double* values, const InstanceTable& table, Hint& hint) {
  if (resolved_size_ != table.size()) Resolve(table);
  hint.queues.clear();
  hint.any_overflow = false;
  for (std::size_t k = 0; k < ids_.size(); ++k) {
    if (!index_[k]) continue;  // never registered: cannot be a candidate
    Hint::Entry& entry = hint.queues.emplace_back(Hint::Entry{*index_[k], {}});
    for (std::uint32_t s = entry_begin_[k]; s < entry_begin_[k + 1]; ++s) {
      if (std::isnan(values[s])) continue;  // null: not a number, to any reading
      entry.load.known[slot_field_[s]] = true;
      entry.load.value[slot_field_[s]] = values[s];
    }
  }
}

}  // namespace lbsim
