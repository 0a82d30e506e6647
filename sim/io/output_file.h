#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "sim/io/write_stream.h"

namespace lbsim {

// A file that appears at its path only when complete: it is written to a
// temporary file in the same directory and renamed into place by Commit().
// Destroyed uncommitted, it removes the temporary file, so a failed run
// leaves nothing behind and an existing file at the path is untouched; a
// termination signal removes it too (base/signal_cleanup.h).
//
// A new file gets the mode 0666 less the umask; a file replaced keeps its
// mode. A symbolic link is followed: the file it names is replaced and the
// link kept. A path naming an existing file that is not a regular file (a
// device such as /dev/null, a FIFO), or any path under /dev or /proc
// (/dev/stdout), is never renamed over: the contents wait in an unnamed
// scratch file and Commit() copies them into it. The path "-" is standard
// output, held back the same way until Commit().
class OutputFile {
 public:
  // Creates the temporary file; throws UsageError when it cannot (also for
  // an empty path).
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::FILE* stream() { return stream_->get(); }
  const std::string& path() const { return path_; }
  // The output as messages name it: the path, or "standard output".
  std::string_view Name() const {
    return path_ == "-" ? std::string_view("standard output") : std::string_view(path_);
  }

  // Flushes and closes the temporary file, so that every write error
  // (a full disk) shows before anything is put in place; throws UsageError
  // naming the first write's failure. Call it for every output of a run
  // before committing any of them.
  void Finish();
  // Finishes if needed and puts the file in place; throws UsageError.
  void Commit();

 private:
  void CopyIntoSpecialFile();

  std::string path_;         // as given
  std::string destination_;  // path_ with symbolic links followed
  std::string temp_path_;    // empty when writing to a special file
  int fd_ = -1;              // the temporary or scratch file
  int cleanup_slot_ = -1;    // of temp_path_ in the signal cleanup registry
  std::unique_ptr<WriteStream> stream_;
  bool finished_ = false;
  bool committed_ = false;
};

// The path an OutputFile for `path` writes to in the end: `path` with its
// symbolic links followed (also a dangling last one), or `path` itself for
// standard output and special files.
std::string OutputDestination(const std::string& path);

// Writes `text` to `out` and flushes it; throws UsageError "FAILURE: why"
// when either fails.
void WriteText(std::string_view text, std::FILE* out, std::string_view failure);

// Whether an output path means standard output: empty (not given) or "-".
inline bool IsStandardOutputPath(std::string_view path) { return path.empty() || path == "-"; }

// Where a command's single output goes: an OutputFile at `path`, or
// standard output when `path` is empty or "-". Opened at construction, so
// that an unwritable output fails before any work is done.
class OutputTarget {
 public:
  explicit OutputTarget(const std::string& path);

  // Writes `text` and, for a file, puts it in place. Throws UsageError.
  void Write(std::string_view text);

 private:
  std::unique_ptr<OutputFile> file_;
};

// An unnamed scratch file (removed when closed), in the directory of
// `near_path` when that is where an OutputFile would write, else (a
// special file, standard output) in the system's temporary directory;
// throws UsageError when it cannot be created.
std::FILE* ScratchFileNear(const std::string& near_path);

// Whether two paths name the same file: the same existing file, or, when
// neither exists yet, the same place once "." and ".." and symbolic links
// (a dangling last one included) are resolved.
bool SameFile(const std::string& a, const std::string& b);

// Throws UsageError when standard output is the file the output `out`
// (given with `flag`) will replace: what went to standard output would be
// lost with the old file.
void RefuseStandardOutputAs(const std::string& out, std::string_view flag);

// Whether standard output is the regular file `input` ("-": the file
// standard input reads), as in `lbsim ... >> INPUT`.
bool StandardOutputIs(const std::string& input);

// Throws UsageError when the output `out` given with `flag` would overwrite
// the input `input` (a `kind`: trace, slice, scenario); for `input` "-",
// when `out` is the file standard input reads. For `out` empty or "-"
// (standard output), when standard output is that input.
void RefuseOverwrite(const std::string& out, const std::string& input,
                     std::string_view flag, std::string_view kind = "trace");

}  // namespace lbsim
