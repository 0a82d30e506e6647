// libFuzzer target: LineLayouts against the general path (JsonScanner and
// EventDecoder). One input is a reader's buffer: an event line, then (if
// the input has one) its '\n' and whatever follows. It is read through
// layouts learned from the usual arrival and load lines, spaced and
// compact, three Proxy-style hinted arrivals (one with the Proxy's queue
// totals beside its map and around it, one with a request object, a
// chat body in it, and a string beside its queues; the first also holds the entry layouts of a
// fourth laid out like it; the entries of each punctuated alike, so that
// entries of other keys, in any order, are read by their punctuation), and
// lines with keys the decoder passes over (a nested chat body among them)
// and an arrival with prefix_blocks, as lbsim import writes it;
// lines laid out otherwise are read by the punctuation of the last layout
// each learned (and learned in turn: each input starts from copies). Whenever a layout reads a line,
// it must end at the buffer's first '\n', and the general path must accept
// that line too and decode the same event, with hints read as the spec
// reads them and as a pinned Proxy does (Python's float()). The same input
// is also read as a document's element (layouts of the usual and hinted
// lines, ending where the element does): whatever Validate vouches for,
// JsonScanner must accept, and an element read must be the one vouched for
// and decode as the general path decodes it. Anything else is a finding
// (abort).

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "event_line_decoding.h"
#include "base/json/json_scanner.h"
#include "traces/line_layouts.h"

namespace {

using namespace lbsim;

[[noreturn]] void Differ(const std::string& line, const char* what) {
  std::fprintf(stderr, "LineLayouts and the decoder differ (%s) on: %s\n", what, line.c_str());
  std::abort();
}

struct Fixture {
  InstanceTable table;
  LineLayouts layouts;
  LineLayouts hinted_layouts;
  LineLayouts passing_layouts;  // with keys the decoder passes over
  LineLayouts element_layouts{true, false};  // a document's elements

  Fixture() {
    table.Intern("inst-00001");
    table.Intern("b");
    for (const std::string line : {
             R"({"t": 0, "type": "arrival", "duration": 44})",
             R"({"t": 20, "type": "load", "instance": "inst-00001", "inflight": 8, "qps_1m": 221})",
             R"({"t":1,"type":"arrival","input_tokens":3,"output_tokens":4})",
             R"({"type":"load","instance":"b","qps_1m":0.5,"t":2})",
         })
      LearnScanned(line, {&layouts, &element_layouts});
    for (const std::string line : {
             R"({"t": 0, "type": "arrival", "model": "m-1", "request": "r", "duration": 4, "score": 0.5})",
             R"({"t":1,"type":"load","instance":"b","inflight":2,"source":"hb"})",
             R"({"t":1764750000.0222933,"type":"arrival","user":"Jos\u00e9","stream":true,"priority":-1,"meta":{"user":"u","n":1},"tags":["a",2],"duration":0.5})",
             R"({"t":2,"type":"arrival","instance":"b","inflight":1,"qps_1m":null,"hint":{}})",
             R"({"t": 3, "type": "arrival", "request": "r", "body": {"model": "m", "messages": [{"role": "user", "content": "Hi"}], "stop": [[1]]}})",
             R"({"t":4,"type":"arrival","duration":950,"input_tokens":1500,"output_tokens":40,"prefix_blocks":[0,1,2]})",
         })
      LearnScanned(line, {&passing_layouts});
    if (passing_layouts.size() != 6) std::abort();
    // Names "c", never registered, between two that are.
    const std::string hinted =
        R"({"t": 0, "type": "arrival", "request": "r", "hint": {"queue_depths": {"per_instance": )"
        R"({"inst-00001": {"active_prepare": 1, "active_ready": 2}, "c": {"queue_depth": 3}, )"
        R"("b": {"predicted_total_backlog_ms": 4.5}}}}})";
    const std::string totals =
        R"({"t": 0, "type": "arrival", "hint": {"seq": 1, "queue_depths": {"prepare_queue_depth": 3, )"
        R"("per_instance": {"b": {"active_prepare": 1, "next_slot_ready_in_ms": 0.0}, )"
        R"("inst-00001": {"active_prepare": 2, "next_slot_ready_in_ms": 12.5}}, "ready_queue_depth": 0}}})";
    const std::string request =
        R"({"t": 0, "type": "arrival", "hint": {"request": {"request_id": "r-1", "model": "m", )"
        R"("stream": true, "prompt_tokens": 12, "messages": [{"role": "user", "content": "Hi"}]}, )"
        R"("queue_depths": {"per_instance": {"b": )"
        R"({"active_ready": 1}}}, "note": "x"}})";
    // Laid out as `hinted` but for its entries: their layouts join its own.
    const std::string more_entries =
        R"({"t": 0, "type": "arrival", "request": "r", "hint": {"queue_depths": {"per_instance": )"
        R"({"b": {"ready_queue_depth": 2, "active_decode_count": null}, "inst-00001": {}}}}})";
    for (const std::string& line : {hinted, totals, request, more_entries})
      LearnScanned(line, {&hinted_layouts, &element_layouts});
    if (hinted_layouts.size() != 3 || element_layouts.size() != 7) std::abort();
  }

  // Has each of `into` learn the layout of `line`, as JsonScanner shows
  // it; the general path must accept it.
  void LearnScanned(const std::string& line, std::initializer_list<LineLayouts*> into) {
    JsonScanner scanner;
    JsonView value;
    TraceEvent event;
    if (scanner.ScanText(line, value) != JsonScanner::Status::kOk ||
        !DecodeEventLine(line, table, 0.0, event))
      std::abort();
    for (LineLayouts* layouts : into) layouts->Learn(line, scanner.members());
  }
};

bool SameBits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

bool SameQueues(const Hint& a, const Hint& b) {
  if (a.queues.size() != b.queues.size() || a.any_overflow != b.any_overflow) return false;
  for (std::size_t k = 0; k < a.queues.size(); ++k) {
    const Hint::Entry &x = a.queues[k], &y = b.queues[k];
    if (x.instance != y.instance || x.load.known != y.load.known ||
        x.load.overflow != y.load.overflow)
      return false;
    for (std::size_t i = 0; i < kQueueFields.size(); ++i)
      if (!SameBits(x.load.value[i], y.load.value[i])) return false;
  }
  return true;
}

bool Same(const TraceEvent& a, const TraceEvent& b) {
  return a.type == b.type && SameBits(a.t.value, b.t.value) && a.t.integral == b.t.integral &&
         a.t.integer == b.t.integer && a.instance == b.instance && a.index == b.index &&
         !a.weight && !a.speed && !b.weight && !b.speed && a.inflight.state == b.inflight.state &&
         a.inflight.value == b.inflight.value && a.qps_1m.state == b.qps_1m.state &&
         SameBits(a.qps_1m.value, b.qps_1m.value) && a.request == b.request &&
         a.duration.has_value() == b.duration.has_value() &&
         (!a.duration || SameBits(*a.duration, *b.duration)) &&
         a.input_tokens == b.input_tokens && a.output_tokens == b.output_tokens &&
         SameQueues(a.hint, b.hint) && a.hint.prefix_blocks == b.hint.prefix_blocks;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Fixture fixture;
  // Copies: a line read by its punctuation is learned, and each input
  // starts from the fixture's layouts.
  LineLayouts usual = fixture.layouts, hinted = fixture.hinted_layouts,
              passing = fixture.passing_layouts, elements = fixture.element_layouts;
  InstanceTable table = fixture.table;
  const std::string buffered(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = buffered.find('\n');
  for (LineLayouts* layouts : {&usual, &hinted, &passing}) {
    for (const double not_before : {0.0, 100.0}) {
      TraceEvent fast;
      std::size_t line_size = 0;
      layouts->Forget();  // a fresh event
      if (!layouts->Read(buffered, table, not_before, fast, line_size)) continue;
      if (line_size != newline) Differ(buffered, "line end");
      // The line as the general path gets it: its own bytes, then a NUL.
      const std::string line = buffered.substr(0, line_size);
      TraceEvent general;
      if (!DecodeEventLine(std::string_view(line.c_str(), line.size()), table,
                           not_before, general))
        Differ(line, "accepted");
      if (!Same(fast, general)) Differ(line, "event");
      // Hints read with Python's float(), as a pinned Proxy reads them,
      // decode the same (see HintLayout).
      if (!DecodeEventLine(std::string_view(line.c_str(), line.size()), table,
                           not_before, general, kPythonFloatReading) ||
          !Same(fast, general))
        Differ(line, "event under Python's float()");
    }
  }
  // As the element at the start of a document's events array.
  const std::size_t vouched = elements.Validate(buffered);
  if (vouched > 0) {
    // Its own bytes, then the NUL the scanner wants.
    const std::string element = buffered.substr(0, vouched);
    JsonScanner scanner;
    JsonView value;
    if (scanner.ScanText(std::string_view(element.c_str(), element.size()), value) !=
        JsonScanner::Status::kOk)
      Differ(buffered, "vouched for");
  }
  TraceEvent fast;
  std::size_t element_size = 0;
  elements.Forget();
  if (elements.Read(buffered, table, 0.0, fast, element_size)) {
    if (element_size != vouched) Differ(buffered, "element end");
    const std::string element = buffered.substr(0, element_size);
    TraceEvent general;
    if (!DecodeEventLine(std::string_view(element.c_str(), element.size()), table, 0.0,
                         general))
      Differ(element, "element accepted");
    if (!Same(fast, general)) Differ(element, "element event");
    if (!DecodeEventLine(std::string_view(element.c_str(), element.size()), table, 0.0,
                         general, kPythonFloatReading) ||
        !Same(fast, general))
      Differ(element, "element event under Python's float()");
  }
  return 0;
}
