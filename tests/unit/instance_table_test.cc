// InstanceTable, which gives each Instance id a dense index in the order
// of first registration: against std::map, over ids of every length the
// hash reads differently (empty, 1-3, 4-7, 8 and longer bytes), through
// each growth of its index up to the most Instances a trace may have.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "traces/instance_table.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

TEST_CASE("InstanceTable: indexes in the order of first registration, found again by id") {
  InstanceTable table;
  CHECK(table.size() == 0);
  CHECK_FALSE(table.Find("a").has_value());
  CHECK_FALSE(table.Find("").has_value());
  CHECK(table.Intern("b") == 0);
  CHECK(table.Intern("a") == 1);
  CHECK(table.Intern("b") == 0);
  CHECK(table.Intern("") == 2);
  CHECK(table.Find("") == std::optional<InstanceIndex>(2));
  CHECK(table.Find("a") == std::optional<InstanceIndex>(1));
  CHECK_FALSE(table.Find("c").has_value());
  CHECK(table.Ids() == std::vector<std::string>{"b", "a", ""});
  CHECK(table.Id(1) == "a");
}

TEST_CASE("InstanceTable: agrees with a map up to the most Instances a trace may have") {
  InstanceTable table;
  std::map<std::string, InstanceIndex> reference;
  std::vector<std::string> order;
  // Ids that differ only in one byte, at either end, in the middle, or in
  // length; a zero byte; lengths 0 to 40.
  auto id_of = [](std::size_t n) {
    switch (n % 6) {
      case 0: return fmt::format("inst-{:05}", n);
      case 1: return fmt::format("{}", n);
      case 2: return fmt::format("http://10.0.{}.{}:8000/v1", n / 256, n % 256);
      case 3: return std::string(n % 41, 'x') + std::to_string(n);
      case 4: return std::string(1, static_cast<char>(n % 256)) + std::string(n % 7, '\0');
      default: return fmt::format("{}{}", std::string(n % 13, 'y'), n % 1000);
    }
  };
  for (std::size_t n = 0; reference.size() < kMaxInstances; ++n) {
    const std::string id = id_of(n);
    CAPTURE(n);
    const std::optional<InstanceIndex> known = table.Find(id);
    const auto it = reference.find(id);
    REQUIRE(known.has_value() == (it != reference.end()));
    if (known) REQUIRE(*known == it->second);
    const InstanceIndex index = table.Intern(id);
    if (it == reference.end()) {
      REQUIRE(index == reference.size());
      reference.emplace(id, index);
      order.push_back(id);
    } else {
      REQUIRE(index == it->second);
    }
    REQUIRE(table.size() == reference.size());
  }
  CHECK(table.Ids() == order);
  for (const auto& [id, index] : reference) REQUIRE(table.Find(id) == std::optional(index));
  // Near misses: a byte more, a byte less, the last byte changed.
  for (const auto& [id, index] : reference) {
    CAPTURE(id);
    if (!reference.count(id + "z")) REQUIRE_FALSE(table.Find(id + "z").has_value());
    if (!id.empty()) {
      const std::string shorter = id.substr(0, id.size() - 1);
      if (!reference.count(shorter)) REQUIRE_FALSE(table.Find(shorter).has_value());
      std::string changed = id;
      changed.back() = static_cast<char>(changed.back() ^ 1);
      if (!reference.count(changed)) REQUIRE_FALSE(table.Find(changed).has_value());
    }
  }
}

}  // namespace
}  // namespace lbsim
