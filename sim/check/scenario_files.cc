#include "sim/check/scenario_files.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

// A SAX handler that stops at the first top-level key telling whether the
// document is a scenario.
class TopLevelSniffer {
 public:
  using json = nlohmann::json;
  enum class Verdict { kUndecided, kScenario, kOther };

  Verdict verdict() const { return verdict_; }
  bool top_is_object() const { return top_is_object_; }

  bool key(std::string& k) {
    if (depth_ != 1) return true;
    if (k == "lbsim_scenario" || k == "expect") verdict_ = Verdict::kScenario;
    else if (k == "lbsim_trace" || k == "events" || k == "lbsim_report" || k == "lbsim_check")
      verdict_ = Verdict::kOther;
    return verdict_ == Verdict::kUndecided;  // false stops the parser
  }
  // Deeper than a scenario may nest: loading it will report that.
  bool start_object(std::size_t) {
    if (depth_++ == 0) top_is_object_ = true;
    return Shallow();
  }
  bool start_array(std::size_t) {
    ++depth_;
    return Shallow();
  }
  bool end_object() {
    --depth_;
    return true;
  }
  bool end_array() {
    --depth_;
    return true;
  }
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t) { return true; }
  bool number_unsigned(json::number_unsigned_t) { return true; }
  bool number_float(json::number_float_t, const std::string&) { return true; }
  bool string(std::string&) { return true; }
  bool binary(json::binary_t&) { return false; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    verdict_ = Verdict::kScenario;  // loading it will report the error
    return false;
  }
  bool Shallow() {
    if (depth_ <= kMaxNestingDepth) return true;
    verdict_ = Verdict::kScenario;
    return false;
  }

 private:
  Verdict verdict_ = Verdict::kUndecided;
  std::size_t depth_ = 0;
  bool top_is_object_ = false;
};

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

bool IsScenarioCandidate(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) return true;
  TopLevelSniffer sniffer;
  nlohmann::json::sax_parse(file.get(), &sniffer);
  if (sniffer.verdict() == TopLevelSniffer::Verdict::kUndecided) return !sniffer.top_is_object();
  return sniffer.verdict() == TopLevelSniffer::Verdict::kScenario;
}

std::vector<std::string> FindScenarioFiles(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    fs::file_status st = fs::status(path, ec);
    if (!fs::exists(st))
      throw InputError(fmt::format("{}: no such scenario file or folder", path));
    if (!fs::is_directory(st)) {
      files.push_back(fs::path(path).lexically_normal().string());
      continue;
    }
    fs::recursive_directory_iterator it(path, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      const fs::path& p = it->path();
      if (p.extension() == ".json" && it->is_regular_file(ec) &&
          IsScenarioCandidate(p.string()))
        files.push_back(p.lexically_normal().string());
    }
    if (ec) throw InputError(fmt::format("{}: cannot search folder: {}", path, ec.message()));
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  if (files.empty())
    throw InputError(fmt::format("no scenario files (*.json) found in {}",
                                 fmt::join(paths, ", ")));
  return files;
}

}  // namespace lbsim
