#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "traces/importers/csv_source.h"
#include "traces/importers/import_format.h"
#include "traces/importers/trace_import.h"
#include "base/errors.h"
#include "traces/trace_reader.h"

namespace lbsim {
namespace {

struct Closer {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, Closer>;

File Open(std::string& text) {
  return File(fmemopen(text.data(), text.size(), "r"));
}

// Every row of `text` read as `format`: "LINE: t=.. in=.. out=.. blocks=..
// failed" for a request, "LINE: error: ..." for a malformed row.
std::vector<std::string> Rows(std::string_view format, std::string text) {
  File file = Open(text);
  std::unique_ptr<RequestSource> source =
      RequireImportFormat(format).open(file.get(), "in", nullptr);
  std::vector<std::string> rows;
  SourceRequest r;
  for (;;) {
    try {
      if (!source->Next(r)) break;
      std::string blocks;
      for (std::uint64_t b : r.prefix_blocks) blocks += fmt::format("{},", b);
      rows.push_back(fmt::format("{}: t={} in={} out={} blocks={}{}", source->line(),
                                 r.time_ms, r.input_tokens, r.output_tokens, blocks,
                                 r.failed ? " failed" : ""));
    } catch (const FieldError& e) {
      rows.push_back(fmt::format("{}: error: {}", source->line(), e.what()));
    }
  }
  return rows;
}

}  // namespace

TEST_CASE("SplitCsvLine splits at commas and honours RFC 4180 quotes") {
  std::vector<std::string> f;
  SplitCsvLine("a,b,,c\r", f);
  CHECK(f == std::vector<std::string>{"a", "b", "", "c"});
  SplitCsvLine("\"x,y\",\"say \"\"hi\"\"\",\"\"", f);
  CHECK(f == std::vector<std::string>{"x,y", "say \"hi\"", ""});
  SplitCsvLine("", f);
  CHECK(f == std::vector<std::string>{""});
  CHECK_THROWS_WITH_AS(SplitCsvLine("a,\"b", f),
                       "field 2: quoted field is not closed on this line", FieldError);
  CHECK_THROWS_WITH_AS(SplitCsvLine("a,b\"c\"", f),
                       "field 2: a quote may only enclose a whole field", FieldError);
  CHECK_THROWS_WITH_AS(SplitCsvLine("\"a\"b", f),
                       "field 1: a quote may only enclose a whole field", FieldError);
  // Nothing after a NUL is dropped: the line is refused.
  CHECK_THROWS_WITH_AS(SplitCsvLine(std::string("a,b\0,c", 6), f),
                       "a NUL byte at column 4 (a CSV file is text and holds none; is this a "
                       "binary file?)",
                       FieldError);
}

TEST_CASE("mooncake rows: timestamp ms, lengths, hash_ids, each malformed row says why") {
  std::vector<std::string> rows = Rows("mooncake",
      "{\"timestamp\": 27482, \"input_length\": 6955, \"output_length\": 52, \"hash_ids\": [46, 47]}\n"
      "\n"
      "{\"timestamp\": 30535.5, \"input_length\": 6472, \"output_length\": 26, \"extra\": 1}\n"
      "{\"timestamp\": \"1\", \"input_length\": 1, \"output_length\": 1}\n"
      "{\"timestamp\": -1, \"input_length\": 1, \"output_length\": 1}\n"
      "{\"timestamp\": 1, \"output_length\": 1}\n"
      "{\"timestamp\": 1, \"input_length\": 1.5, \"output_length\": 1}\n"
      "{\"timestamp\": 1, \"input_length\": 1, \"output_length\": 1, \"hash_ids\": 3}\n"
      "{\"timestamp\": 1, \"input_length\": 1, \"output_length\": 1, \"hash_ids\": [0, -2]}\n"
      "[1, 2]\n"
      "{\"timestamp\": 1,\n"
      "{\"timestamp\": 2, \"input_length\": 0, \"output_length\": 0, \"hash_ids\": null}\n"
      "{\"timestamp\": 3, \"input_length\": 1, \"output_length\": 1, \"input_length\": 9}\n" +
      std::string("{\"timestamp\": 4, \"input_length\": 1, \"output_length\": 1}\0x\n", 58));
  std::vector<std::string> want = {
      "1: t=27482 in=6955 out=52 blocks=46,47,",
      "3: t=30535.5 in=6472 out=26 blocks=",
      "4: error: field \"timestamp\": expected a number of milliseconds >= 0, got \"1\"",
      "5: error: field \"timestamp\": expected a number of milliseconds >= 0, got -1",
      "6: error: field \"input_length\": expected an integer >= 0 (a token count), but it is missing",
      "7: error: field \"input_length\": expected an integer >= 0 (a token count), got 1.5",
      "8: error: field \"hash_ids\": expected an array of block ids (integers >= 0), got 3",
      "9: error: field \"hash_ids[1]\": expected an array of block ids (integers >= 0), got -2",
      "10: error: expected a request object {\"timestamp\": ...}",
      "11: error: invalid JSON at column 17: syntax error while parsing object key - "
      "unexpected end of input; expected string literal",
      "12: t=2 in=0 out=0 blocks=",
      "13: error: key \"input_length\" appears twice in the object at the top level",
      "14: error: invalid JSON at column 56: a NUL byte (JSON text holds none)",
  };
  for (std::size_t i = 0; i < std::max(rows.size(), want.size()); ++i)
    CHECK(rows.at(i) == want.at(i));
}

TEST_CASE("azure rows: times after the first whole row, to the nanosecond") {
  std::vector<std::string> rows = Rows("azure",
      "\xEF\xBB\xBFtimestamp, ContextTokens ,GeneratedTokens,Other\n"
      "2023-11-16 18:15:46.6805900,xx,44,a\n"          // bad row: no origin yet
      "2023-11-16 18:15:46.6805910,374,44,a\n"         // the origin
      "2023-11-16 18:15:50.9951690,396,109,b\n"
      "2023-11-16 18:15:50,1,2\n"
      "2023-11-16 18:15:51,1,-2,c\n"
      "bad,1,2,c\n");
  std::vector<std::string> want = {
      "2: error: column \"ContextTokens\": expected an integer >= 0, got \"xx\"",
      "3: t=0 in=374 out=44 blocks=",
      "4: t=4314.578 in=396 out=109 blocks=",
      "5: error: expected 4 fields as in the header, got 3",
      "6: error: column \"GeneratedTokens\": expected an integer >= 0, got \"-2\"",
      "7: error: column \"TIMESTAMP\": expected a date-time YYYY-MM-DD HH:MM:SS[.FRACTION] "
      "(years 1900 to 2200), got \"bad\"",
  };
  CHECK(rows == want);
}

TEST_CASE("burstgpt rows: seconds to ms, 0 response tokens marks a failure") {
  std::vector<std::string> rows = Rows("burstgpt",
      "Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n"
      "5,ChatGPT,472,18,490,Conversation log\n"
      "45.125,ChatGPT,1087,0,1087,Conversation log\n"
      "x,ChatGPT,1,1,2,API log\n");
  std::vector<std::string> want = {
      "2: t=5000 in=472 out=18 blocks=",
      "3: t=45125 in=1087 out=0 blocks= failed",
      "4: error: column \"Timestamp\": expected a decimal number of seconds >= 0, got \"x\"",
  };
  CHECK(rows == want);
}

TEST_CASE("a CSV header without a needed column stops the import") {
  std::string text = "Timestamp,Model,Request tokens\n1,a,2\n";
  File file = Open(text);
  auto source = RequireImportFormat("burstgpt").open(file.get(), "in.csv", nullptr);
  SourceRequest r;
  CHECK_THROWS_WITH_AS(source->Next(r),
                       "in.csv:1: header: expected a column \"Response tokens\" (needed: "
                       "Timestamp,Request tokens,Response tokens), got \"Timestamp,Model,"
                       "Request tokens\"",
                       InputError);
}

TEST_CASE("ImportTrace: header, token-time model, rate scale, rounding and order") {
  std::string text =
      "{\"timestamp\": 0, \"input_length\": 3, \"output_length\": 1, \"hash_ids\": [7]}\n"
      "{\"timestamp\": 10, \"input_length\": 1, \"output_length\": 0}\n"
      "{\"timestamp\": 5, \"input_length\": 1, \"output_length\": 0}\n"
      "{\"timestamp\": 20, \"input_length\": 1, \"output_length\": 0}\n";
  ImportOptions o;
  o.instances = {"a", "b\"q"};
  o.prefill_ms_per_token = 0.1;
  o.decode_ms_per_token = 0.2;
  o.rate_scale = 3;
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);

  SUBCASE("a row earlier than the one before is an error") {
    File in = Open(text);
    auto source = MooncakeFormat().open(in.get(), "m.jsonl", nullptr);
    CHECK_THROWS_WITH_AS(ImportTrace(MooncakeFormat(), *source, "m.jsonl", "m", o, out),
                         "m.jsonl:3: field \"timestamp\": expected a time no earlier than "
                         "the row before (rows must be in time order), got one 5 ms earlier",
                         InputError);
  }
  SUBCASE("skipped rows are counted") {
    o.skip_bad = true;
    File in = Open(text);
    auto source = MooncakeFormat().open(in.get(), "m.jsonl", nullptr);
    ImportStats stats = ImportTrace(MooncakeFormat(), *source, "m.jsonl", "m", o, out);
    std::fclose(out);
    out = nullptr;
    CHECK(stats.arrivals == 3);
    CHECK(stats.skipped == 1);
    CHECK(stats.first_skipped.rfind("m.jsonl:3: field \"timestamp\"", 0) == 0);
    // 0.1 * 3 + 0.2 = 0.5000000000000001 in doubles, rounded to 0.5;
    // 10 / 3 ms rounded to the nanosecond.
    CHECK(std::string(buffer, size) ==
          "{\"lbsim_trace\":1,\"name\":\"m\",\"description\":\"Imported by lbsim from the "
          "mooncake trace m.jsonl: duration = 0.1 ms x input tokens + 0.2 ms x output "
          "tokens; rate scale 3\",\"time_unit\":\"ms\",\"prefix_block_tokens\":512,"
          "\"instances\":[{\"id\":\"a\",\"inflight\":0},{\"id\":\"b\\\"q\",\"inflight\":0}]}\n"
          "{\"t\":0,\"type\":\"arrival\",\"duration\":0.5,\"input_tokens\":3,"
          "\"output_tokens\":1,\"prefix_blocks\":[7]}\n"
          "{\"t\":3.333333,\"type\":\"arrival\",\"duration\":0.1,\"input_tokens\":1,"
          "\"output_tokens\":0}\n"
          "{\"t\":6.666667,\"type\":\"arrival\",\"duration\":0.1,\"input_tokens\":1,"
          "\"output_tokens\":0}\n");
  }
  if (out) std::fclose(out);
  std::free(buffer);
}

}  // namespace lbsim
