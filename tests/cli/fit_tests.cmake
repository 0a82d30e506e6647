# lbsim engines fit (docs/engine-fit.md) on small measurement files written
# for these tests in CacheRoute's formats (tests/cli/fit/): warmup logs with
# CRLF, the benchmark's own chatter, a cold first request, a FAILED request
# and no final line end; the two benchmark tables; a CSV. Their values come
# from beta = 20,000 us, 1,500 us, 400 us under the documented rules
# (a batch of B prompts of n = PL + 25 tokens: ceil(B n / 2048) steps, B n
# prefill tokens; a decode step of B: 20,000 + 400 B), so a fit gives them
# back (exactly for the CSV; the log's repeats scatter 0.4% around them).
set(FIT tests/cli/fit)
file(MAKE_DIRECTORY ${OUT}/fit)
lbsim_cli_test(NAME "engines fit: logs and tables give their coefficients back"
  ARGS engines fit ${FIT}/log-bs1-small.txt ${FIT}/log-bs2-small.txt ${FIT}/log-bs4-small.txt
       ${FIT}/tpot_table.json ${FIT}/ttft_table.json --name small-fit -o ${OUT}/fit/small.json
  EXIT 0 STDOUT_MATCH "^$" STDERR_GOLDEN ${GOLDEN}/fit/small.report.txt
  FILE_GOLDEN ${OUT}/fit/small.json=${GOLDEN}/fit/small.json)
lbsim_cli_test(NAME "engines fit: a CSV written from the rules gives them back exactly"
  ARGS engines fit -q ${FIT}/measurements.csv
  EXIT 0 STDERR_MATCH "^$"
  STDOUT_MATCH "\"beta_us\": \\[\n    20000.0,\n    1500.0,\n    400.00000000000017\n  \\],\n  \"alpha_us\": \\[\n    0.0,\n    0.0,\n    0.0\n  \\]")
lbsim_cli_test(NAME "engines fit: held-out batch sizes are reported as predictions"
  ARGS engines fit --hold-out 2 ${FIT}/log-bs1-small.txt ${FIT}/log-bs2-small.txt
       ${FIT}/tpot_table.json -o ${OUT}/fit/held.json
  EXIT 0 STDERR_MATCH "\nheld out, predicted \\(batch sizes 2\\):\n  TTFT        3 ")
lbsim_cli_test(NAME "engines fit: without TPOT the decode coefficient is the base's, and said so"
  ARGS engines fit ${FIT}/log-bs1-small.txt ${FIT}/log-bs2-small.txt -o ${OUT}/fit/no_tpot.json
  EXIT 0 STDERR_MATCH "\nbeta\\[2\\] \\(a decode token\\): not determined by these measurements \\(no TPOT, and no E2E of more than one token\\); the base's 5.999143920128404\nKV cache and limits: llama-3.1-8b-h100's: 29205 blocks of 16 tokens, 256 sequences, 2048 tokens a step\n")
# CacheRoute's supplementary logs have Chinese names with full-width brackets.
lbsim_cli_test(NAME "engines fit: a log with a non-ASCII name"
  ARGS engines fit "${FIT}/补录数据（小长度）.txt" ${FIT}/log-bs2-small.txt -o ${OUT}/fit/named.json
  EXIT 0 STDERR_MATCH "\n  tests/cli/fit/补录数据（小长度）.txt \\(warmup-log\\): 9 .TTFT. lines, ")
lbsim_cli_test(NAME "engines fit: --from reads a file whose content does not say"
  ARGS engines fit --from csv -q ${FIT}/measurements.csv -o ${OUT}/fit/from.json
  EXIT 0 STDERR_MATCH "^$")
# A fitted configuration replays: the engine's own TTFT for a batch of four
# 1,113-token prompts sent at once equals what the fit predicts: 3 steps
# (4,452 tokens in budgets of 2,048) x 24,731.49 us + 4,452 x 1,432.44 us.
lbsim_cli_test(NAME "engines fit: the built-in 70B replays a benchmark batch as fitted"
  ARGS -s rr --engine llama-3-70b-rtx5090x8 -f csv ${FIT}/batch4.ndjson
  EXIT 0 STDOUT_MATCH "\nround_robin,[^\n]*,6.45143711298,")

# Bad input and usage: one line, exit 2, nothing written.
lbsim_cli_test(NAME "engines fit: a file of no known format"
  ARGS engines fit tests/cli/engine/three_requests.ndjson -o ${OUT}/fit/never.json
  EXIT 2 STDERR_LINES 2 ABSENT ${OUT}/fit/never.json
  STDERR_MATCH "^lbsim: error: tests/cli/engine/three_requests.ndjson: expected measurements lbsim knows .*--from names the format: warmup-log, ttft-table, tpot-table, csv.\n")
lbsim_cli_test(NAME "engines fit: a broken warmup line names its line"
  ARGS engines fit ${FIT}/bad_line.txt -o ${OUT}/fit/never.json
  EXIT 2 STDERR_LINES 2 ABSENT ${OUT}/fit/never.json
  STDERR_MATCH "^lbsim: error: tests/cli/fit/bad_line.txt:3: expected a warmup line \"\\[TTFT\\] BS=N, PL=N, repeat=N, task=I/N, ttft=Xms\", got \"\\[TTFT\\] BS=1, PL=64, repeat=1, task=1/1, ttft=12,5ms\"\n")
lbsim_cli_test(NAME "engines fit: --from names a format"
  ARGS engines fit --from log ${FIT}/measurements.csv
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --from: expected one of warmup-log, ttft-table, tpot-table, csv, got \"log\"\n$")
lbsim_cli_test(NAME "engines fit: --hold-out takes batch sizes"
  ARGS engines fit --hold-out 2,x ${FIT}/measurements.csv
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --hold-out: expected batch sizes from 1 to 4096 separated by commas, got \"2,x\"\n$")
lbsim_cli_test(NAME "engines fit: holding every batch size out leaves nothing to fit"
  ARGS engines fit --hold-out 1,2,4 ${FIT}/measurements.csv -o ${OUT}/fit/never.json
  EXIT 2 STDERR_LINES 2 ABSENT ${OUT}/fit/never.json
  STDERR_MATCH "^lbsim: error: expected measurements to fit, got none outside the held-out batch sizes\n")
lbsim_cli_test(NAME "engines fit: refuses to write over a measurement file"
  ARGS engines fit ${FIT}/measurements.csv -o ${FIT}/measurements.csv
  EXIT 2 STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: --output tests/cli/fit/measurements.csv: refusing to overwrite the input measurement file\n")
lbsim_cli_test(NAME "engines fit: a prompt larger than the base's KV cache"
  ARGS engines fit --base tests/cli/engine/small_engine.json ${FIT}/log-bs1-small.txt
       -o ${OUT}/fit/never.json
  EXIT 2 STDERR_LINES 2 ABSENT ${OUT}/fit/never.json
  STDERR_MATCH "^lbsim: error: tests/cli/fit/log-bs1-small.txt:36: a request of 1025 prompt and 1 output tokens does not fit the KV cache of 1024 tokens \\(64 blocks of 16\\): give --base a configuration with a larger one\n")
lbsim_cli_test(NAME "engines fit: a missing file"
  ARGS engines fit ${FIT}/no_such.txt -o ${OUT}/fit/never.json
  EXIT 2 STDERR_LINES 2 ABSENT ${OUT}/fit/never.json
  STDERR_MATCH "^lbsim: error: tests/cli/fit/no_such.txt: ")
lbsim_cli_test(NAME "engines fit: a base that is not an engine"
  ARGS engines fit --base nothing ${FIT}/measurements.csv
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --base nothing: expected a built-in engine \\(llama-3.1-8b-h100, llama-3-70b-rtx5090x8\\) or an engine configuration file")
