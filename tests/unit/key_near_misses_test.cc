// Event keys one or two edits from a key of the format: found by every
// reading path (the decoder, lines read by their punctuation, documents,
// the read-ahead), each once, named with the event that showed it first.

#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "traces/event_decoder.h"
#include "traces/key_near_misses.h"
#include "traces/read_ahead.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

class NullVisitor final : public TraceVisitor {
 public:
  void OnHeader(const TraceHeader&, const InstanceTable&) override {}
  void OnEvent(const TraceEvent&) override {}
};

// `content` written to a temporary file named NAME, removed at the end.
class TempTrace {
 public:
  TempTrace(const std::string& name, const std::string& content)
      : path_(fmt::format("/tmp/lbsim-near-miss-{}-{}", ::getpid(), name)) {
    std::ofstream(path_) << content;
  }
  ~TempTrace() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::vector<std::string> Found(const TraceCounts& counts) {
  std::vector<std::string> out;
  for (const KeyNearMiss& m : counts.near_misses)
    out.push_back(fmt::format("{}~{}@{}", m.key, m.known, m.where));
  return out;
}

// A JSON Lines trace of `arrivals` arrivals; the arrival on line `at`
// carries `extra` (",\"key\":value") after its duration.
std::string Lines(int arrivals, std::vector<std::pair<int, std::string>> extras) {
  std::string text = "{\"lbsim_trace\":1,\"instances\":[{\"id\":\"a\"}]}\n";
  for (int k = 0; k < arrivals; ++k) {
    const int line = k + 2;
    std::string extra;
    for (const auto& [at, e] : extras)
      if (at == line) extra += e;
    text += fmt::format("{{\"t\":{},\"type\":\"arrival\",\"duration\":1{}}}\n", k, extra);
  }
  return text;
}

TEST_CASE("near misses: one or two edits from an event key, each once, at most 8") {
  KeyNearMisses n;
  n.Note("durration");
  n.Note("durration");
  n.Note("priority");  // far from every key
  n.Note("tt");        // one edit, but half of a two-letter word
  n.Note("instance_id_of_the_replica");  // longer than any near miss
  n.Note("weigth");
  REQUIRE(n.found().size() == 2);
  CHECK(n.found()[0] == std::pair<std::string, std::string>("durration", "duration"));
  CHECK(n.found()[1] == std::pair<std::string, std::string>("weigth", "weight"));
  for (const char* key : {"typ", "hints", "ttfts", "speeed", "routes", "qps_1", "requests",
                          "inflite", "durations"})
    n.Note(key);
  CHECK(n.found().size() == kMaxNearMisses);
}

TEST_CASE("near misses: the event keys are those the decoder reads, each once") {
  const std::vector<std::string>& keys = EventKeyNames();
  for (const std::string& key : keys) {
    CAPTURE(key);
    CHECK(IsEventKey(key));
    CHECK(std::count(keys.begin(), keys.end(), key) == 1);
  }
  // Each key's own near misses are not keys (so a new key goes in both).
  CHECK_FALSE(IsEventKey("durations"));
  CHECK_FALSE(IsEventKey("tokens"));
  CHECK(keys.size() == 17);
}

TEST_CASE("near misses: found on every reading path, at their first event") {
  // Lines 2-4 teach the layouts; line 30 is read by its punctuation (a
  // passed key), line 40 repeats the key, line 45 has a far key only.
  const std::string text = Lines(60, {{30, ",\"durration\":2"},
                                      {40, ",\"durration\":2"},
                                      {45, ",\"priority\":\"high\""},
                                      {50, ",\"hints\":{}"}});
  TempTrace lines("t.ndjson", text);
  const std::vector<std::string> expected = {"durration~duration@line 30",
                                             "hints~hint@line 50"};
  InstanceTable table;
  NullVisitor visitor;
  CHECK(Found(ReadTrace(lines.path(), TraceEncoding::kAuto, table, visitor)) == expected);
  InstanceTable ahead_table;
  NullVisitor ahead;
  CHECK(Found(ReadTraceAhead(lines.path(), TraceEncoding::kAuto, ahead_table, ahead)) ==
        expected);
  // The first line of a trace goes to the decoder.
  TempTrace first("f.ndjson", Lines(3, {{2, ",\"durration\":2"}}));
  InstanceTable first_table;
  CHECK(Found(ReadTrace(first.path(), TraceEncoding::kAuto, first_table, visitor)) ==
        std::vector<std::string>{"durration~duration@line 2"});
  // A document names the event by its index.
  std::string document = "{\"lbsim_trace\":1,\"instances\":[{\"id\":\"a\"}],\"events\":[\n";
  for (int k = 0; k < 20; ++k)
    document += fmt::format("{}{{\"t\":{},\"type\":\"arrival\",\"duration\":1{}}}\n",
                            k ? "," : "", k, k == 12 ? ",\"duratoin\":3" : "");
  document += "]}\n";
  TempTrace doc("d.json", document);
  InstanceTable doc_table;
  CHECK(Found(ReadTrace(doc.path(), TraceEncoding::kAuto, doc_table, visitor)) ==
        std::vector<std::string>{"duratoin~duration@events[12]"});
}

}  // namespace
}  // namespace lbsim
