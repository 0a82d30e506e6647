#!/usr/bin/env bash
# Runs lbsim's libFuzzer targets and prints, per target, how many inputs it
# executed and whether it found anything.
#
#   cmake --preset fuzz && cmake --build --preset fuzz
#   tests/fuzz/run_fuzzers.sh build-fuzz 600                 # 10 min per target
#   tests/fuzz/run_fuzzers.sh build-fuzz 60 fuzz_trace_lines # one target
#
# Each target keeps a growing corpus in BUILD_DIR/fuzz-work/TARGET/corpus,
# seeded from traces/examples, tests/corpus and tests/fuzz/seeds, and writes
# what it finds (crash-*, leak-*, timeout-*, oom-*) to
# BUILD_DIR/fuzz-work/TARGET/findings/. A finding is fixed in the core and
# its input committed to tests/fuzz/regressions/TARGET/, which ctest replays.
# Exit status: 0 when no target found anything, 1 otherwise, 2 on misuse.
set -uo pipefail

if [[ $# -lt 2 ]]; then
  echo "usage: $0 BUILD_DIR SECONDS_PER_TARGET [TARGET...]" >&2
  exit 2
fi
build=$(cd "$1" && pwd) || exit 2
seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] ||
  targets=(fuzz_trace_lines fuzz_trace_document fuzz_read_ahead fuzz_line_layouts
           fuzz_strategy_params fuzz_scenario fuzz_engine_config fuzz_proxy_record)

work=$build/fuzz-work
mkdir -p "$work"

# JSON Lines seeds: the example documents re-encoded (header line + one line
# per event), so the lines target starts from every example too.
lines_seeds=$work/seeds-lines
mkdir -p "$lines_seeds"
python3 - "$root/traces/examples" "$lines_seeds" <<'PY'
import json, pathlib, sys
src, dst = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for p in sorted(src.glob("*.json")):
    doc = json.loads(p.read_text())
    events = doc.pop("events")
    lines = [json.dumps(doc)] + [json.dumps(e) for e in events]
    (dst / (p.stem + ".ndjson")).write_text("\n".join(lines) + "\n")
PY

status=0
summary=()
for target in "${targets[@]}"; do
  bin=$build/tests/fuzz/$target
  if [[ ! -x $bin ]]; then
    echo "$bin: not built (configure with --preset fuzz or -DLBSIM_FUZZ=ON)" >&2
    exit 2
  fi
  case $target in
    fuzz_trace_lines)
      seeds=("$lines_seeds" "$root/traces/examples" "$root/tests/corpus")
      opts=(-dict="$here/trace.dict" -max_len=8192) ;;
    fuzz_read_ahead)
      seeds=("$here/seeds/read_ahead" "$lines_seeds" "$root/traces/examples" "$root/tests/corpus")
      opts=(-dict="$here/trace.dict" -max_len=8192) ;;
    fuzz_line_layouts)
      seeds=("$here/seeds/line_layouts")
      opts=(-dict="$here/trace.dict" -max_len=256) ;;
    fuzz_trace_document)
      seeds=("$root/traces/examples" "$root/tests/corpus")
      opts=(-dict="$here/trace.dict" -max_len=8192) ;;
    fuzz_strategy_params)
      seeds=("$here/seeds/strategy_params")
      opts=(-dict="$here/strategy_params.dict" -max_len=512) ;;
    fuzz_scenario)
      seeds=("$root/scenarios" "$root/tests/check")
      opts=(-dict="$here/scenario.dict" -max_len=8192) ;;
    fuzz_engine_config)
      seeds=("$here/seeds/engine_config" "$root/tests/cli/engine" "$root/tests/cli/fit")
      opts=(-dict="$here/engine_config.dict" -max_len=2048) ;;
    fuzz_proxy_record)
      seeds=("$root/traces/import_samples" "$root/tests/cli/import_inputs")
      opts=(-dict="$here/proxy_record.dict" -max_len=8192) ;;
    *)
      seeds=()
      opts=() ;;
  esac
  seeds+=("$here/regressions/$target")
  corpus=$work/$target/corpus
  findings=$work/$target/findings
  mkdir -p "$corpus" "$findings"
  log=$work/$target/last-run.log
  echo "== $target: ${seconds}s (log: $log)"
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$findings/" \
    "${opts[@]}" "$corpus" "${seeds[@]}" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  found=$(find "$findings" -type f | wc -l)
  if [[ $rc -ne 0 || $found -ne 0 ]]; then
    status=1
    tail -n 40 "$log"
  fi
  summary+=("$(printf '%-22s %12s execs  %3d findings  exit %d' "$target" "${execs:-?}" "$found" "$rc")")
done

echo
printf '%s\n' "${summary[@]}"
exit $status
