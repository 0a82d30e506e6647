# One replay, every output (docs/ci-gates.md): --output is repeatable and
# each file takes the format its name says. Each file equals what a replay
# writing only it writes (the goldens of the one-output tests), the
# Markdown summary is reviewed in its own golden, and a mistake in any of
# them leaves none written.
set(MULTI_OUT ${OUT}/multi)
file(MAKE_DIRECTORY ${MULTI_OUT})
lbsim_cli_test(NAME "multi output: json, csv, table and markdown from one replay"
  ARGS -s rr,ll traces/examples/ties.json -o ${MULTI_OUT}/ties.json
       -o ${MULTI_OUT}/ties.csv -o ${MULTI_OUT}/ties.txt -o ${MULTI_OUT}/ties.md
  EXIT 0 STDOUT_MATCH "^$" STDERR_LINES 0
  FILE_GOLDEN ${MULTI_OUT}/ties.json=${GOLDEN}/ties.report.json
              ${MULTI_OUT}/ties.csv=${GOLDEN}/ties.csv
              ${MULTI_OUT}/ties.txt=${GOLDEN}/ties.table.txt
              ${MULTI_OUT}/ties.md=${GOLDEN}/ties.md)
lbsim_cli_test(NAME "multi output: the first may be standard output"
  ARGS -s rr,ll traces/examples/ties.json -o - -o ${MULTI_OUT}/first.md
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/ties.table.txt
  FILE_GOLDEN ${MULTI_OUT}/first.md=${GOLDEN}/ties.md)
lbsim_cli_test(NAME "multi output: markdown alone with -f md"
  ARGS -s rr,ll -f md traces/examples/ties.json
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/ties.md)
foreach(bad IN ITEMS
    "an unknown extension|-o;${MULTI_OUT}/a.json;-o;${MULTI_OUT}/a.yaml|--output ${MULTI_OUT}/a.yaml: cannot tell its format. with several --output files name each .json, .csv, .html, .md or .txt"
    "format with several outputs|-f;json;-o;${MULTI_OUT}/a.json;-o;${MULTI_OUT}/a.md|--format: with several --output files each takes its format from its name"
    "one file twice|-o;${MULTI_OUT}/a.json;-o;${MULTI_OUT}/a.json|--output ${MULTI_OUT}/a.json: named twice among the outputs"
    "standard output second|-o;${MULTI_OUT}/a.json;-o;-|--output -: standard output takes the first --output only"
    "markdown under seeds|--seeds;1,2;-o;${MULTI_OUT}/a.json;-o;${MULTI_OUT}/a.md|--seeds with several seeds writes a table or JSON")
  string(REPLACE "|" ";" parts "${bad}")
  list(POP_FRONT parts name)
  list(POP_BACK parts message)
  lbsim_cli_test(NAME "multi output: refused, nothing written: ${name}"
    ARGS -s rr,ll traces/examples/ties.json ${parts}
    EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 2 STDERR_MATCH "^lbsim: error: ${message}"
    ABSENT ${MULTI_OUT}/a.json ${MULTI_OUT}/a.md ${MULTI_OUT}/a.yaml)
endforeach()
lbsim_cli_test(NAME "multi output: a further output may not replace the trace"
  ARGS -s rr traces/examples/ties.json -o ${MULTI_OUT}/b.json -o traces/examples/ties.json
  EXIT 2 STDOUT_MATCH "^$" STDERR_LINES 2
  STDERR_MATCH "^lbsim: error: [^\n]*refusing to overwrite the input trace"
  ABSENT ${MULTI_OUT}/b.json)
