#include "traces/trace_reader.h"

#include <cstdio>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "base/input/input_file.h"
#include "base/json/json_scanner.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// `path` without a compression suffix (.gz, .zst, .zstd): "t.ndjson.gz" is
// named as JSON Lines. (Whether it is compressed is told by its content.)
std::string_view WithoutCompressionSuffix(std::string_view path) {
  for (std::string_view suffix : {".gz", ".zst", ".zstd"})
    if (EndsWith(path, suffix)) return path.substr(0, path.size() - suffix.size());
  return path;
}

// The encoding the first line of a trace shows: a whole JSON object
// without an "events" member is a JSON Lines header; anything else (an
// object spread over lines, one with "events") is read as a document.
TraceEncoding EncodingOfFirstLine(std::string line) {
  if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
  JsonScanner scanner;
  JsonView value;
  if (scanner.ScanText(line, value) != JsonScanner::Status::kOk || !value.is_object())
    return TraceEncoding::kDocument;
  std::string key;
  for (const JsonMember& m : scanner.members())
    if (ReadString(m.key, key) == "events") return TraceEncoding::kDocument;
  return TraceEncoding::kLines;
}

}  // namespace

std::optional<TraceEncoding> EncodingFromName(std::string_view path) {
  path = WithoutCompressionSuffix(path);
  if (EndsWith(path, ".ndjson") || EndsWith(path, ".jsonl")) return TraceEncoding::kLines;
  if (EndsWith(path, ".json")) return TraceEncoding::kDocument;
  return std::nullopt;
}

TraceEncoding WrittenEncoding(std::string_view path) {
  return EncodingFromName(path).value_or(TraceEncoding::kLines);
}

TraceEncoding DetectTraceEncoding(InputFile& input, const std::string& path) {
  if (std::optional<TraceEncoding> e = EncodingFromName(path)) return *e;
  std::string line = input.PeekLine();
  std::string_view start = line;
  if (start.starts_with("\xEF\xBB\xBF")) start.remove_prefix(3);
  while (!start.empty() && (start.front() == ' ' || start.front() == '\t' || start.front() == '\r'))
    start.remove_prefix(1);
  if (!start.empty() && start.front() != '{') {
    // Neither encoding: say what was seen rather than guess.
    std::string seen(start.substr(0, 40));
    for (char& c : seen)
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
    throw InputError(fmt::format(
        "{}: cannot tell the trace encoding: a trace is JSON Lines (a header object on its "
        "first line) or a JSON document (an object), but this starts with \"{}\"{}",
        path == "-" ? "<stdin>" : path, seen, start.size() > 40 ? "..." : ""));
  }
  return EncodingOfFirstLine(std::move(line));
}

TraceEncoding ParseTraceEncoding(std::string_view text) {
  if (text == "auto") return TraceEncoding::kAuto;
  if (text == "document" || text == "json") return TraceEncoding::kDocument;
  if (text == "lines" || text == "jsonl" || text == "ndjson") return TraceEncoding::kLines;
  throw UsageError(fmt::format(
      "--trace-format: expected auto, document or lines, got '{}'", text));
}

TraceCounts ReadTrace(const std::string& path, TraceEncoding encoding,
                      InstanceTable& table, TraceVisitor& visitor,
                      TraceProgress* progress) {
  InputFile input = InputFile::Open(path, "trace");
  if (encoding == TraceEncoding::kAuto) encoding = DetectTraceEncoding(input, path);
  const bool document = encoding == TraceEncoding::kDocument;
  // A document is read twice (its header may follow its events): from a
  // pipe it is copied to a temporary file first.
  if (document) input.MakeSeekable();
  // Progress counts content bytes; the size of compressed content is not
  // known ahead.
  const std::uint64_t size = input.compression() == Compression::kNone ? input.disk_size() : 0;
  TraceStream stream(path == "-" ? "<stdin>" : path, document, table, visitor, progress,
                     size * (document ? 2 : 1));
  if (document) ReadDocumentTrace(input, stream);
  else ReadLinesTrace(input, stream);
  return stream.counts();
}

TraceCounts ReadTraceValue(const std::string& display_path,
                           const nlohmann::json& document, InstanceTable& table,
                           TraceVisitor& visitor) {
  if (!document.is_object())
    throw InputError(fmt::format(
        "{}: expected a JSON object (a trace document), got {}", display_path,
        document.type_name()));
  auto events = document.find("events");
  if (events == document.end() || !events->is_array())
    throw InputError(fmt::format(
        "{}: header: field \"events\": expected an array of events{}",
        display_path, events == document.end() ? ", but it is missing" : ""));
  // The parsed values go through the trace decoder as their JSON text, so
  // that inline traces follow exactly the rules of trace files, limits
  // included.
  TraceStream stream(display_path, /*document=*/true, table, visitor);
  JsonScanner scanner;
  JsonView value;
  // Checks one value's text as the document reader checks it in a file.
  auto scan = [&](const std::string& text, const std::string& where) {
    if (text.size() > kMaxValueBytes)
      throw InputError(fmt::format("{}: {}longer than the limit of {} MiB of JSON text",
                                   display_path, where, kMaxValueBytes >> 20));
    switch (const JsonScanner::Status status = scanner.ScanText(text, value)) {
      case JsonScanner::Status::kOk: return;
      case JsonScanner::Status::kDuplicateKey:
        throw InputError(fmt::format("{}: {}{}", display_path, where,
                                     DuplicateKeyMessage(scanner.duplicate_key())));
      case JsonScanner::Status::kTooDeep:
      case JsonScanner::Status::kTooMany:
        throw InputError(fmt::format("{}: {}{}", display_path, where, LimitMessage(status)));
      default:  // a parsed value dumps as valid JSON
        throw InputError(fmt::format("{}: {}invalid JSON", display_path, where));
    }
  };
  nlohmann::json header = nlohmann::json::object();  // a document header holds no events
  for (auto it = document.begin(); it != document.end(); ++it)
    if (it.key() != "events") header[it.key()] = it.value();
  std::string text = header.dump();
  header = nullptr;
  scan(text, "header: ");
  stream.Header(value, 0);
  std::uint64_t index = 0;
  for (const nlohmann::json& event : *events) {
    text = event.dump();
    scan(text, fmt::format("events[{}]: ", index));
    stream.Event(value, scanner.members(), index++);
  }
  return stream.counts();
}

}  // namespace lbsim
