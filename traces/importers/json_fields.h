#pragma once

// Fields of a JSON Lines import input (a Mooncake row, a Proxy recording's
// event), read with nlohmann::json; included by the importers only.

#include <string_view>

#include <nlohmann/json.hpp>

namespace lbsim {

// The member `key` of `object`, or nullptr when it has none.
const nlohmann::json* Member(const nlohmann::json& object, std::string_view key);

// Throws FieldError "field "FIELD": expected EXPECTED, got VALUE" (or "...,
// but it is missing" when `got` is null).
[[noreturn]] void BadField(std::string_view field, std::string_view expected,
                           const nlohmann::json* got);

// Whether `v` is an integer >= 0.
bool IsCount(const nlohmann::json& v);

}  // namespace lbsim
