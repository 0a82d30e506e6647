#!/bin/sh
# A sweep whose threads cannot start (an address-space cap leaves room for
# a few dozen of the 1,024 asked) is refused with one line and exit 2, and
# leaves no output and no temporary file.
#   sh thread_limit_test.sh LBSIM DIR
lbsim=$1
dir=$2
rm -rf "$dir" && mkdir -p "$dir/out" || exit 1
cat > "$dir/two.ndjson" <<'TRACE'
{"lbsim_trace": 1, "instances": [{"id": "a"}, {"id": "b"}]}
{"t": 0, "type": "arrival", "duration": 1}
{"t": 1, "type": "arrival", "duration": 1}
TRACE
slots=$(seq -s, 1 1100)
err=$( (ulimit -v 400000 && exec "$lbsim" sweep -s ll -j 1024 --vary "sim.slots=$slots" \
  -o "$dir/out/s.csv" "$dir/two.ndjson") 2>&1 >/dev/null)
status=$?
left=$(ls -A "$dir/out")
if [ "$status" -ne 2 ] ||
   ! printf '%s\n' "$err" | head -1 | grep -Eq '^lbsim: error: sweep -j 1024: only [0-9]+ of 1024 threads could start \(.*\); give a smaller -j$' ||
   [ "$(printf '%s\n' "$err" | wc -l)" -ne 2 ] || [ -n "$left" ]; then
  echo "FAIL: exit $status, stderr: $err, left in the output folder: $left"
  exit 1
fi
