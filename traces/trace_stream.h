#pragma once

// Shared by the two trace readers: turns validated JSON values into events
// in file order, checks what spans events (time order), counts, and adds
// the file and position to every error.

#include <cstdio>
#include <span>
#include <string>

#include "traces/event_decoder.h"
#include "base/input/input_file.h"
#include "base/json/json_scanner.h"
#include "base/json/json_view.h"
#include "traces/line_layouts.h"
#include "traces/trace_reader.h"

namespace lbsim {

// What a reader does with a validated header of the trace `path`: interns
// its Instances in `table`, in header order, then hands it to `visitor`,
// whose FieldError becomes an InputError naming the header. Shared by
// TraceStream and the read-ahead's visiting side.
void HandOnHeader(const std::string& path, const TraceHeader& header, InstanceTable& table,
                  TraceVisitor& visitor);
// Throws the InputError for a problem `what` with the event at `position`
// of the trace `path`: "file:LINE: what" for JSON Lines, "file:
// events[INDEX]: what" for documents.
[[noreturn]] void FailAtEvent(const std::string& path, bool document, std::uint64_t position,
                              const std::string& what);

// Throws the InputError for the JSON Lines line `line`, number `number` of
// the trace `path`, that JsonScanner `scanner` refused with `status` (not
// kOk): "file:LINE: " and why.
[[noreturn]] void FailToScanLine(const std::string& path, std::uint64_t number,
                                 std::string_view line, JsonScanner::Status status,
                                 const JsonScanner& scanner);

// Appends to `counted` (KeyNearMiss for each of the first keys
// `near_misses` found) the keys it found since, as first found at the
// event at `position`.
void CountNearMisses(const KeyNearMisses& near_misses, bool document, std::uint64_t position,
                     std::vector<KeyNearMiss>& counted);

class TraceStream {
 public:
  // `progress` (may be nullptr) hears Progress() calls against
  // `total_work` (see TraceProgress).
  TraceStream(std::string display_path, bool document, InstanceTable& table,
              TraceVisitor& visitor, TraceProgress* progress = nullptr,
              std::uint64_t total_work = 0)
      : path_(std::move(display_path)), document_(document), table_(table),
        visitor_(visitor), progress_(progress), total_work_(total_work),
        raw_hint_(visitor.WantsRawHint()), proxy_(visitor.Proxy()),
        layouts_(!raw_hint_, !document) {
    decoder_.set_near_misses(&near_misses_);
    layouts_.set_near_misses(&near_misses_);
    layouts_.set_deferred_hint_share(visitor.DeferredHintShare());
  }

  // Validates the header object found at `position` and hands it on.
  void Header(const JsonView& header, std::uint64_t position);
  // Validates one event value found at `position` and hands it on.
  // `members`: its members when it is an object (see EventDecoder).
  void Event(const JsonView& value, std::span<const JsonMember> members,
             std::uint64_t position);
  // Reads the event line at the start of `text` (up to a '\n' in it; in
  // a document, the element there), found at `position`, by a remembered
  // layout (see LineLayouts::Read),
  // hands it on and sets `size` to its length; false, with nothing done,
  // when no layout fits it.
  bool EventByLayout(std::string_view text, std::uint64_t position, std::size_t& size);
  // Remembers the layout of `line`, whose `members` Event just took.
  void LearnLayout(std::string_view line, std::span<const JsonMember> members) {
    layouts_.Learn(line, members);
  }

  // Reports that `done` units of reading work are done.
  void Progress(std::uint64_t done) {
    if (progress_) progress_->Update(done, total_work_, counts_.events);
  }

  // An InputError for a problem at `position` (see FailAtEvent).
  [[noreturn]] void Fail(std::uint64_t position, const std::string& what) const {
    FailAtEvent(path_, document_, position, what);
  }

  const std::string& path() const { return path_; }
  const TraceCounts& counts() const { return counts_; }
  bool header_seen() const { return header_seen_; }

 private:
  // Counts event_, found at `position`, and hands it to the visitor, whose
  // errors about it become InputErrors at `position`.
  void HandOn(std::uint64_t position);

  std::string path_;
  bool document_;
  InstanceTable& table_;
  TraceVisitor& visitor_;
  TraceProgress* progress_;
  std::uint64_t total_work_;
  bool raw_hint_;  // fill Hint::raw_json of arrivals
  ProxyChoice proxy_;  // with the header's profile, how hints are read
  KeyNearMisses near_misses_;  // keys the decoder and the layouts pass over
  EventDecoder decoder_;
  LineLayouts layouts_;
  TraceEvent event_;
  TraceCounts counts_;
  double last_t_ = 0.0;
  bool header_seen_ = false;
};

// How deep inside an event's object the readers accept number literals
// past the double range (JsonScanner::AllowOverflowFrom): in the values of
// its members' values, that is, inside hints (and unknown keys). Its own
// fields (t, duration, ...) and the header keep refusing them.
inline constexpr std::size_t kEventOverflowDepth = 2;

// Read the trace in `input` (seekable for a document) into `stream`.
void ReadLinesTrace(InputFile& input, TraceStream& stream);
void ReadDocumentTrace(InputFile& input, TraceStream& stream);

}  // namespace lbsim
