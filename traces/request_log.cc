#include "traces/request_log.h"

#include "base/background_writer.h"
#include "base/number_text.h"
#include "base/json/json_write.h"
#include "traces/decision_log.h"

namespace lbsim {
namespace {

void AppendTime(std::string& out, const std::optional<double>& t) {
  if (t) out += NumberText(*t);
  else out += "null";
}

}  // namespace

void RequestLogWriter::Write(const RequestRecord& r) {
  if (!background_) line_.clear();
  const std::size_t start = line_.size();
  line_ += "{\"request\":";
  AppendJsonString(line_, r.request);
  line_ += ",\"strategy\":";
  AppendJsonString(line_, r.strategy);
  line_ += ",\"instance\":";
  if (r.instance) AppendJsonString(line_, *r.instance);
  else line_ += "null";
  line_ += ",\"arrival\":";
  AppendTraceTime(line_, *r.arrival);
  line_ += ",\"forwarded\":";
  AppendTime(line_, r.forwarded);
  line_ += ",\"first_token\":";
  AppendTime(line_, r.first_token);
  line_ += ",\"end\":";
  AppendTime(line_, r.end);
  line_ += ",\"outcome\":";
  AppendJsonString(line_, r.outcome);
  line_ += "}\n";
  if (!background_) {
    std::fwrite(line_.data() + start, 1, line_.size() - start, out_);
    return;
  }
  if (line_.size() >= BackgroundWriter::kBlockBytes) background_->Submit(out_, line_);
}

void RequestLogWriter::Flush() {
  if (background_ && !line_.empty()) background_->Submit(out_, line_);
}

}  // namespace lbsim
