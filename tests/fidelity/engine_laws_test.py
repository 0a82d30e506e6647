#!/usr/bin/env python3
"""Engine laws: properties every run of the LLM engine model (docs/engine.md)
must have, checked on traces of every shape lbsim users replay: generated
ones (the three token presets, seconds and milliseconds, several speeds, an
Instance that goes down and comes back, shared prefixes), the imported
public samples, a Mooncake-shaped trace, a preemption-heavy small engine,
engine signals and stale metrics. For every strategy run of every shape:

  conservation  every routed arrival is one request line of the engine log,
                served or rejected, and none is there twice;
  steps         batches within max_running and max_batched_tokens, KV
                blocks within the cache, an Instance's steps never overlap,
                every step's length is the step model's for its tokens;
  prefix        a request never preempted computes exactly its prompt less
                its prefix-hit tokens (a fully cached prefix is never paid);
  alone         a request that runs alone from admission to end has
                TTFT = pre-processing + its prefill steps + alpha[2], and
                E2E = TTFT + its decode steps + alpha[2] for each
                token after the first (BLIS's rule);
  throughput    each Instance's tokens per busy second stay within the step
                model's bound;
  Little        on long runs, mean requests in the system = throughput x
                mean latency, within 2%;
  determinism   the same run twice gives byte-identical reports and logs.

Usage: engine_laws_test.py LBSIM_BINARY SOURCE_DIR
Standard library only; runs on Python 3.11. Exit status: 0 pass, 1 a law
broken, 2 usage error.
"""

import json
import math
import os
import subprocess
import sys
import tempfile

DEFAULT = {
    "beta_us": [5752.705191348184, 17.25086436834028, 5.999143920128404],
    "alpha_us": [232.46191091038054, 1.752360364195244, 3357.4400353290152],
    "kv_blocks": 29205, "block_tokens": 16, "max_running": 256, "max_batched_tokens": 2048,
}
SMALL = {
    "lbsim_engine": 1, "name": "tight",
    "beta_us": [2000, 12.5, 4], "alpha_us": [150, 0.5, 800],
    "kv_blocks": 400, "block_tokens": 16, "max_running": 12, "max_batched_tokens": 512,
}


def sh(args, **kw):
    done = subprocess.run(args, capture_output=True, text=True, **kw)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}")
    return done.stdout


class Shape:
    def __init__(self, name, trace_args, replay_args, config=DEFAULT, long=False):
        self.name = name
        self.trace_args = trace_args  # lbsim gen/import arguments, or a path
        self.replay_args = replay_args
        self.config = config
        self.long = long


def make_shapes(src):
    samples = os.path.join(src, "traces", "import_samples")
    return [
        Shape("chatbot, 4 Instances, rr/ll/kv", ["gen", "--instances", "4", "--rate", "12",
              "--arrivals", "1500", "--tokens", "chatbot", "--prefixes", "30:4",
              "--prefix-block-tokens", "64", "--seed", "3"], ["-s", "rr,ll,kv"], long=True),
        Shape("summarisation in ms, speeds, a flapping Instance",
              ["gen", "--time-unit", "ms", "--instances", "3", "--speeds", "1,2,0.5",
               "--rate", "0.004", "--until", "400000", "--tokens", "summarisation",
               "--flap", "inst-2@100000:150000:20000:350000", "--seed", "5"],
              ["-s", "rr,ll"], long=True),
        Shape("long-context on a tight engine (preemptions)",
              ["gen", "--instances", "2", "--rate", "1.5", "--arrivals", "300", "--tokens",
               "long-context", "--input-tokens", "lognormal:1500:0.6", "--output-tokens",
               "lognormal:300:0.5", "--seed", "7"], ["-s", "rr"], config=SMALL),
        Shape("Mooncake-shaped, kv_aware", os.path.join(src, "scenarios", "engine", "mooncake_shaped.gen.json"),
              ["-s", "kv:cache_blocks=912"], long=True),
        Shape("least_load with engine signals and stale metrics, windows",
              ["gen", "--instances", "4", "--rate", "14", "--arrivals", "1500", "--tokens",
               "chatbot", "--seed", "11"],
              ["-s", "ll", "--signal-interval", "0.5", "--signal-delay", "0.1",
               "--signal-jitter", "0.05", "--stale-interval", "1", "--window", "30"], long=True),
        Shape("isolated requests", ["gen", "--instances", "2", "--rate", "0.2", "--arrivals",
              "60", "--tokens", "chatbot", "--prefixes", "2:3", "--seed", "13"], ["-s", "rr"]),
        Shape("imported Mooncake sample", ["import", "--from", "mooncake", "--instances", "2",
              os.path.join(samples, "mooncake_sample.jsonl")], ["-s", "rr,kv"]),
        Shape("imported Azure sample", ["import", "--from", "azure", "--instances", "3",
              os.path.join(samples, "azure_sample.csv")], ["-s", "ll"]),
        Shape("imported BurstGPT sample (zero-token answers)", ["import", "--from", "burstgpt",
              "--instances", "2", os.path.join(samples, "burstgpt_sample.csv")], ["-s", "rr"]),
    ]


def step_time(cfg, prefill, decode, speed, unit):
    b = cfg["beta_us"]
    return (b[0] + b[1] * prefill + b[2] * decode) / speed * unit


def check_run(shape, cfg, header, events, report, log, decisions, problems):
    unit = 1e-3 if header.get("time_unit", "s") == "ms" else 1e-6
    speeds = {}
    for inst in header.get("instances", []):
        speeds[inst["id"]] = [inst.get("speed", 1)]
    for e in events:
        if e.get("type") == "up" and "speed" in e:
            speeds.setdefault(e["instance"], []).append(e["speed"])
    arrivals = {e_seq: e for e_seq, e in enumerate((e for e in events if e["type"] == "arrival"), 1)}
    for s in report["strategies"]:
        name, label = s["strategy"], s["label"]
        where = f"{shape.name} / {label}"
        steps = [x for x in log if x["strategy"] == name and x["type"] == "step"]
        reqs = [x for x in log if x["strategy"] == name and x["type"] == "request"]
        routed = [d for d in decisions if d["strategy"] == name and d["instance"] is not None]
        # conservation
        seen = {}
        for r in reqs:
            seen[r["request"]] = seen.get(r["request"], 0) + 1
        twice = [k for k, n in seen.items() if n > 1]
        if twice:
            problems.append(f"{where}: requests logged twice: {twice[:5]}")
        routed_seqs = {d["seq"]: d["instance"] for d in routed}
        if set(seen) != set(routed_seqs):
            problems.append(f"{where}: {len(set(routed_seqs) - set(seen))} routed requests lost, "
                            f"{len(set(seen) - set(routed_seqs))} unknown ones logged")
        for r in reqs:
            if routed_seqs.get(r["request"]) != r["instance"]:
                problems.append(f"{where}: request {r['request']} served on {r['instance']}, "
                                f"routed to {routed_seqs.get(r['request'])}")
                break
        e = s["what_if"]["engine"]
        if e["served"] + e["rejected"] != len(routed):
            problems.append(f"{where}: served {e['served']} + rejected {e['rejected']} != routed {len(routed)}")
        # steps
        last_end = {}
        batches = {}  # request -> list of (step, tokens)
        for st in steps:
            tokens = sum(n for _, n in st["batch"])
            if len(st["batch"]) > cfg["max_running"] or tokens > cfg["max_batched_tokens"]:
                problems.append(f"{where}: step {st['instance']}#{st['step']} over the limits")
            if tokens != st["prefill_tokens"] + st["decode_tokens"]:
                problems.append(f"{where}: step {st['instance']}#{st['step']} tokens do not add up")
            if st["kv_blocks"] > cfg["kv_blocks"]:
                problems.append(f"{where}: step {st['instance']}#{st['step']} holds {st['kv_blocks']} blocks")
            if st["start"] < last_end.get(st["instance"], -1.0):
                problems.append(f"{where}: steps of {st['instance']} overlap at {st['start']}")
            last_end[st["instance"]] = st["end"]
            expected = [st["start"] + step_time(cfg, st["prefill_tokens"], st["decode_tokens"], v, unit)
                        for v in speeds.get(st["instance"], [1])]
            if not any(math.isclose(st["end"], x, rel_tol=1e-12, abs_tol=1e-15) for x in expected):
                problems.append(f"{where}: step {st['instance']}#{st['step']} lasts "
                                f"{st['end'] - st['start']}, not the step model's")
            for seq, n in st["batch"]:
                batches.setdefault(seq, []).append((st, n))
        # prefix, alone
        a = cfg["alpha_us"]
        alone = 0
        for r in reqs:
            if r["rejected"]:
                continue
            if r["preemptions"] == 0 and r["prefill_tokens"] != r["input_tokens"] - r["prefix_hit_tokens"]:
                problems.append(f"{where}: request {r['request']} computed {r['prefill_tokens']} prompt "
                                f"tokens, not {r['input_tokens']} - {r['prefix_hit_tokens']} cached")
                break
            mine = batches.get(r["request"], [])
            if mine and all(len(st["batch"]) == 1 for st, _ in mine) and r["preemptions"] == 0:
                v = speeds.get(r["instance"], [1])[0]
                if len(speeds.get(r["instance"], [1])) > 1:
                    continue
                pre = (a[0] + a[1] * r["input_tokens"]) / v * unit
                post = a[2] / v * unit
                chunk = cfg["max_batched_tokens"]
                owed = r["input_tokens"] - r["prefix_hit_tokens"]
                prefill_steps = math.ceil(owed / chunk)
                prefill = sum(step_time(cfg, min(chunk, owed - k * chunk), 0, v, unit)
                              for k in range(prefill_steps))
                decode = max(r["output_tokens"] - 1, 0) * step_time(cfg, 0, 1, v, unit)
                start = r["enqueued"]
                if not math.isclose(r["scheduled"], start, rel_tol=1e-12, abs_tol=1e-12):
                    continue  # it waited for another request's step to end
                alone += 1
                if not math.isclose(r["enqueued"] - r["arrival"], pre, rel_tol=1e-9, abs_tol=1e-12):
                    problems.append(f"{where}: request {r['request']} pre-processing is not alpha's")
                if r["output_tokens"] >= 1 and not math.isclose(
                        r["first_token"] - r["arrival"], pre + prefill + post, rel_tol=1e-9):
                    problems.append(f"{where}: request {r['request']} alone: TTFT "
                                    f"{r['first_token'] - r['arrival']} != {pre + prefill + post}")
                    break
                e2e = pre + prefill + decode + max(r["output_tokens"], 1) * post
                if not math.isclose(r["end"] - r["arrival"], e2e, rel_tol=1e-9):
                    problems.append(f"{where}: request {r['request']} alone: E2E "
                                    f"{r['end'] - r['arrival']} != {e2e}")
                    break
        if shape.name == "isolated requests" and alone < 40:
            problems.append(f"{where}: only {alone} requests ran alone; the law was barely checked")
        # throughput bound per Instance
        b = cfg["beta_us"]
        t = cfg["max_batched_tokens"]
        for iid, inst in s["what_if"]["instances"].items():
            ie = inst["engine"]
            if ie["busy"] <= 0:
                continue
            v = max(speeds.get(iid, [1]))
            bound = t * v / ((b[0] + min(b[1], b[2]) * t) * unit)
            rate = (ie["tokens"]["prefill_computed"] + ie["tokens"]["decode"]) / ie["busy"]
            if rate > bound * (1 + 1e-9):
                problems.append(f"{where}: {iid} computed {rate:.0f} tokens per busy time unit, "
                                f"over the bound {bound:.0f}")
            out_bound = min(cfg["max_running"], t) * v / ((b[0] + min(b[1], b[2]) * min(cfg["max_running"], t)) * unit)
            if ie["tokens"]["output"] / ie["busy"] > out_bound * (1 + 1e-9):
                problems.append(f"{where}: {iid} made output tokens over the bound")
        # Little's law
        if shape.long:
            span = s["what_if"]["span"]["end"] - s["what_if"]["span"]["start"]
            in_system = sum(inst["inflight_mean"] or 0 for inst in s["what_if"]["instances"].values())
            throughput = e["served"] / span
            w = e["e2e"]["mean"]
            if not math.isclose(in_system, throughput * w, rel_tol=0.02):
                problems.append(f"{where}: Little's law: L = {in_system:.4f}, lambda W = "
                                f"{throughput * w:.4f}")
            if e["served"] < 1000:
                problems.append(f"{where}: only {e['served']} served: not a long run")


def run_shape(binary, src, shape, tmp, problems):
    trace = os.path.join(tmp, "trace.ndjson")
    if isinstance(shape.trace_args, str):
        sh([binary, "gen", shape.trace_args, "-o", trace])
    elif shape.trace_args[0] == "import":
        sh([binary] + shape.trace_args + ["-o", trace])
    else:
        sh([binary] + shape.trace_args + ["-o", trace])
    with open(trace) as f:
        lines = [json.loads(line) for line in f]
    header, events = lines[0], lines[1:]
    cfg = dict(shape.config)
    engine_arg = "llama-3.1-8b-h100"
    if shape.config is not DEFAULT:
        engine_arg = os.path.join(tmp, "engine.json")
        with open(engine_arg, "w") as f:
            json.dump(shape.config, f)
    outputs = []
    for attempt in range(2):
        out = os.path.join(tmp, f"run{attempt}")
        os.makedirs(out, exist_ok=True)
        sh([binary, "-q"] + shape.replay_args +
           ["--engine", engine_arg, "--format", "json", "-o", os.path.join(out, "report.json"),
            "--engine-log", os.path.join(out, "log.jsonl"),
            "--decisions", os.path.join(out, "decisions.jsonl"), trace])
        outputs.append([open(os.path.join(out, n), "rb").read()
                        for n in ("report.json", "log.jsonl", "decisions.jsonl")])
    if outputs[0] != outputs[1]:
        problems.append(f"{shape.name}: two runs differ")
    report = json.loads(outputs[0][0])
    log = [json.loads(line) for line in outputs[0][1].splitlines()]
    decisions = [json.loads(line) for line in outputs[0][2].splitlines()]
    check_run(shape, cfg, header, events, report, log, decisions, problems)
    served = sum(s["what_if"]["engine"]["served"] for s in report["strategies"])
    preempted = sum(s["what_if"]["engine"]["preemptions"] for s in report["strategies"])
    hits = sum(s["what_if"]["engine"]["tokens"]["prefix_hit"] for s in report["strategies"])
    return served, preempted, hits


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[-2], file=sys.stderr)
        return 2
    binary, src = argv[1], argv[2]
    problems = []
    totals = [0, 0, 0]
    with tempfile.TemporaryDirectory() as tmp:
        for shape in make_shapes(src):
            before = len(problems)
            try:
                figures = run_shape(binary, src, shape, tmp, problems)
            except Exception as e:  # noqa: BLE001 - report and go on
                problems.append(f"{shape.name}: {type(e).__name__}: {e}")
                figures = (0, 0, 0)
            totals = [a + b for a, b in zip(totals, figures)]
            print(f"{'ok  ' if len(problems) == before else 'FAIL'} {shape.name}: "
                  f"{figures[0]} served, {figures[1]} preemptions, {figures[2]} prefix-hit tokens")
    if totals[1] == 0 or totals[2] == 0:
        problems.append("vacuous: no shape had preemptions or prefix hits")
    for p in problems[:20]:
        print(p)
    print(f"engine laws: {len(make_shapes(src))} shapes, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
