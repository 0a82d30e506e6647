#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strategies/hint.h"
#include "traces/instance_table.h"
#include "traces/json_view.h"

namespace lbsim {

// The layout of a Proxy queue hint as Proxy logs repeat it line after line,
//   {"queue_depths": {"per_instance": {ID: {KEY: N, ...}, ...}}}
// with its numbers cut out, so that a hint laid out like an earlier one is
// read without scanning it as JSON (see LineLayouts, which holds these).
// Every KEY is one of kQueueFields, each N null or a number a LineLayouts
// number slot takes (no sign, no exponent, no leading zero, at most 15
// digits); everything else (braces, ids, keys, whitespace) must recur byte
// for byte. A hint that fits decodes, entry for entry, as
// EventDecoder::DecodeHint decodes it, under every HintReading: a JSON
// number is known to both, null to neither.
class HintLayout {
 public:
  // Learns the layout of `hint`, a value JsonScanner accepted (nested keys
  // unique); false, leaving this unusable, when it is not of the shape
  // above.
  bool Learn(const JsonView& hint);

  // How many numbers a fitting hint holds.
  std::size_t slots() const { return slot_field_.size(); }

  // Reads a hint at `p` in the text [begin, end) that fits this layout,
  // writing its slots() numbers to `values` (NaN for null); returns where
  // the hint ends, or nullptr when it does not fit.
  const char* Fits(const char* p, const char* begin, const char* end, double* values) const;

  // Sets `hint.queues` to the entries of a hint that fitted, `values` its
  // numbers, for the Instances `table` knows, in the hint's order.
  void Fill(const double* values, const InstanceTable& table, Hint& hint);

  friend bool operator==(const HintLayout& a, const HintLayout& b) {
    return a.text_ == b.text_ && a.literal_end_ == b.literal_end_ &&
           a.slot_field_ == b.slot_field_ && a.entry_begin_ == b.entry_begin_ && a.ids_ == b.ids_;
  }

 private:
  // Looks the entries' ids up again when `table` has grown since.
  void Resolve(const InstanceTable& table);

  // The literal before slot i is text_[literal_end_[i-1], literal_end_[i]),
  // from 0 for the first; the last one ends the hint.
  std::string text_;
  std::vector<std::uint32_t> literal_end_;
  // Slot i holds the kQueueFields field slot_field_[i]; entry k's slots
  // are [entry_begin_[k], entry_begin_[k + 1]).
  std::vector<std::uint8_t> slot_field_;
  std::vector<std::uint32_t> entry_begin_;
  // Entry k's id, and its Instance as `table` had it when resolved_size_.
  std::vector<std::string> ids_;
  std::vector<std::optional<InstanceIndex>> index_;
  std::size_t resolved_size_ = SIZE_MAX;
};

}  // namespace lbsim
