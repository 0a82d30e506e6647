#include "replay_fixture.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "base/errors.h"

namespace lbsim::testing {

TempFile::TempFile(std::string_view text, std::string_view name) {
  std::string pattern = (std::filesystem::temp_directory_path() / "lbsim-unit.XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  dir_ = pattern;
  path_ = dir_ + "/" + std::string(name);
  std::ofstream out(path_, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) throw std::runtime_error("cannot write " + path_);
}

TempFile::~TempFile() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

StrategyRequest Request(std::string_view spec) {
  return ParseStrategyRequest(StrategyRegistry::Builtin(), spec);
}

ProxyChoice PinnedProxy(std::string_view name, PythonVersion python) {
  const ProxyProfile* profile = FindProxyProfile(name);
  if (!profile) throw std::logic_error("no Proxy profile " + std::string(name));
  return ProxyChoice{profile, python};
}

ReplayRun ReplayText(std::string_view text, const std::vector<std::string>& specs,
                     std::string_view name, const ProxyChoice& proxy) {
  TempFile file(text, name);
  std::vector<StrategyRequest> requests;
  for (const std::string& spec : specs) requests.push_back(Request(spec));

  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::vector<std::unique_ptr<std::FILE, Closer>> files;
  std::vector<std::unique_ptr<DecisionLogWriter>> writers;
  std::vector<DecisionSink*> logs;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    files.emplace_back(std::tmpfile());
    writers.push_back(std::make_unique<DecisionLogWriter>(files.back().get()));
    logs.push_back(writers.back().get());
  }

  SimOptions options;
  options.proxy = proxy;
  ReplayRun run{Replay(file.path(), TraceEncoding::kAuto, requests, logs, options), {}};
  for (auto& f : files) {
    std::rewind(f.get());
    std::string line;
    for (int c; (c = std::fgetc(f.get())) != EOF;) {
      if (c == '\n') {
        run.log.push_back(line);
        line.clear();
      } else {
        line += static_cast<char>(c);
      }
    }
    if (!line.empty()) throw std::runtime_error("decision log line without newline");
  }
  return run;
}

std::vector<std::string> Picks(const ReplayRun& run, std::string_view strategy) {
  std::vector<std::string> picks;
  for (const std::string& line : run.log) {
    nlohmann::json j = nlohmann::json::parse(line);
    if (j.at("strategy") != strategy) continue;
    std::string instance = j.at("instance").is_null() ? "-" : j.at("instance").get<std::string>();
    picks.push_back(instance + "/" + j.at("reason").get<std::string>());
  }
  return picks;
}

std::string ReadError(std::string_view text, std::string_view name) {
  TempFile file(text, name);
  try {
    Replay(file.path(), TraceEncoding::kAuto, {Request("rr")});
  } catch (const InputError& e) {
    std::string message = e.what();
    for (std::size_t at; (at = message.find(file.path())) != std::string::npos;)
      message.replace(at, file.path().size(), "FILE");
    return message;
  }
  return "";
}

}  // namespace lbsim::testing
