#!/bin/sh
# Option values given empty ('') are refused: one line naming the option,
# exit 2. (The cmake-driven tests cannot pass an empty argument.)
#   sh empty_values_test.sh LBSIM TRACE
lbsim=$1
trace=$2
failures=0

# expect REGEX ARG...: lbsim ARG... exits 2 with one stderr line matching REGEX.
expect() {
  want=$1
  shift
  err=$("$lbsim" "$@" 2>&1 >/dev/null)
  status=$?
  lines=$(printf '%s\n' "$err" | wc -l)
  if [ "$status" -ne 2 ] || [ "$lines" -ne 1 ] || ! printf '%s\n' "$err" | grep -Eq "$want"; then
    echo "FAIL: lbsim $*: exit $status, stderr: $err"
    failures=$((failures + 1))
  fi
}

expect '^lbsim: error: --seeds: expected seeds S1,S2,\.\.\. \(integers separated by commas\), got "" with an empty one' \
  --seeds '' -s p2c "$trace"
expect '^lbsim: error: --seeds: expected seeds S1,S2,\.\.\. \(integers separated by commas\), got "" with an empty one' \
  sweep --seeds '' -s p2c "$trace"
expect "^lbsim: error: --shard: expected I/N with 1 <= I <= N \(shard I of N\), got ''$" \
  sweep --shard '' --vary sim.slots=1,2 "$trace"
expect '^lbsim: error: --output: expected a file name, got an empty one \(- is standard output\)$' \
  --output '' "$trace"
exit "$failures"
