#!/usr/bin/env python3
"""The Proxy queue model in front of an Instance model (docs/proxy-queue.md,
"Instance times"): laws of `--proxy-queue --slots K` and `--proxy-queue
--engine NAME` on random traces, written from the spec, not from lbsim:

  slots      under --slots the first token is the end and the slots take
             d / speed: the request log equals the one of the same trace
             with ttft = duration = d / speed read from the arrivals;
  pipeline   every request is forwarded no earlier than it arrives, has its
             first token no earlier than it is forwarded and ends no earlier
             than that; a completions-route request's first token is its
             end;
  one prefill
             on one Instance a request is forwarded only once every request
             forwarded before it there has its first token (the Proxy's
             dispatch turn: prefills from one Proxy never overlap);
  engine     each routed request is one request line of the engine log,
             which got it when the queue forwarded it; a chat request's
             first token and end are the engine's, a completions request's
             first token its end; a request the engine rejects ends when it
             is forwarded;
  units      the same trace in milliseconds gives the same journeys x 1000;
  determinism the same run twice writes byte-identical outputs.

Usage: queue_instances_test.py LBSIM_BINARY CASES SEED
Standard library only; runs on Python 3.11. Exit status: 0 pass, 1 a law
broken, 2 usage error.
"""

import json
import os
import random
import subprocess
import sys
import tempfile

TOL = 1e-6


def make_trace(rng, ms):
    scale = 1000.0 if ms else 1.0
    n_inst = rng.randint(1, 4)
    header = {"lbsim_trace": 1, "proxy": rng.choice(["cacheroute@28e857c", "cacheroute@d4bd47f"]),
              "instances": [{"id": f"i{k}", "inflight": 0} for k in range(n_inst)]}
    if ms:
        header["time_unit"] = "ms"
    lines = [header]
    t = 0.0
    for n in range(rng.randint(1, 40)):
        t += rng.choice([0.0, rng.expovariate(rng.choice([2.0, 20.0, 200.0]))])
        d = round(rng.uniform(0.0, 1.5), 3)
        a = {"t": round(t, 4) * scale, "type": "arrival", "request": f"r{n}",
             "duration": d * scale, "ttft": round(rng.uniform(0.0, d), 3) * scale,
             "input_tokens": rng.choice([1, 30, 500, 3000, 40000, 600000]),
             "output_tokens": rng.choice([0, 1, 2, 17, 150])}
        if rng.random() < 0.2:
            a["route"] = "completions"
        lines.append(a)
    return lines


def write(path, lines):
    with open(path, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")


def run(lbsim, args):
    p = subprocess.run([lbsim, *args], capture_output=True, text=True, check=False)
    if p.returncode != 0:
        raise AssertionError(f"lbsim {' '.join(args)}: exit {p.returncode}: {p.stderr}")
    return p.stdout


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def close(a, b, scale=1.0):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= TOL * scale * max(1.0, abs(a), abs(b))


def check_pipeline(requests, routes, where):
    by_instance = {}
    for r in requests:
        if r["outcome"] != "done":
            continue
        assert r["forwarded"] >= r["arrival"] - TOL, (where, r)
        assert r["first_token"] >= r["forwarded"] - TOL, (where, r)
        assert r["end"] >= r["first_token"] - TOL, (where, r)
        if routes[r["request"]] == "completions":
            assert close(r["first_token"], r["end"]), (where, r)
        by_instance.setdefault((r["strategy"], r["instance"]), []).append(r)
    for key, rs in by_instance.items():
        rs.sort(key=lambda r: r["forwarded"])
        latest_first_token = float("-inf")
        for r in rs:
            assert r["forwarded"] >= latest_first_token - TOL, (where, key, r)
            latest_first_token = max(latest_first_token, r["first_token"])


def check_slots(lbsim, rng, tmp, case):
    lines = make_trace(rng, ms=False)
    common = rng.choice([1.0, 0.5, 2.0, None])  # None: a speed per Instance
    speeds = {f"i{k}": common or rng.choice([1.0, 0.5, 2.0])
              for k in range(len(lines[0]["instances"]))}
    slots = str(rng.randint(1, 4))
    trace = os.path.join(tmp, "slots.ndjson")
    write(trace, lines)
    speed_args = [a for i, s in speeds.items() for a in ("--speed", f"{i}={s}")]
    got = os.path.join(tmp, "slots.requests.jsonl")
    run(lbsim, ["-s", "rr,ll", "--proxy-queue", "--slots", slots, *speed_args,
                "--request-log", got, "-o", os.devnull, trace])
    # The oracle, when every Instance has one speed v: the arrivals' own
    # times, ttft = duration = d / v.
    if len(set(speeds.values())) == 1:
        v = next(iter(speeds.values()))
        fields = [lines[0]] + [dict(a, ttft=a["duration"] / v, duration=a["duration"] / v)
                               for a in lines[1:]]
        trace2 = os.path.join(tmp, "fields.ndjson")
        write(trace2, fields)
        want = os.path.join(tmp, "fields.requests.jsonl")
        run(lbsim, ["-s", "rr,ll", "--proxy-queue", "--request-log", want, "-o", os.devnull,
                    trace2])
        a, b = read_lines(got), read_lines(want)
        assert len(a) == len(b), (case, "slots vs fields: request counts")
        for x, y in zip(a, b):
            for k in x:
                if isinstance(x[k], float) or isinstance(y[k], float):
                    assert close(x[k], y[k]), (case, "slots vs fields", k, x, y)
                else:
                    assert x[k] == y[k], (case, "slots vs fields", k, x, y)
    routes = {a["request"]: a.get("route", "chat") for a in lines[1:]}
    check_pipeline(read_lines(got), routes, case)


def engine_run(lbsim, tmp, lines, name):
    trace = os.path.join(tmp, f"{name}.ndjson")
    write(trace, lines)
    req = os.path.join(tmp, f"{name}.requests.jsonl")
    eng = os.path.join(tmp, f"{name}.engine.jsonl")
    report = run(lbsim, ["-s", "rr,ll", "--proxy-queue", "--engine", "llama-3.1-8b-h100",
                         "--format", "json", "--request-log", req, "--engine-log", eng, trace])
    with open(req, encoding="utf-8") as f:
        req_text = f.read()
    with open(eng, encoding="utf-8") as f:
        eng_text = f.read()
    return report, req_text, eng_text


def check_engine(lbsim, rng, tmp, case):
    lines = make_trace(rng, ms=False)
    report, req_text, eng_text = engine_run(lbsim, tmp, lines, "engine")
    again = engine_run(lbsim, tmp, lines, "engine")
    assert again == (report, req_text, eng_text), (case, "not deterministic")
    requests = [json.loads(l) for l in req_text.splitlines()]
    served = [json.loads(l) for l in eng_text.splitlines()]
    served = [e for e in served if e["type"] == "request"]
    routes = {a["request"]: a.get("route", "chat") for a in lines[1:]}
    check_pipeline(requests, routes, case)
    ids = [a["request"] for a in lines[1:]]
    by_seq = {(e["strategy"], ids[e["request"] - 1]): e for e in served}
    # Every request the engines got ended, served or rejected (too long for
    # the KV cache), and the request log says which.
    ended = [r for r in requests if r["outcome"] in ("done", "rejected")]
    assert len(by_seq) == len(served) == len(ended), (case, "engine log vs request log")
    for r in ended:
        e = by_seq[(r["strategy"], r["request"])]
        assert e["instance"] == r["instance"], (case, r, e)
        assert e["rejected"] == (r["outcome"] == "rejected"), (case, "rejected", r, e)
        assert close(e["arrival"], r["forwarded"]), (case, "engine got it when forwarded", r, e)
        if e["rejected"]:
            assert close(r["end"], r["forwarded"]) and close(r["first_token"], r["end"]), (case, r, e)
            continue
        assert close(e["end"], r["end"]), (case, "end", r, e)
        if routes[r["request"]] == "chat" and e["first_token"] is not None:
            assert close(e["first_token"], r["first_token"]), (case, "first token", r, e)
        else:
            assert close(r["first_token"], r["end"]), (case, "one chunk", r, e)
    # The same trace in milliseconds.
    ms_lines = [dict(lines[0], time_unit="ms")] + [
        dict(a, t=a["t"] * 1000, duration=a["duration"] * 1000, ttft=a["ttft"] * 1000)
        for a in lines[1:]]
    _, ms_text, _ = engine_run(lbsim, tmp, ms_lines, "engine-ms")
    for x, y in zip(requests, (json.loads(l) for l in ms_text.splitlines())):
        for k in ("arrival", "forwarded", "first_token", "end"):
            assert close(x[k], None if y[k] is None else y[k] / 1000), (case, "ms", k, x, y)


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip().splitlines()[-4], file=sys.stderr)
        return 2
    lbsim, cases, seed = argv[1], int(argv[2]), int(argv[3])
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        for case in range(cases):
            try:
                check_slots(lbsim, rng, tmp, f"slots case {case}")
                check_engine(lbsim, rng, tmp, f"engine case {case}")
            except AssertionError as e:
                print(f"FAIL: {e}", file=sys.stderr)
                return 1
    print(f"{cases} slots cases and {cases} engine cases: every law holds")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
