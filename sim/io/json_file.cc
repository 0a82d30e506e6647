#include "sim/io/json_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/errors.h"
#include "traces/json_value_builder.h"
#include "traces/trace_stream.h"

namespace lbsim {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

nlohmann::ordered_json ReadJsonFile(const std::string& path, std::string_view what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw InputError(fmt::format("{}: cannot read {}: is a directory", path, what));
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file)
    throw InputError(
        fmt::format("{}: cannot read {}: {}", path, what, std::strerror(errno)));
  BoundedJsonSax<nlohmann::ordered_json> sax;
  if (nlohmann::ordered_json::sax_parse(file.get(), &sax)) return std::move(sax.builder.value());
  if (std::ferror(file.get()))
    throw InputError(fmt::format("{}: cannot read {}: read error", path, what));
  if (sax.builder.too_deep())
    throw InputError(fmt::format("{}: nesting deeper than the limit of {} levels", path,
                                 kMaxNestingDepth));
  std::string error = ParseErrorWithPosition(sax.error);
  // "LINE:COLUMN: ..." joins the path without a space, like a compiler.
  bool positioned = !error.empty() && error[0] >= '0' && error[0] <= '9';
  throw InputError(fmt::format("{}:{}{}", path, positioned ? "" : " ", error));
}

}  // namespace lbsim
