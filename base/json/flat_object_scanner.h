#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

#include "base/json/json_view.h"

namespace lbsim {

// A flat object as ScanFlatObject found it: the object's view and the
// views of its members, in text order.
struct FlatObject {
  static constexpr std::size_t kMaxMembers = 64;

  JsonView value;
  std::array<JsonMember, kMaxMembers> members;
  std::size_t count = 0;

  std::span<const JsonMember> Members() const { return {members.data(), count}; }
};

// The fast path for the common shape of a JSON Lines event: one object
// whose members are all scalars (strings of printable ASCII without
// escapes, numbers without an exponent, true, false, null). When `line`
// is such an object of at most FlatObject::kMaxMembers members, optionally
// surrounded by whitespace, sets `out` to the value and members that
// JsonScanner::ScanText would show and returns true.
// Otherwise returns false without deciding anything: the line may still be
// valid JSON (nested, escaped, non-ASCII, an exponent) or may be invalid,
// and JsonScanner must read it. As for JsonScanner, line.data()[line.size()]
// must be a readable NUL byte.
bool ScanFlatObject(std::string_view line, FlatObject& out);

}  // namespace lbsim
