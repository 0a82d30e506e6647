#!/bin/sh
# A JSON document broken after 256 MiB of whitespace: its error line says
# where, in the memory of a valid document (under a 400 MB address-space
# cap), with the position a parser keeping every byte would give.
#   sh whitespace_error_test.sh LBSIM DIR
lbsim=$1
dir=$2
rm -rf "$dir" && mkdir -p "$dir" || exit 1
trace="$dir/spaces.json"
{ printf '{"lbsim_trace": 1, "instances": [{"id": "a"}], "events": ['
  head -c 268435456 /dev/zero | tr '\0' ' '; } > "$trace" || exit 1
err=$( (ulimit -v 400000 && exec "$lbsim" "$trace") 2>&1 >/dev/null)
status=$?
rm -f "$trace"
want="lbsim: error: $trace:1:268435515: invalid JSON: syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal"
if [ "$status" -ne 2 ] || [ "$err" != "$want" ]; then
  echo "FAIL: exit $status, stderr: $err"
  echo "expected: $want"
  exit 1
fi
