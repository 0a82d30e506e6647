#include "traces/line_layouts.h"

#include <bit>
#include <cstring>

#include "traces/trace_reader.h"

namespace lbsim {
namespace {

// Most digits a slot's number may have: below 2^53 as an integer, so the
// value and the division below are exact before their one rounding.
constexpr std::size_t kMaxDigits = 15;

std::uint64_t Load64(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::uint32_t Load32(const char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Whether the `n` bytes at `a` and `b` are equal; a few word compares
// instead of a call for the short literals of a layout.
inline bool SameBytes(const char* a, const char* b, std::size_t n) {
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 < n; i += 8)
      if (Load64(a + i) != Load64(b + i)) return false;
    return Load64(a + n - 8) == Load64(b + n - 8);
  }
  if (n >= 4) return Load32(a) == Load32(b) && Load32(a + n - 4) == Load32(b + n - 4);
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

inline bool IsDigit(char c) { return static_cast<unsigned char>(c - '0') <= 9; }

// 10^k, exact as an integer and as a double.
constexpr std::uint64_t kPowersOfTen[kMaxDigits + 1] = {
    1,          10,          100,          1000,          10000,          100000,
    1000000,    10000000,    100000000,    1000000000,    10000000000,    100000000000,
    1000000000000, 10000000000000, 100000000000000, 1000000000000000};

// The (up to) 8 bytes from `p` of the text [begin, end), the first in the
// lowest byte and zeros past the end, read without touching a byte outside
// the text.
inline std::uint64_t Load8(const char* p, const char* begin, const char* end) {
  if (end - p >= 8) return Load64(p);
  if (p == end) return 0;
  if (end - begin >= 8) return Load64(end - 8) >> (8 * (8 - (end - p)));
  std::uint64_t v = 0;
  std::memcpy(&v, p, static_cast<std::size_t>(end - p));
  return v;
}

// How many of the bytes in `v` (from the lowest) are digits before the
// first that is not, up to 8. A byte above a non-digit may be misjudged
// (a carry), but no byte before the first non-digit is.
inline unsigned DigitRun(std::uint64_t v) {
  constexpr std::uint64_t kHigh = 0xF0F0F0F0F0F0F0F0, kThrees = 0x3030303030303030;
  const std::uint64_t not_digit =
      ((v & kHigh) ^ kThrees) | (((v + 0x0606060606060606) & kHigh) ^ kThrees);
  return not_digit == 0 ? 8 : static_cast<unsigned>(std::countr_zero(not_digit)) / 8;
}

// The value of the first `n` (1 to 8) bytes of `v`, all digits, the first
// the most significant: three multiply-adds instead of a loop whose exit
// the branch predictor cannot know.
inline std::uint64_t DigitsValue(std::uint64_t v, unsigned n) {
  std::uint64_t d = (v - 0x3030303030303030) << (8 * (8 - n));
  d = (d * 10 + (d >> 8)) & 0x00FF00FF00FF00FF;
  d = (d * 100 + (d >> 16)) & 0x0000FFFF0000FFFF;
  return (d * 10000 + (d >> 32)) & 0xFFFFFFFF;
}

// Reads the run of digits at `p` in the text [begin, end) into `value`
// (wrapping past 19 digits; callers refuse more than kMaxDigits) and
// returns where it ends.
inline const char* ReadDigits(const char* p, const char* begin, const char* end,
                              std::uint64_t& value) {
  const std::uint64_t v = Load8(p, begin, end);
  const unsigned n = DigitRun(v);
  if (n == 0) return p;
  value = DigitsValue(v, n);
  p += n;
  if (n == 8)
    while (p < end && IsDigit(*p)) value = value * 10 + static_cast<unsigned>(*p++ - '0');
  return p;
}

// Reads a number slot at `p` of the text [begin, end) (see LineLayouts)
// into `out` as ReadNumber reads it: an integer is exact, and a fraction
// m / 10^k with m and 10^k exact doubles is rounded once, correctly, as
// from_chars rounds. Returns where the number ends, or nullptr when it is
// not one the slot takes.
inline const char* ReadDecimal(const char* p, const char* begin, const char* end,
                               TraceTime& out) {
  const char* const first = p;
  std::uint64_t m = 0;
  p = ReadDigits(p, begin, end, m);
  const std::size_t whole = static_cast<std::size_t>(p - first);
  if (whole == 0 || (*first == '0' && whole > 1)) return nullptr;
  if (p == end || *p != '.') {
    if (whole > kMaxDigits) return nullptr;
    out = TraceTime{static_cast<double>(m), true, m};
    return p;
  }
  const char* const fraction = ++p;
  std::uint64_t f = 0;
  p = ReadDigits(p, begin, end, f);
  const std::size_t decimals = static_cast<std::size_t>(p - fraction);
  if (decimals == 0 || whole + decimals > kMaxDigits) return nullptr;
  const std::uint64_t scale = kPowersOfTen[decimals];
  m = m * scale + f;
  out = TraceTime{static_cast<double>(m) / static_cast<double>(scale), false, 0};
  return p;
}

// Flags (high bit per byte) the bytes of `v` an id slot stops at: '"',
// '\\', control characters and bytes above 0x7E. The lowest flag is exact
// (false flags can only appear above a true one).
inline std::uint64_t IdStops(std::uint64_t v) {
  constexpr std::uint64_t kOnes = 0x0101010101010101u, kHighs = 0x8080808080808080u;
  auto zero_bytes = [](std::uint64_t x) { return (x - kOnes) & ~x & kHighs; };
  return zero_bytes(v ^ (kOnes * '"')) | zero_bytes(v ^ (kOnes * '\\')) |
         ((v - kOnes * 0x20) & ~v & kHighs) | ((v + kOnes * 0x01) & kHighs) | (v & kHighs);
}

// Reads an id slot (instance, request) at `p`: up to the closing quote,
// which stays for the next literal; eight bytes at a time. Returns where
// the id ends, or nullptr.
inline const char* ReadId(const char* p, const char* end, std::string_view& out) {
  const char* const first = p;
  while (end - p >= 8) {
    const std::uint64_t stops = IdStops(Load64(p));
    if (stops) {
      p += std::countr_zero(stops) / 8;
      break;
    }
    p += 8;
  }
  for (; p < end && *p != '"'; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c < 0x20 || c > 0x7E || c == '\\') return nullptr;
  }
  const auto size = static_cast<std::size_t>(p - first);
  if (size == 0 || size > kMaxIdBytes) return nullptr;
  out = std::string_view(first, size);
  return p;
}

// The unquoted text of an unescaped string value.
std::string_view Unquoted(const JsonView& v) { return v.text.substr(1, v.text.size() - 2); }

}  // namespace

const char* LineLayouts::Fits(const Layout& layout, std::string_view text, Values& values) {
  // No byte a layout takes is a '\n' (literals come from a line, and slots
  // refuse control characters), so the line ends where the last literal
  // does, if a '\n' follows it.
  const char* p = text.data();
  const char* const end = p + text.size();
  const char* const literals = layout.text.data();
  std::size_t from = 0;
  for (std::size_t i = 0;; ++i) {
    const std::size_t n = layout.literal_end[i] - from;
    if (static_cast<std::size_t>(end - p) < n || !SameBytes(p, literals + from, n)) return nullptr;
    p += n;
    from = layout.literal_end[i];
    if (i == layout.slots) return p != end && *p == '\n' ? p : nullptr;
    TraceTime number;
    switch (layout.slot[i]) {
      case Slot::kInstance:
        p = ReadId(p, end, values.instance);
        break;
      case Slot::kRequest:
        p = ReadId(p, end, values.request);
        break;
      case Slot::kTime:
        p = ReadDecimal(p, text.data(), end, number);
        values.t = number.value;
        values.t_integral = number.integral;
        values.t_integer = number.integer;
        break;
      case Slot::kDuration:
        p = ReadDecimal(p, text.data(), end, number);
        values.duration = number.value;
        values.has_duration = true;
        break;
      case Slot::kQps:
        p = ReadDecimal(p, text.data(), end, number);
        values.qps_1m = number.value;
        values.has_qps_1m = true;
        break;
      case Slot::kInflight:
        p = ReadDecimal(p, text.data(), end, number);
        if (p && !number.integral) return nullptr;
        values.inflight = static_cast<std::int64_t>(number.integer);
        values.has_inflight = true;
        break;
      case Slot::kInputTokens:
        p = ReadDecimal(p, text.data(), end, number);
        if (p && !number.integral) return nullptr;
        values.input_tokens = number.integer;
        values.has_input_tokens = true;
        break;
      case Slot::kOutputTokens:
        p = ReadDecimal(p, text.data(), end, number);
        if (p && !number.integral) return nullptr;
        values.output_tokens = number.integer;
        values.has_output_tokens = true;
        break;
    }
    if (!p) return nullptr;
  }
}

bool LineLayouts::Read(std::string_view text, const InstanceTable& table, double not_before,
                       TraceEvent& event, std::size_t& size) {
  if (count_ == 0) return false;
  Values v;
  const char* line_end = Fits(layouts_[last_fit_], text, v);
  if (!line_end) {
    std::size_t i = 0;
    while (i < count_ &&
           (i == last_fit_ || !(line_end = Fits(layouts_[i], text, (v = Values{})))))
      ++i;
    if (i == count_) return false;
    last_fit_ = i;
  }
  // The general path reports a line too long or out of time order.
  const auto line_size = static_cast<std::size_t>(line_end - text.data());
  if (line_size > kMaxLineBytes || !(v.t >= not_before)) return false;
  size = line_size;
  const EventType type = layouts_[last_fit_].type;
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
    if (!v.request.empty()) event.request = v.request;
    event.input_tokens.reset();
    if (v.has_input_tokens) event.input_tokens = v.input_tokens;
    event.output_tokens.reset();
    if (v.has_output_tokens) event.output_tokens = v.output_tokens;
    return true;
  }
  left_arrival_ = false;
  event.type = type;
  event.ClearFields();
  event.instance = v.instance;
  event.index = table.Find(v.instance);
  if (v.has_inflight)
    event.inflight = {FieldUpdate<std::int64_t>::State::kValue, v.inflight};
  if (v.has_qps_1m) event.qps_1m = {FieldUpdate<double>::State::kValue, v.qps_1m};
  return true;
}

void LineLayouts::Learn(std::string_view line, const FlatObject& flat) {
  struct Cut {
    std::size_t begin, end;
    Slot slot;
  };
  std::array<Cut, kMaxSlots> cuts;
  std::size_t slots = 0;
  // A bit per key seen.
  constexpr unsigned kType = 1, kT = 2, kDuration = 4, kInstance = 8, kInflight = 16, kQps = 32,
                     kRequest = 64, kInput = 128, kOutput = 256;
  unsigned seen = 0;
  std::string_view type;
  const auto at = [&](std::string_view part) {
    return static_cast<std::size_t>(part.data() - line.data());
  };
  for (const JsonMember& m : flat.Members()) {
    if (m.key.escaped || m.value.escaped) return;
    const std::string_view key = Unquoted(m.key);
    const JsonView& value = m.value;
    unsigned bit;
    if (key == "type") {
      if (!value.is_string()) return;
      type = Unquoted(value);
      bit = kType;
    } else {
      Slot slot;
      if (key == "t") slot = Slot::kTime, bit = kT;
      else if (key == "duration") slot = Slot::kDuration, bit = kDuration;
      else if (key == "instance") slot = Slot::kInstance, bit = kInstance;
      else if (key == "inflight") slot = Slot::kInflight, bit = kInflight;
      else if (key == "qps_1m") slot = Slot::kQps, bit = kQps;
      else if (key == "request") slot = Slot::kRequest, bit = kRequest;
      else if (key == "input_tokens") slot = Slot::kInputTokens, bit = kInput;
      else if (key == "output_tokens") slot = Slot::kOutputTokens, bit = kOutput;
      else return;
      const bool id = slot == Slot::kInstance || slot == Slot::kRequest;
      if (id ? !value.is_string() : !value.is_number()) return;
      const std::string_view cut = id ? Unquoted(value) : value.text;
      if (slots == kMaxSlots) return;
      cuts[slots++] = {at(cut), at(cut) + cut.size(), slot};
    }
    if (seen & bit) return;
    seen |= bit;
  }
  Layout layout;
  // An arrival: t, type and maybe request, duration and token counts. A
  // load: t, type, instance and maybe inflight and qps_1m.
  constexpr unsigned kArrivalOptional = kDuration | kRequest | kInput | kOutput;
  if (type == "arrival" &&
      (seen | kArrivalOptional) == (kType | kT | kArrivalOptional)) {
    layout.type = EventType::kArrival;
  } else if (type == "load" && (seen & (kType | kT | kInstance)) == (kType | kT | kInstance) &&
             !(seen & kArrivalOptional)) {
    layout.type = EventType::kLoad;
  } else {
    return;
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
  for (std::size_t i = 0; i < count_; ++i)
    if (layouts_[i] == layout) return;
  if (count_ < kMaxLayouts) {
    layouts_[count_++] = std::move(layout);
    return;
  }
  layouts_[next_] = std::move(layout);
  last_fit_ = next_;
  next_ = (next_ + 1) % kMaxLayouts;
}

}  // namespace lbsim
