# `lbsim import`: each format's sample becomes the reviewed golden trace,
# which then replays; malformed rows stop the import (exit 2, one line, no
# output file) or are skipped and counted with --skip-bad.

set(SAMPLES traces/import_samples)
set(IMPORT_IN tests/cli/import_inputs)
set(IMPORT_GOLDEN ${GOLDEN}/import)
file(MAKE_DIRECTORY ${OUT}/import)

foreach(sample mooncake:mooncake_sample.jsonl azure:azure_sample.csv burstgpt:burstgpt_sample.csv)
  string(REGEX REPLACE ":.*" "" format "${sample}")
  string(REGEX REPLACE "^[^:]*:" "" file "${sample}")
  string(REGEX REPLACE "\\.[a-z]+$" "" stem "${file}")
  lbsim_cli_test(NAME "import ${format} sample"
    ARGS import --from ${format} --instances 3 ${SAMPLES}/${file} -o ${OUT}/import/${stem}.ndjson
    EXIT 0 STDOUT_MATCH "^$"
    STDERR_MATCH "^lbsim: imported [78] arrivals from ${SAMPLES}/${file} \\(${format}\\)\n$"
    FILE_GOLDEN ${OUT}/import/${stem}.ndjson=${IMPORT_GOLDEN}/${stem}.ndjson)
  set_tests_properties("cli: import ${format} sample" PROPERTIES FIXTURES_SETUP imported_${format})
endforeach()

# What the importers wrote replays.
lbsim_cli_test(NAME "replay imported mooncake sample"
  ARGS -s rr,ll --decisions ${OUT}/import/mooncake_sample.decisions.jsonl
       --output ${OUT}/import/mooncake_sample.report.txt ${OUT}/import/mooncake_sample.ndjson
  EXIT 0
  FILE_GOLDEN ${OUT}/import/mooncake_sample.decisions.jsonl=${IMPORT_GOLDEN}/mooncake_sample.decisions.jsonl)
set_tests_properties("cli: replay imported mooncake sample" PROPERTIES FIXTURES_REQUIRED imported_mooncake)
foreach(format azure burstgpt)
  lbsim_cli_test(NAME "replay imported ${format} sample"
    ARGS -s rr,ll --format json ${OUT}/import/${format}_sample.ndjson
    EXIT 0 STDOUT_MATCH "\"time_unit\": \"ms\",\n *\"events\": [78],\n *\"arrivals\": [78],")
  set_tests_properties("cli: replay imported ${format} sample" PROPERTIES FIXTURES_REQUIRED imported_${format})
endforeach()

# Standard output and standard input.
lbsim_cli_test(NAME "import to stdout"
  ARGS import --from azure --instances 3 ${SAMPLES}/azure_sample.csv
  EXIT 0 STDOUT_GOLDEN ${IMPORT_GOLDEN}/azure_sample.ndjson STDERR_LINES 1)
lbsim_cli_test(NAME "import from stdin"
  ARGS import --from mooncake --instances 3 -
  STDIN_FILE ${PROJECT_SOURCE_DIR}/${SAMPLES}/mooncake_sample.jsonl
  EXIT 0 STDOUT_MATCH "^{\"lbsim_trace\":1,\"name\":\"stdin\",\"description\":\"Imported by lbsim from the mooncake trace <stdin>: .*{\"t\":2750.5,\"type\":\"arrival\",\"duration\":910,"
  STDERR_MATCH "imported 8 arrivals from <stdin>")

# Options: ids, dropping failures, rate scale, limit.
lbsim_cli_test(NAME "import burstgpt drop failed, rate scale, limit"
  ARGS import --from burstgpt --instances a,b --failed drop --rate-scale 2 --limit 3
       ${SAMPLES}/burstgpt_sample.csv -o ${OUT}/import/burstgpt_drop_scaled.ndjson
  EXIT 0 STDERR_MATCH "imported 3 arrivals .*; dropped 1 failed request\n$"
  FILE_GOLDEN ${OUT}/import/burstgpt_drop_scaled.ndjson=${IMPORT_GOLDEN}/burstgpt_drop_scaled.ndjson)
lbsim_cli_test(NAME "import keeps burstgpt failures by default"
  ARGS import --from burstgpt --instances 1 ${SAMPLES}/burstgpt_sample.csv
  EXIT 0 STDOUT_MATCH "{\"t\":45000,\"type\":\"arrival\",\"duration\":108.7,\"input_tokens\":1087,\"output_tokens\":0}")
lbsim_cli_test(NAME "import token-time model"
  ARGS import --from mooncake --instances 1 --prefill-ms-per-token 1 --decode-ms-per-token 0.5
       --limit 1 ${SAMPLES}/mooncake_sample.jsonl
  EXIT 0 STDOUT_MATCH "\n{\"t\":0,\"type\":\"arrival\",\"duration\":1520,\"input_tokens\":1500,\"output_tokens\":40,\"prefix_blocks\":\\[0,1,2\\]}\n$")

# Malformed rows: one line naming file, line and field; no output file.
lbsim_cli_test(NAME "import mooncake malformed row"
  ARGS import --from mooncake --instances 2 ${IMPORT_IN}/mooncake_bad.jsonl -o ${OUT}/import/bad.ndjson
  EXIT 2 STDERR_LINES 1 ABSENT ${OUT}/import/bad.ndjson
  STDERR_MATCH "^lbsim: error: ${IMPORT_IN}/mooncake_bad.jsonl:3: field \"input_length\": expected an integer >= 0 \\(a token count\\), got -5\n$")
lbsim_cli_test(NAME "import azure malformed row"
  ARGS import --from azure --instances 2 ${IMPORT_IN}/azure_bad.csv -o ${OUT}/import/bad.ndjson
  EXIT 2 STDERR_LINES 1 ABSENT ${OUT}/import/bad.ndjson
  STDERR_MATCH "^lbsim: error: ${IMPORT_IN}/azure_bad.csv:3: column \"ContextTokens\": expected an integer >= 0, got \"abc\"\n$")
lbsim_cli_test(NAME "import burstgpt malformed row"
  ARGS import --from burstgpt --instances 2 ${IMPORT_IN}/burstgpt_bad.csv
  EXIT 2 STDERR_LINES 1 STDOUT_MATCH "^$"
  STDERR_MATCH "^lbsim: error: ${IMPORT_IN}/burstgpt_bad.csv:3: column \"Response tokens\": expected an integer >= 0, got \"-5\"\n$")
lbsim_cli_test(NAME "import wrong csv header"
  ARGS import --from azure --instances 2 ${IMPORT_IN}/azure_wrong_header.csv
  EXIT 2 STDERR_LINES 1 STDOUT_MATCH "^$"
  STDERR_MATCH "azure_wrong_header.csv:1: header: expected a column \"GeneratedTokens\" \\(needed: TIMESTAMP,ContextTokens,GeneratedTokens\\), got \"TIMESTAMP,ContextTokens,OutputTokens\"\n$")
lbsim_cli_test(NAME "import empty csv"
  ARGS import --from burstgpt --instances 2 --skip-bad ${IMPORT_IN}/empty.csv -o ${OUT}/import/bad.ndjson
  EXIT 2 STDERR_LINES 1 ABSENT ${OUT}/import/bad.ndjson
  STDERR_MATCH "empty.csv: empty file: expected a CSV header line with the columns Timestamp,Request tokens,Response tokens\n$")

# --skip-bad: the good rows, and the count with the first skipped row.
lbsim_cli_test(NAME "import mooncake skip bad"
  ARGS import --from mooncake --instances 2 --skip-bad ${IMPORT_IN}/mooncake_bad.jsonl -o ${OUT}/import/mooncake_skip_bad.ndjson
  EXIT 0 STDERR_LINES 1
  STDERR_MATCH "^lbsim: imported 4 arrivals from ${IMPORT_IN}/mooncake_bad.jsonl \\(mooncake\\); skipped 4 malformed rows \\(first: ${IMPORT_IN}/mooncake_bad.jsonl:3: field \"input_length\""
  FILE_GOLDEN ${OUT}/import/mooncake_skip_bad.ndjson=${IMPORT_GOLDEN}/mooncake_skip_bad.ndjson)
lbsim_cli_test(NAME "import azure skip bad"
  ARGS import --from azure --instances 2 --skip-bad ${IMPORT_IN}/azure_bad.csv -o ${OUT}/import/azure_skip_bad.ndjson
  EXIT 0 STDERR_LINES 1
  STDERR_MATCH "^lbsim: imported 3 arrivals from ${IMPORT_IN}/azure_bad.csv \\(azure\\); skipped 5 malformed rows \\(first: ${IMPORT_IN}/azure_bad.csv:3: "
  FILE_GOLDEN ${OUT}/import/azure_skip_bad.ndjson=${IMPORT_GOLDEN}/azure_skip_bad.ndjson)
lbsim_cli_test(NAME "import skip bad counts zero"
  ARGS import --from azure --instances 2 --skip-bad ${SAMPLES}/azure_sample.csv
  EXIT 0 STDERR_MATCH "; skipped 0 malformed rows\n$")

# Usage errors.
lbsim_cli_test(NAME "import unknown format"
  ARGS import --from sharegpt --instances 2 ${SAMPLES}/azure_sample.csv
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "--from: unknown trace format 'sharegpt'; expected one of: mooncake, azure, burstgpt")
lbsim_cli_test(NAME "import needs instances"
  ARGS import --from azure ${SAMPLES}/azure_sample.csv
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "--instances is required")
lbsim_cli_test(NAME "import zero instances"
  ARGS import --from azure --instances 0 ${SAMPLES}/azure_sample.csv
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "--instances: expected a count from 1 to 10000 \\(the most Instances a trace may have\\), got 0")
lbsim_cli_test(NAME "import duplicate instance ids"
  ARGS import --from azure --instances a,b,a ${SAMPLES}/azure_sample.csv
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "--instances: Instance id 'a' appears twice")
lbsim_cli_test(NAME "import failed option needs burstgpt"
  ARGS import --from azure --instances 2 --failed drop ${SAMPLES}/azure_sample.csv
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "--failed: the azure format marks no request as failed")
lbsim_cli_test(NAME "import rate scale must be positive"
  ARGS import --from azure --instances 2 --rate-scale 0 ${SAMPLES}/azure_sample.csv
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "--rate-scale: expected a finite number > 0, got 0")
lbsim_cli_test(NAME "import refuses to overwrite its input"
  ARGS import --from azure --instances 2 ${SAMPLES}/azure_sample.csv -o ${SAMPLES}/azure_sample.csv
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "refusing to overwrite the input")
lbsim_cli_test(NAME "import missing input"
  ARGS import --from azure --instances 2 ${IMPORT_IN}/no_such_file.csv
  EXIT 2 STDERR_LINES 1 STDERR_MATCH "no_such_file.csv: cannot read input: No such file or directory")
