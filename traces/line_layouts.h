#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "traces/key_near_misses.h"
#include "traces/hint_layout.h"
#include "traces/instance_table.h"
#include "base/json/json_view.h"
#include "traces/trace_reader.h"
#include "traces/trace_event.h"

namespace lbsim {

// The layouts of recent JSON Lines event lines, so that lines laid out like
// one of them are read without scanning them as JSON. A layout is a valid
// event line with its values cut out: braces, keys, the event type and
// whitespace must recur byte for byte, and each value must be one its slot
// takes as it stands:
//   t, duration, qps_1m  a number >= 0: no sign, no exponent, no leading
//                        zero; an integer of at most 15 digits or a
//                        fraction of any length in the double range
//                        (qps_1m: or null);
//   inflight, input_tokens, output_tokens
//                        such an integer (inflight: or null);
//   instance             a non-empty id of printable ASCII, no escapes;
//   request              such an id, or any other non-empty string the
//                        scanner takes (escapes, UTF-8) of at most
//                        kMaxIdBytes bytes as it stands (decoded, it is
//                        never longer);
//   hint                 a Proxy queue hint laid out as the learned one
//                        (see HintLayout); one that holds nothing ({} or
//                        null) is part of the layout's text instead;
//   prefix_blocks        an array of block ids, integers below 2^64 (see
//                        ReadBlockIds), of any length;
//   any key the decoder passes over (not IsEventKey: so not weight or
//   speed either)
//                        any string (escapes and UTF-8 as the scanner
//                        takes them), any number below 1e300 (see
//                        SkipPassedNumber), true, false, null, or an
//                        object or array of such values, nested (see
//                        SkipPassedContainer); read past, as the decoder
//                        passes it over.
// A line laid out like none of them is still read when it is punctuated as
// the last layout learned was (`{"`, `": `, `, "`, `}` as a JSON writer
// puts them; see ReadByPunctuation): its keys in any order and any subset,
// as a writer that leaves out keys it has no value for writes them, each
// value one its key's slot takes (a hint of the Proxy's shape one a hinted
// layout kept reads), and its layout is learned from it (unless hinted,
// or while most lines fit no layout: see Fit).
// Any other line, including every line in error, is left to the general
// path, which decides about it as ever. Layouts are learned from arrivals
// (t, type and maybe request, duration, input_tokens, output_tokens,
// prefix_blocks and hint; an arrival's instance, inflight and qps_1m are
// passed over, as the decoder passes them over) and loads (t, type,
// instance and maybe inflight and qps_1m), their keys in any order and
// each once, with keys the decoder passes over among them (at most
// kMaxSlots values in all). Hinted layouts are kept
// apart from the others, so that hints whose layout keeps changing never
// push out the layout of a plain line; while hints keep failing to be
// learned or to be read again, learning them backs off (it costs a walk
// over the hint).
class LineLayouts {
 public:
  // How many layouts are kept of each kind: enough for a trace whose
  // arrivals come with and without a request id, a duration or a hint, and
  // loads with and without qps_1m, mixed line by line. A line that fits
  // none is read the general way and learned, pushing out the oldest.
  static constexpr std::size_t kMaxLayouts = 8;      // without a hint
  static constexpr std::size_t kMaxHintLayouts = 4;  // with one
  // The longest line or element read by layout. Every JSON value but the
  // outermost takes two bytes at least (itself and the ',' or bracket
  // after it), so no text this long holds more than kMaxEventValues
  // values, the limit the scanner counts and layouts do not; a longer one
  // is the general path's.
  static constexpr std::size_t kMaxBytes = 2 * kMaxEventValues;

  // `learn_hints`: whether layouts may hold a hint; a run whose strategies
  // want each hint's text (Hint::raw_json) reads hinted lines the general
  // way. `lines`: events are JSON Lines, each ending at a '\n'; otherwise
  // they are the elements of a document's events array, each ending where
  // its layout does (what follows is the reader's to check), and their
  // layouts may span lines.
  explicit LineLayouts(bool learn_hints = true, bool lines = true)
      : learn_hints_(learn_hints), lines_(lines) {}

  // Where the keys a line read by its punctuation passes over are noted
  // (may be null: nowhere).
  void set_near_misses(KeyNearMisses* near_misses) { near_misses_ = near_misses; }
  // The share of hinted lines, in eighths (null: none), whose hint Read
  // may leave unread (TraceEvent's deferred_line) when it is the line's
  // last value: of each eight hinted lines read, the first that many. The
  // share is read again at every line.
  void set_deferred_hint_share(const std::uint8_t* eighths) { defer_share_ = eighths; }

  // Reads the line at the start of `text`, which ends at the first '\n':
  // when that '\n' is in `text`, the line (at most kMaxBytes) fits a
  // remembered layout or is read by its punctuation (and learned, see
  // above) and its time is at least `not_before`, sets `event`
  // to what EventDecoder::Decode makes of the line (its Instance looked up
  // in `table`; its position left alone) and `size` to the line's length
  // without the '\n', and returns true. Otherwise returns false and leaves
  // `event` alone. So a reader need not find where a line ends before
  // trying it here.
  // `event` must be the one Read last set, unchanged since, unless Forget
  // was called after it changed (or for another event). (For a document's
  // element: "line" is the element, which ends where its layout does.)
  bool Read(std::string_view text, const InstanceTable& table, double not_before,
            TraceEvent& event, std::size_t& size);
  // The size of the event at the start of `text` when it fits a remembered
  // layout or is read by its punctuation (and learned), is at most
  // kMaxBytes and (for a hint) names no Instance
  // twice; otherwise 0. Such an event is JSON that JsonScanner accepts as
  // it stands, so that a reader that only validates (a document's first
  // pass) need not scan it. Nothing else is checked or decoded.
  std::size_t Validate(std::string_view text);
  // The event Read last set changed, or another one comes next.
  void Forget() { left_arrival_ = false; }

  // Remembers the layout of `line`, an event line whose members (as
  // JsonScanner shows them) EventDecoder accepted (for
  // Validate alone: that JsonScanner accepted), when it is one of those
  // above and new; the oldest of its kind gives way.
  void Learn(std::string_view line, std::span<const JsonMember> members);

  std::size_t size() const { return count_; }

 private:
  static constexpr std::size_t kMaxSlots = 10;

  enum class Slot : std::uint8_t {
    kTime, kDuration, kInstance, kInflight, kQps, kRequest, kInputTokens, kOutputTokens,
    kPrefixBlocks, kHint,
    // The value of a key the decoder passes over.
    kPassedString, kPassedNumber, kPassedWord, kPassedContainer
  };

  struct Layout {
    EventType type = EventType::kArrival;
    std::size_t slots = 0;
    std::array<Slot, kMaxSlots> slot{};
    // The literal before slot i is text[literal_end[i-1], literal_end[i]),
    // from 0 for the first; the one after the last slot ends the line.
    std::array<std::uint32_t, kMaxSlots + 1> literal_end{};
    std::string text;
    bool hinted = false;  // it has a kHint slot, laid out as `hint`
    HintLayout hint;
    std::uint64_t learned = 0;  // when it was learned (a count of layouts)
    bool used = false;          // a line was read by it

    // Whether it is laid out as `o` but maybe for its hint.
    bool SameLineAs(const Layout& o) const {
      return type == o.type && slots == o.slots && slot == o.slot &&
             literal_end == o.literal_end && text == o.text && hinted == o.hinted;
    }
    bool SameAs(const Layout& o) const { return SameLineAs(o) && hint == o.hint; }
  };

  // The values a line fitting a layout holds. The time's parts are kept
  // apart: written one by one, they would be read back as one 16-byte
  // TraceTime, a load that waits for both stores (a stall perf showed on
  // every line).
  struct Values {
    double t = 0.0;
    double duration = 0.0;
    double qps_1m = 0.0;
    std::uint64_t t_integer = 0;
    std::int64_t inflight = 0;
    std::uint64_t input_tokens = 0;
    std::uint64_t output_tokens = 0;
    std::string_view instance;
    std::string_view request;  // as it stands in the line, between its quotes
    bool t_integral = false;
    bool has_duration = false;
    bool has_qps_1m = false;
    bool has_inflight = false;
    bool inflight_null = false;  // and inflight 0
    bool qps_1m_null = false;    // and qps_1m 0
    bool has_input_tokens = false;
    bool has_output_tokens = false;
    bool has_prefix_blocks = false;  // its ids went to the ids given
    bool request_escaped = false;  // the request holds escapes to decode
    bool has_hint = false;  // what it holds went to the hint's text
    // The hint's text, left unread (see set_deferred_hint_share); null
    // when read.
    const char* deferred_hint = nullptr;
    const char* deferred_hint_end = nullptr;
  };

  // A key whose value a slot reads (t, duration, ...), and the bit that
  // notes it in a line (see the .cc).
  struct KeySlot {
    std::string_view key;
    Slot slot;
    unsigned bit;
  };
  // The KeySlot of `key`; nullptr for type, hint and the keys the decoder
  // passes over, whose values no slot reads.
  static const KeySlot* SlotOf(std::string_view key);
  // Past the value at `p` in the text [begin, end) that `slot` (not kHint)
  // takes, setting its field of `values` (a prefix_blocks' ids replace
  // those in `prefix_ids`); nullptr when it takes none there.
  static const char* ReadSlot(Slot slot, const char* p, const char* begin, const char* end,
                              Values& values, std::vector<std::uint64_t>& prefix_ids);
  // Where the line at the start of `text` ends (at its '\n'; with `lines`
  // false, where the layout's last literal does) when it fits `layout`,
  // setting `values`, what its hint holds in `hint` and its prefix_blocks'
  // ids in `prefix_ids`; otherwise nullptr.
  static const char* Fits(const Layout& layout, std::string_view text, bool lines, bool defer,
                          Values& values, HintText& hint, std::vector<std::uint64_t>& prefix_ids);
  // Fits with each layout but the one that fitted last; sets last_fit_ to
  // the one that fits.
  const char* FitsOthers(std::string_view text, Values& values);

  // How Fit read a line: as a layout of `type` whose hint (if any) is
  // layouts_[hint_owner]'s, or by its punctuation (see ReadByPunctuation).
  struct Fitted {
    EventType type = EventType::kArrival;
    std::size_t hint_owner = 0;
    bool by_punctuation = false;
  };
  // Where the line at the start of `text` ends when the layout that fitted
  // last fits it, or another, or its punctuation reads it, in that order;
  // while most lines fit no layout (miss_rate_), its punctuation is tried
  // before the other layouts, and for kPunctuationFirstLines such lines
  // before they are tried in turn again. Sets `values` and `fitted`;
  // nullptr when none reads it.
  const char* Fit(std::string_view text, Values& values, Fitted& fitted);
  // Fit when the layout that fitted last does not: the other layouts, then
  // the punctuation, keeping miss_rate_ of how often the punctuation was
  // needed, and switching to FitPunctuationFirst when it passes
  // kPunctuationFirstRate.
  const char* FitLayoutsFirst(std::string_view text, Values& values, Fitted& fitted);
  // Fit when the layout that fitted last does not, while most lines fit no
  // layout: the punctuation, then the other layouts; back to
  // FitLayoutsFirst after kPunctuationFirstLines such lines.
  const char* FitPunctuationFirst(std::string_view text, Values& values, Fitted& fitted);

  // The text a JSON writer puts around a line's keys and values: before
  // the first key's name (`{"`), between a key's name and its value
  // (`": `), between a value and the next key's name (`, "`), after the
  // last value (`}`). Empty until learned.
  struct Punctuation {
    std::string open, colon, comma, close;
  };
  // The most keys a line read by its punctuation may hold that the decoder
  // passes over (each is compared with the others: a repeated key is the
  // general path's to report), and the longest of them.
  static constexpr std::size_t kMaxPassedKeys = 8;
  static constexpr std::size_t kMaxKeyBytes = 64;
  // Where the line at the start of `text` ends (as Fits) when it is
  // punctuated as punctuation_ says, each key once: t, type ("arrival" or
  // "load"), duration, request, instance, inflight, qps_1m, input_tokens
  // and output_tokens with values their slots take; hint (unless hints
  // are not learned) as {} or null, or as the hint of a kept hinted layout
  // reads it; and up to kMaxPassedKeys keys the decoder passes over (not
  // IsEventKey), of at most kMaxKeyBytes of printable ASCII, their values
  // read past as SkipPassedValue reads them; an arrival or a load with the
  // keys Learn takes for them. Sets `values`, `type`, the hinted layout
  // whose hint read the line's in `hint_owner`, and (when not hinted) the
  // line's members in members_; otherwise nullptr.
  const char* ReadByPunctuation(std::string_view text, Values& values, EventType& type,
                                std::size_t& hint_owner);
  // Learns the layout of `line`, which ReadByPunctuation just read, from
  // the members it kept (none when hinted).
  void LearnRead(std::string_view line);
  // Learns the punctuation of `line`, whose members are `members`, when
  // it is the same between each of them.
  void LearnPunctuation(std::string_view line, std::span<const JsonMember> members);

  // Keeps `layout`, new, in place of the oldest of its kind when there are
  // as many as are kept; a hinted one that differs from one kept only in
  // its hint's entry layouts adds them to that one instead.
  void Remember(Layout layout);
  // Skips learning the next hints, more of them each time in a row.
  void BackOffHints();

  static constexpr std::uint32_t kMaxHintBackoff = 4095;

  bool learn_hints_;
  bool lines_;
  const std::uint8_t* defer_share_ = nullptr;
  bool defer_now_ = false;        // the line being read may leave its hint unread
  std::uint8_t hinted_read_ = 0;  // hinted lines Read read, modulo 256
  KeyNearMisses* near_misses_ = nullptr;
  std::array<Layout, kMaxLayouts + kMaxHintLayouts> layouts_;
  std::uint64_t learned_ = 0;
  HintText hint_text_;  // what the hint of the line last tried holds
  // The prefix_blocks' ids of the line last tried (when it had them).
  std::vector<std::uint64_t> prefix_ids_;
  std::string request_;  // the escaped request id Read last decoded
  std::vector<std::string_view> ids_;  // Validate's: the hint's ids, sorted
  std::uint32_t hint_skips_left_ = 0;  // hints to come whose layout is not learned
  std::uint32_t hint_backoff_ = 0;     // the skips after the next failure
  std::size_t count_ = 0;
  std::size_t last_fit_ = 0;  // tried first
  Punctuation punctuation_;
  // How many of the lines the last fitted layout did not fit needed their
  // punctuation read, in 256ths, decaying by 1/8 a line; past
  // kPunctuationFirstRate, the punctuation is tried first.
  static constexpr std::uint32_t kPunctuationFirstRate = 128;
  static constexpr std::uint32_t kPunctuationFirstLines = 4096;
  std::uint32_t miss_rate_ = 0;
  bool punctuation_first_ = false;
  std::uint32_t lines_until_retry_ = 0;
  // The members of the line ReadByPunctuation read last (for Learn).
  std::array<JsonMember, 2 + kMaxSlots> members_;
  std::size_t member_count_ = 0;
  // The event Read last set is an arrival with every field but type, t,
  // position, request, duration, the token counts and the hint's queues
  // unset.
  bool left_arrival_ = false;
};

}  // namespace lbsim
