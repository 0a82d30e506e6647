#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strategies/hint.h"
#include "traces/instance_table.h"
#include "base/json/json_view.h"

namespace lbsim {

// What HintLayout::Fits read from one hint: its entries, each an id and the
// entry layout it fitted, and their numbers one entry after another (NaN
// for null), the first `value_count` of `values`.
struct HintText {
  struct Entry {
    std::string_view id;
    std::uint8_t layout;
  };
  std::vector<Entry> entries;
  std::vector<double> values;
  std::size_t value_count = 0;
};

// The layout of a Proxy queue hint as Proxy logs repeat it line after line,
//   {"queue_depths": {"prepare_queue_depth": N, "ready_queue_depth": N,
//                     "per_instance": {ID: {KEY: N, ...}, ...}}}
// with its ids and numbers cut out, so that a hint laid out like an earlier
// one is read without scanning it as JSON (see LineLayouts, which holds
// these). The text around the map, between its entries and after it must
// recur byte for byte but for the values of members other than
// queue_depths and per_instance (the Proxy's queue totals, or the request
// a log writes beside them, anywhere in the hint or in queue_depths),
// which the decoder passes over and which are read past as LineLayouts
// reads a passed-over value (a string, a number with or without a sign,
// true, false, null, or an object or array of these, nested: see
// SkipPassedContainer). Each entry must
// be laid out like one of the entries the hint was learned from (its keys,
// their order and whitespace), but the entries may come in any number and
// order and name any Instances, so that a Proxy's map with an Instance
// more or less, or in another order, still fits. An ID is printable ASCII
// without escapes; each N of a KEY in kQueueFields is null or a number a
// LineLayouts number slot takes (no sign, no exponent, no leading zero, at
// most 15 digits); a KEY not in kQueueFields is passed over, as the
// decoder passes it over, its value read past as LineLayouts reads a
// passed-over value. An entry laid out like none of them is still read
// when every entry learned was punctuated alike (see Punctuation) and it
// is too: such keys and values under keys of printable ASCII without
// escapes, each once, in any order and any number, as a writer that
// leaves out an Instance's zero counts or keeps its keys in a hash map
// lays entries out. A hint that fits decodes, entry for entry, as
// EventDecoder::DecodeHint decodes it, under every HintReading: a JSON
// number is known to both, null to neither.
class HintLayout {
 public:
  // The most distinct entry layouts one hint layout keeps: enough for
  // entries that each leave out some of four keys. Entries of more
  // layouts are read by their punctuation.
  static constexpr std::size_t kMaxEntryLayouts = 16;

  // Learns the layout of `hint`, a value JsonScanner accepted (nested keys
  // unique); false, leaving this unusable, when it is not of the shape
  // above, or holds more distinct entry layouts than are kept and its
  // entries are not all punctuated alike.
  bool Learn(const JsonView& hint);

  // Takes in the entry layouts of `other` that this lacks, when the two
  // differ in nothing else (the text around the map and between its
  // entries, where both know it, the same), so that hints whose entries
  // vary in their keys come to fit one layout; false, changing nothing,
  // when they differ otherwise, or that would be more than
  // kMaxEntryLayouts and the entries of both are not all punctuated alike
  // (then the layouts past kMaxEntryLayouts are left to the punctuation).
  bool MergeEntries(const HintLayout& other);

  // Reads a hint at `p` in the text [begin, end) that fits this layout into
  // `read` (cleared first); returns where the hint ends, or nullptr when it
  // does not fit.
  const char* Fits(const char* p, const char* begin, const char* end, HintText& read) const;

  // Looks up the Instances of the entries `read` holds in `table`. False
  // when the hint names an Instance twice, which is the general path's to
  // decide (a repeated key).
  bool Resolve(const HintText& read, const InstanceTable& table);
  // Sets `hint.queues` to the entries `read` holds for the Instances the
  // last successful Resolve of `read` found, in the hint's order.
  void Fill(const HintText& read, Hint& hint) const;

  friend bool operator==(const HintLayout& a, const HintLayout& b) {
    return a.head_ == b.head_ && a.separator_known_ == b.separator_known_ &&
           a.separator_ == b.separator_ && a.tail_ == b.tail_ && a.entries_ == b.entries_ &&
           a.punctuation_ == b.punctuation_;
  }

 private:
  // A slot holding the value of a key that is not a queue field (passed over).
  static constexpr std::uint8_t kPassedOver = 0xFF;
  // HintText::Entry::layout of an entry read by its punctuation (past
  // every entry layout's index): its values are kQueueFields.size()
  // numbers, in kQueueFields' order, NaN for a field it leaves out or
  // holds null.
  static constexpr std::uint8_t kByPunctuation = kMaxEntryLayouts;
  // The most keys not queue fields that an entry read by its punctuation
  // may hold (each is compared with the others: a repeated key is the
  // general path's to report).
  static constexpr std::size_t kMaxPassedKeys = 8;
  // The longest key an entry read by its punctuation may hold.
  static constexpr std::size_t kMaxKeyBytes = 64;

  // The text of an entry around its keys and values, as a JSON writer puts
  // it: from the id's closing quote to the first key's opening quote
  // (`": {"`), from a key's closing quote to its value (`": `), from a
  // value to the next key's opening quote (`, "`) and after the last value
  // (`}`). Each piece is empty until learned (none is empty once it is):
  // usable when learned from entries with a key, all punctuated alike;
  // `comma` is learned once one of them had two keys.
  struct Punctuation {
    std::string open, colon, comma, close;
    bool alike = true;

    bool Usable() const { return !open.empty() && alike; }
    // Takes in what `other` knows; entries punctuated otherwise make this
    // unusable for good.
    void Absorb(const Punctuation& other);
    friend bool operator==(const Punctuation&, const Punctuation&) = default;
  };

  // One entry's layout after its id: the literal before slot i is
  // text[literal_end[i-1], literal_end[i]), from the id's closing quote for
  // the first; the last one ends the entry.
  struct EntryLayout {
    std::string text;
    std::vector<std::uint32_t> literal_end;
    std::vector<std::uint8_t> field;  // kQueueFields index, or kPassedOver
    // The entry with every number one digit, as WithinSlack compares it:
    // '0' and a slack of 9 where a digit goes, the literals with none.
    // Empty below 16 bytes (read slot by slot only).
    std::string one_digit, one_digit_slack;

    friend bool operator==(const EntryLayout&, const EntryLayout&) = default;
  };

  // Learns the layout of the entry at the walker's cursor, whose id's
  // closing quote is at `from` in `source`, keeping it when it is new;
  // sets `entry_end` to where the entry ends, and `dropped` when it is new
  // and kMaxEntryLayouts are kept already (it is left to the punctuation).
  // False when it is not of the shape above.
  bool LearnEntry(JsonWalker& w, std::string_view source, std::size_t from, std::string& scratch,
                  std::size_t& entry_end, bool& dropped);
  // Keeps `entry` unless one like it is kept; false when it is new and
  // kMaxEntryLayouts are kept already.
  bool KeepEntry(EntryLayout entry);
  // Reads the rest of an entry fitting `layout` at `p` (its id's closing
  // quote), writing its numbers to `values`; where it ends, or nullptr.
  static const char* FitsEntry(const EntryLayout& layout, const char* p, const char* begin,
                               const char* end, double* values);
  // Reads the rest of an entry at `p` (its id's closing quote) punctuated
  // as punctuation_, writing its queue fields' numbers to `values` (see
  // kByPunctuation); where it ends, or nullptr.
  const char* FitsByPunctuation(const char* p, const char* begin, const char* end,
                                double* values) const;

  // Text of the hint around its map's entries: literals, with a value
  // passed over between each two (text[literal_end[i-1], literal_end[i])
  // is literal i, from 0 for the first).
  struct Frame {
    std::string text;
    std::vector<std::uint32_t> literal_end;

    // Past the frame at `p` in a text that ends at `end`, or nullptr when
    // it is not there.
    const char* Fits(const char* p, const char* end) const;
    friend bool operator==(const Frame&, const Frame&) = default;
  };

  Frame head_;             // up to the first entry's id, its quote excluded
  std::string separator_;  // between two entries (learned from a hint with two)
  bool separator_known_ = false;
  Frame tail_;  // after the last entry
  std::vector<EntryLayout> entries_;
  Punctuation punctuation_;  // of every entry learned
  // Some entry learned was left to the punctuation: it must stay usable.
  bool relies_on_punctuation_ = false;
  std::size_t most_slots_ = 0;  // the most numbers one entry layout holds

  // Resolve's: entry k's Instance (kUnregistered: none); the Instance entry
  // k named when last looked up (its id is compared first, which spares
  // hashing ids that recur in place, as EventDecoder does); the Resolve
  // that last saw each Instance; this Resolve's ids that the table lacks.
  static constexpr InstanceIndex kUnregistered = ~InstanceIndex{0};
  std::vector<InstanceIndex> resolved_;
  std::vector<InstanceIndex> last_index_;
  std::vector<std::uint64_t> seen_;
  std::uint64_t resolves_ = 0;
  std::vector<std::string_view> unregistered_;
};

}  // namespace lbsim
