// Hint::raw_json is filled only for runs whose visitor asks for it.

#include <cstdio>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "traces/trace_reader.h"

namespace lbsim {
namespace {

class HintCollector final : public TraceVisitor {
 public:
  explicit HintCollector(bool wants) : wants_(wants) {}
  void OnHeader(const TraceHeader&, const InstanceTable&) override {}
  void OnEvent(const TraceEvent& e) override {
    if (e.type == EventType::kArrival) raw.push_back(e.hint.raw_json);
  }
  bool WantsRawHint() const override { return wants_; }
  std::vector<std::string> raw;

 private:
  bool wants_;
};

std::vector<std::string> RawHints(bool wants) {
  char path[] = "/tmp/lbsim-raw-hint-XXXXXX.ndjson";
  int fd = mkstemps(path, 7);
  REQUIRE(fd >= 0);
  std::FILE* f = fdopen(fd, "w");
  std::fputs(
      "{\"lbsim_trace\": 1, \"instances\": [{\"id\": \"a\"}]}\n"
      "{\"t\": 0, \"type\": \"arrival\", \"hint\": {\"queue_depths\": {\"per_instance\": "
      "{\"a\": {\"queue_depth\": 3, \"x\": \"\\u00e9\"}}}, \"b\": [1.50, true]}}\n"
      "{\"t\": 1, \"type\": \"load\", \"instance\": \"a\", \"inflight\": 1}\n"
      "{\"t\": 2, \"type\": \"arrival\"}\n"
      "{\"t\": 3, \"type\": \"arrival\", \"hint\": null}\n",
      f);
  std::fclose(f);
  InstanceTable table;
  HintCollector collector(wants);
  ReadTrace(path, TraceEncoding::kLines, table, collector);
  std::remove(path);
  return collector.raw;
}

}  // namespace

TEST_CASE("arrivals carry their hint as compact JSON only when asked") {
  CHECK(RawHints(false) == std::vector<std::string>{"", "", ""});
  CHECK(RawHints(true) ==
        std::vector<std::string>{
            "{\"b\":[1.5,true],\"queue_depths\":{\"per_instance\":{\"a\":{\"queue_depth\":3,"
            "\"x\":\"\xC3\xA9\"}}}}",
            "", "null"});
}

}  // namespace lbsim
