#include "traces/trace_reader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "traces/json_scanner.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

TraceEncoding Detect(const std::string& path) {
  if (std::optional<TraceEncoding> e = EncodingFromName(path)) return *e;
  throw UsageError(fmt::format(
      "{}: cannot tell the trace encoding from the file name (expected .json, "
      ".ndjson or .jsonl); say it with --trace-format document|lines",
      path));
}

// The size of a regular file, 0 for anything else (a pipe, a terminal).
std::uint64_t FileSize(std::FILE* file) {
  struct stat st {};
  if (::fstat(::fileno(file), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  return static_cast<std::uint64_t>(st.st_size);
}

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f && f != stdin) std::fclose(f);
  }
};

}  // namespace

std::optional<TraceEncoding> EncodingFromName(std::string_view path) {
  if (path == "-" || EndsWith(path, ".ndjson") || EndsWith(path, ".jsonl"))
    return TraceEncoding::kLines;
  if (EndsWith(path, ".json")) return TraceEncoding::kDocument;
  return std::nullopt;
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
  if (encoding == TraceEncoding::kAuto) encoding = Detect(path);
  const bool from_stdin = path == "-";
  if (from_stdin && encoding == TraceEncoding::kDocument)
    throw UsageError("standard input is read as JSON Lines; a JSON document needs a file");
  std::unique_ptr<std::FILE, FileCloser> file(from_stdin ? stdin : OpenTraceFile(path));
  const bool document = encoding == TraceEncoding::kDocument;
  // A document is read twice (its header may follow its events).
  if (document && ::lseek(::fileno(file.get()), 0, SEEK_CUR) < 0)
    throw UsageError(fmt::format(
        "{}: a JSON document is read twice, so it must be a file, not a pipe; save it to a "
        "file first, or give the trace as JSON Lines",
        path));
  TraceStream stream(from_stdin ? "<stdin>" : path, document, table, visitor, progress,
                     FileSize(file.get()) * (document ? 2 : 1));
  if (encoding == TraceEncoding::kDocument) ReadDocumentTrace(file.get(), stream);
  else ReadLinesTrace(file.get(), stream);
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
