// libFuzzer target: ScanFlatObject against JsonScanner. One input is one
// line. Whenever the fast path takes it, the general scanner must accept
// it too and show the same value and members (kind, escape flag, text and
// position); anything else is a finding (abort).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/json/flat_object_scanner.h"
#include "base/json/json_scanner.h"

namespace {

using namespace lbsim;

bool Same(const JsonView& a, const JsonView& b) {
  return a.kind == b.kind && a.escaped == b.escaped && a.text.data() == b.text.data() &&
         a.text.size() == b.text.size();
}

[[noreturn]] void Differ(const std::string& line, const char* what) {
  std::fprintf(stderr, "ScanFlatObject and JsonScanner differ (%s) on: %s\n", what, line.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // A line as the readers hand it over: its own bytes, then a NUL.
  const std::string line(reinterpret_cast<const char*>(data), size);
  const std::string_view view(line.c_str(), line.size());
  static FlatObject flat;
  if (!ScanFlatObject(view, flat)) return 0;
  const std::span<const JsonMember> flat_members = flat.Members();
  JsonScanner scanner;
  JsonView value;
  if (scanner.ScanText(view, value) != JsonScanner::Status::kOk) Differ(line, "status");
  if (!Same(flat.value, value)) Differ(line, "value");
  const std::vector<JsonMember>& members = scanner.members();
  if (members.size() != flat_members.size()) Differ(line, "member count");
  for (std::size_t i = 0; i < members.size(); ++i)
    if (!Same(members[i].key, flat_members[i].key) || !Same(members[i].value, flat_members[i].value))
      Differ(line, "member");
  return 0;
}
