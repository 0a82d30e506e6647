// Finding scenario files, reading JSON files, plain-text tables.

#include <doctest/doctest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "sim/check/scenario_files.h"
#include "sim/io/json_file.h"
#include "sim/report/text_table.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

namespace fs = std::filesystem;

// A temporary directory tree, removed at the end of the test.
struct TempTree {
  TempTree() {
    char name[] = "/tmp/lbsim-scenario-files.XXXXXX";
    root = ::mkdtemp(name);
  }
  ~TempTree() { fs::remove_all(root); }
  std::string File(const std::string& relative,
                   const std::string& text = R"({"lbsim_scenario": 1})") {
    fs::path p = fs::path(root) / relative;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  std::string root;
};

TEST_CASE("folders are searched recursively for *.json, sorted, without repeats") {
  TempTree t;
  std::string b = t.File("b.json");
  std::string a = t.File("sub/deeper/a.json");
  std::string z = t.File("sub/z.json");
  t.File("sub/notes.txt");
  t.File("sub/trace.ndjson");
  std::string other = t.File("elsewhere/c.scenario");
  std::vector<std::string> found = FindScenarioFiles({other, t.root + "/sub", t.root, b});
  CHECK(found == std::vector<std::string>{b, other, a, z});
}

TEST_CASE("in folders, JSON objects with neither lbsim_scenario nor expect are skipped") {
  TempTree t;
  std::string scenario = t.File("a.json", R"({"name": "x", "lbsim_scenario": 1})");
  std::string no_version = t.File("b.json", R"({"name": "x", "trace": "t.json", "expect": []})");
  std::string not_json = t.File("c.json", R"({"name": )");
  std::string array = t.File("d.json", "[1, 2]");
  std::string gen_spec = t.File("whatif/e.gen.json", R"({"name": "x", "seed": 1, "instances": {"count": 2}})");
  t.File("traces/f.json", R"({"name": "t", "events": [], "lbsim_trace": 1})");
  t.File("g.json", R"({"lbsim_report": 1, "expect": "not decisive after the first key"})");
  t.File("h.json", R"({"lbsim_check": 1})");
  CHECK(FindScenarioFiles({t.root}) == std::vector<std::string>{scenario, no_version, not_json, array});
  CHECK(IsScenarioCandidate(t.root + "/missing.json"));
  // A file named explicitly is always loaded as a scenario.
  CHECK(FindScenarioFiles({gen_spec}) == std::vector<std::string>{gen_spec});
}

TEST_CASE("a missing path, or no scenario at all, is an input error") {
  TempTree t;
  CHECK_THROWS_WITH_AS(FindScenarioFiles({t.root + "/none"}),
                       (t.root + "/none: no such scenario file or folder").c_str(), InputError);
  t.File("sub/readme.txt");
  CHECK_THROWS_WITH_AS(FindScenarioFiles({t.root}),
                       ("no scenario files (*.json) found in " + t.root).c_str(), InputError);
}

TEST_CASE("ReadJsonFile keeps key order and refuses hostile nesting") {
  TempTree t;
  auto doc = ReadJsonFile(t.File("k.json", R"({"z": 1, "a": 2})"), "scenario");
  CHECK(doc.begin().key() == "z");
  std::string deep(kMaxNestingDepth + 1, '[');
  std::string path = t.File("deep.json", deep + std::string(kMaxNestingDepth + 1, ']'));
  CHECK_THROWS_WITH_AS(
      ReadJsonFile(path, "scenario"),
      (path + ":1:513: nesting deeper than the limit of " + std::to_string(kMaxNestingDepth) +
       " levels").c_str(),
      InputError);
  CHECK_THROWS_WITH_AS(ReadJsonFile(t.root, "report"),
                       (t.root + ": cannot read report: is a directory").c_str(), InputError);
}

TEST_CASE("ReadJsonFile refuses a repeated key, a NUL byte, UTF-16 and too much") {
  TempTree t;
  std::string path = t.File("twice.json", "{\"a\": {\"b\": [1, {\"c\": 1,\n \"c\": 2}]}}");
  CHECK_THROWS_WITH_AS(ReadJsonFile(path, "scenario"),
                       (path + ":2:4: key \"c\" appears twice in the object at a.b[1]").c_str(),
                       InputError);
  path = t.File("top.json", "{\"expect\": [], \"expect\": [1]}");
  CHECK_THROWS_WITH_AS(ReadJsonFile(path, "scenario"),
                       (path + ":1:23: key \"expect\" appears twice in the object at the top level").c_str(),
                       InputError);
  // Every other reader would drop what follows the NUL.
  path = t.File("nul.json", std::string("{\"a\": 1}\n\0{\"b\": 2}", 19));
  CHECK_THROWS_WITH_AS(
      ReadJsonFile(path, "scenario"),
      (path + ":2:1: a NUL byte: a scenario is text and holds none (is this a binary file?)").c_str(),
      InputError);
  path = t.File("utf16.json", std::string("\xff\xfe{\0}\0", 6));
  CHECK_THROWS_WITH_AS(ReadJsonFile(path, "report"),
                       (path + ": UTF-16 (little-endian) text (it starts with that byte order "
                               "mark); lbsim reads UTF-8: convert it, e.g. iconv -f UTF-16 -t UTF-8")
                           .c_str(),
                       InputError);
  path = t.File("big.json", "[" + std::string(100, ' ') + "]");
  CHECK_THROWS_WITH_AS(ReadJsonFile(path, "report", 50),
                       (path + ": larger than the limit of 0 MiB for a report").c_str(),
                       InputError);
  path = t.File("many.json", "[0, 0, 0, 0]");
  CHECK_THROWS_WITH_AS(ReadJsonFile(path, "report", 1 << 20, 4),
                       (path + ":1:12: more than the limit of 4 JSON values").c_str(), InputError);
}

TEST_CASE("TextTable aligns columns and leaves no trailing spaces") {
  TextTable t;
  t.Row({"name", "a", "flag"});
  t.Section("section");
  t.Row({"longer name", "123", ""});
  t.Blank();
  CHECK(t.Render() ==
        "name           a  flag\n"
        "section\n"
        "longer name  123\n"
        "\n");
}

}  // namespace
}  // namespace lbsim
