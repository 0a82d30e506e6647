# Compressed traces (gzip, zstd) are told by their content, not their name,
# and decompressed as they are read: every one of these replays to the same
# decision log as the plain trace, and damaged data is one clear error.

set(COMPRESSED ${PROJECT_SOURCE_DIR}/tests/corpus/compressed)

foreach(name stale_snapshot.ndjson.gz stale_snapshot.ndjson.zst
             stale_snapshot_two_members.gz stale_snapshot_two_frames.zst
             stale_snapshot_pzstd.zst)
  lbsim_cli_test(NAME "compressed: ${name}"
    ARGS -s rr,ll --decisions ${OUT}/compressed_${name}.jsonl -o ${OUT}/compressed_${name}.txt
         ${COMPRESSED}/${name}
    EXIT 0 STDERR_LINES 0
    FILE_GOLDEN ${OUT}/compressed_${name}.jsonl=${GOLDEN}/stale_snapshot.decisions.jsonl)
endforeach()
# A gzip-compressed document with no suffix at all: both the compression
# and the encoding come from the content; read twice (decompressed again).
lbsim_cli_test(NAME "compressed: a document without a suffix"
  ARGS -s rr,ll --decisions ${OUT}/compressed_ties.jsonl -o ${OUT}/compressed_ties.txt
       ${COMPRESSED}/ties_document
  EXIT 0 STDERR_LINES 0
  FILE_GOLDEN ${OUT}/compressed_ties.jsonl=${GOLDEN}/ties.decisions.jsonl)
lbsim_cli_test(NAME "compressed: on standard input"
  ARGS -s rr,ll --decisions ${OUT}/compressed_stdin.jsonl -o ${OUT}/compressed_stdin.txt -
  STDIN_FILE ${COMPRESSED}/ties_document
  EXIT 0 STDERR_LINES 0
  FILE_GOLDEN ${OUT}/compressed_stdin.jsonl=${GOLDEN}/ties.decisions.jsonl)

lbsim_cli_test(NAME "compressed: truncated gzip"
  ARGS -o ${OUT}/truncated_gz.txt ${COMPRESSED}/truncated.ndjson.gz
  EXIT 2 STDERR_LINES 2 ABSENT ${OUT}/truncated_gz.txt
  STDERR_MATCH "^lbsim: error: [^\n]*truncated.ndjson.gz: cannot read trace: gzip: the compressed data ends too early \\(a truncated file\\?\\) \\(after line 0\\)\n")
lbsim_cli_test(NAME "compressed: truncated zstd"
  ARGS ${COMPRESSED}/truncated.ndjson.zst
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: [^\n]*truncated.ndjson.zst: cannot read trace: zstd: the compressed data ends too early \\(a truncated file\\?\\) \\(after line 0\\)\n$")
lbsim_cli_test(NAME "compressed: corrupt gzip"
  ARGS ${COMPRESSED}/corrupt.ndjson.gz
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: [^\n]*corrupt.ndjson.gz: cannot read trace: gzip: invalid compressed data \\([^)]*\\)[^\n]*\n$")

# Pipes and FIFOs: JSON Lines stream, documents are read through an
# unlinked temporary file; compressed or not; no encoding in the name.
add_test(NAME "cli: compressed: pipes and FIFOs, plain and compressed, lines and documents"
  COMMAND Python3::Interpreter ${CLI_DIR}/pipe_input_test.py $<TARGET_FILE:lbsim>
          ${PROJECT_SOURCE_DIR} ${OUT}/pipes)

# Import inputs are decompressed the same way (public traces ship as .gz):
# the same trace as from the plain sample, but for its description, which
# names the input file.
lbsim_cli_test(NAME "compressed: import a gzip Azure sample"
  ARGS import --from azure --instances 3 --name azure_sample tests/corpus/compressed/azure_sample.csv.gz
       -o ${OUT}/compressed_azure.ndjson
  EXIT 0 STDERR_MATCH "^lbsim: imported 8 arrivals from tests/corpus/compressed/azure_sample.csv.gz \\(azure\\)\n$")
lbsim_cli_test(NAME "compressed: import a zstd Mooncake sample from standard input"
  ARGS import --from mooncake --instances 3 --name mooncake_sample - -o ${OUT}/compressed_mooncake.ndjson
  STDIN_FILE ${COMPRESSED}/mooncake_sample.jsonl.zst
  EXIT 0 STDERR_MATCH "^lbsim: imported 8 arrivals from <stdin> \\(mooncake\\)\n$")

# Every other input lbsim reads whole (a scenario, a report, a gen spec, a
# sweep slice) is decompressed the same way, by its content.
lbsim_cli_test(NAME "compressed: a gzip scenario"
  ARGS check ${COMPRESSED}/ties_fair.scenario.json.gz
  EXIT 0 STDERR_LINES 0
  STDOUT_MATCH "\nlbsim check: 1 scenario, 9 expectations: 9 passed, 0 failed\n$")
lbsim_cli_test(NAME "compressed: a zstd report for diff"
  ARGS diff ${COMPRESSED}/steady_pool.ll.report.json.zst ${GOLDEN}/steady_pool.ll.report.json
  EXIT 0 STDERR_LINES 0
  STDOUT_MATCH "figures beyond tolerance; no change flagged\n$")
lbsim_cli_test(NAME "compressed: a gzip gen spec"
  ARGS gen ${COMPRESSED}/herding.gen.json.gz -o ${OUT}/compressed_herding.ndjson
  EXIT 0 STDERR_LINES 0 STDOUT_MATCH "^$")
