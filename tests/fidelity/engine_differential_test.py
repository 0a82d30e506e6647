#!/usr/bin/env python3
"""Engine differential test: lbsim's LLM engine model (--engine) must agree
with the independent Python model of docs/engine.md (engine_model.py) on
random small cases: every step's batch, preemptions and KV blocks and every
request's timestamps (the engine log), every decision (the decision log),
and the report's engine figures per strategy, per Instance and per window.

The cases are small on purpose (a few KV blocks, small batches and token
budgets, shared prefixes, long requests) so that chunked prefill, prefix
hits, eviction, preemption and rejection all happen; the run fails when one
of them never did. Routing is round_robin or least_load (the latest Proxy),
with or without engine signals, over traces with and without queue hints.

Usage: engine_differential_test.py LBSIM_BINARY [COUNT] [FIRST_SEED]
Standard library only; runs on Python 3.11. Exit status: 0 pass, 1 a
mismatch or a vacuous run, 2 usage error.
"""

import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import engine_model  # noqa: E402


def random_config(rng):
    b = rng.choice([1, 2, 4, 16])
    return {
        "lbsim_engine": 1,
        "name": "random",
        "beta_us": [round(rng.uniform(100, 3000), 3), round(rng.uniform(0, 20), 4),
                    round(rng.uniform(0, 10), 4)],
        "alpha_us": [rng.choice([0, round(rng.uniform(0, 500), 2)]),
                     rng.choice([0, round(rng.uniform(0, 3), 3)]),
                     rng.choice([0, round(rng.uniform(0, 2000), 1)])],
        "kv_blocks": rng.choice([rng.randint(4, 24), rng.randint(24, 200)]),
        "block_tokens": b,
        "max_running": rng.randint(1, 6),
        "max_batched_tokens": rng.randint(1, 96),
    }


def random_case(seed):
    rng = random.Random(seed)
    cfg = random_config(rng)
    b = cfg["block_tokens"]
    unit = rng.choice(["s", "ms"])
    scale = 1e-6 if unit == "s" else 1e-3
    count = rng.randint(1, 4)
    instances = []
    for k in range(count):
        inst = {"id": f"i{k}", "inflight": 0}
        if rng.random() < 0.4:
            inst["speed"] = rng.choice([0.5, 1.5, 2, 3])
        instances.append(inst)
    header = {"lbsim_trace": 1, "time_unit": unit, "instances": instances}
    p = b
    if rng.random() < 0.6:
        p = b * rng.choice([1, 2, 3])
        header["prefix_block_tokens"] = p
    # A few shared prompts: requests share a leading run of ids.
    prompts = [[rng.randint(0, 50) for _ in range(rng.randint(1, 6))] for _ in range(4)]
    step = cfg["beta_us"][0] * scale
    t = 0.0
    events = []
    for _ in range(rng.randint(1, 40)):
        if rng.random() > 0.15:
            t = round(t + rng.uniform(0, 4 * step), 9)
        e = {"t": t, "type": "arrival"}
        e["input_tokens"] = rng.choice([0, rng.randint(1, 20), rng.randint(1, 200)])
        e["output_tokens"] = rng.choice([0, 1, rng.randint(1, 12), rng.randint(1, 40)])
        if rng.random() < 0.7:
            shared = rng.choice(prompts)
            blocks = shared[: rng.randint(0, len(shared))]
            blocks += [rng.randint(100, 10**6) for _ in range(rng.randint(0, 3))]
            e["prefix_blocks"] = blocks
            if rng.random() < 0.5:  # prompts that cover their blocks
                e["input_tokens"] = len(blocks) * p + rng.randint(0, p)
        if rng.random() < 0.2:
            per = {}
            for inst in rng.sample(instances, rng.randint(1, count)):
                per[inst["id"]] = {
                    "active_ready": rng.randint(0, 5),
                    "queue_depth": rng.randint(0, 3),
                    "active_decode_count": rng.choice([1, "2", "x"]),
                }
            e["hint"] = {"queue_depths": {"per_instance": per}}
        events.append(e)
    opts = {"seed": rng.randint(1, 1000)}
    strategy = rng.choice(["rr", "ll", "ll"])
    if strategy == "ll" and rng.random() < 0.7:
        interval = round(rng.uniform(0.5, 6) * step, 9)
        delay = rng.choice([0, round(rng.uniform(0, 2) * step, 9)])
        jitter = rng.choice([0, 0, round(rng.uniform(0, 2) * step, 9)])
        opts["signal"] = (interval, delay, jitter)
    if rng.random() < 0.5:
        opts["window"] = round(rng.uniform(2, 20) * step, 9)
    return cfg, header, events, strategy, opts


def run_lbsim(binary, cfg, header, events, strategy, opts, tmp):
    trace = os.path.join(tmp, "trace.ndjson")
    with open(trace, "w") as f:
        f.write(json.dumps(header) + "\n")
        for e in events:
            f.write(json.dumps(e) + "\n")
    engine = os.path.join(tmp, "engine.json")
    with open(engine, "w") as f:
        json.dump(cfg, f)
    paths = {k: os.path.join(tmp, k) for k in ("report.json", "log.jsonl", "decisions.jsonl")}
    args = [binary, "-q", "-s", strategy, "--engine", engine, "--engine-log", paths["log.jsonl"],
            "--decisions", paths["decisions.jsonl"], "--format", "json", "-o",
            paths["report.json"], "--seed", str(opts["seed"])]
    if "signal" in opts:
        interval, delay, jitter = opts["signal"]
        args += ["--signal-interval", repr(interval)]
        if delay:
            args += ["--signal-delay", repr(delay)]
        if jitter:
            args += ["--signal-jitter", repr(jitter)]
    if "window" in opts:
        args += ["--window", repr(opts["window"])]
    args.append(trace)
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"lbsim failed ({done.returncode}): {done.stderr.strip()}")
    with open(paths["report.json"]) as f:
        report = json.load(f)
    with open(paths["log.jsonl"]) as f:
        log = [json.loads(line) for line in f]
    with open(paths["decisions.jsonl"]) as f:
        decisions = [json.loads(line) for line in f]
    return report, log, decisions


def first_difference(expected, actual, path="$"):
    """Where two JSON values differ (numbers by value), or None."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in expected:
            if key not in actual:
                return f"{path}.{key}: missing in lbsim's"
            d = first_difference(expected[key], actual[key], f"{path}.{key}")
            if d:
                return d
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return f"{path}: {len(expected)} items expected, lbsim has {len(actual)}"
        for k, (a, b) in enumerate(zip(expected, actual)):
            d = first_difference(a, b, f"{path}[{k}]")
            if d:
                return d
        return None
    if isinstance(expected, bool) or isinstance(actual, bool):
        return None if expected is actual else f"{path}: expected {expected!r}, lbsim {actual!r}"
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return None if expected == actual else f"{path}: expected {expected!r}, lbsim {actual!r}"
    return None if expected == actual else f"{path}: expected {expected!r}, lbsim {actual!r}"


def check_case(binary, seed, tmp, tally):
    cfg, header, events, strategy, opts = random_case(seed)
    model_cfg = dict(cfg)
    model_cfg["beta_us"] = [float(x) for x in cfg["beta_us"]]
    model_cfg["alpha_us"] = [float(x) for x in cfg["alpha_us"]]
    run = engine_model.simulate(header, events, model_cfg, strategy, opts)
    report, log, decisions = run_lbsim(binary, cfg, header, events, strategy, opts, tmp)
    problems = []
    d = first_difference(run.log, log, "engine log")
    if d:
        problems.append(d)
    got = [(x["seq"], x["instance"], x["reason"]) for x in decisions]
    if got != run.decisions:
        for a, b in zip(run.decisions, got):
            if a != b:
                problems.append(f"decision: expected {a}, lbsim {b}")
                break
    overall, per = run.figures()
    s = report["strategies"][0]["what_if"]
    d = first_difference(overall, s["engine"], "what_if.engine")
    if d:
        problems.append(d)
    for iid, fig in zip(run.ids, per):
        d = first_difference(fig, s["instances"][iid]["engine"], f"what_if.instances.{iid}.engine")
        if d:
            problems.append(d)
            break
    if "window" in opts:
        windows = run.window_figures()
        got_windows = [w["engine"] for w in s.get("windows", [])]
        expected = [{k: {iid: row[iid][k] for iid in run.ids}
                     for k in ("output_tokens", "batch_mean", "kv_utilisation", "ttft_mean")}
                    for row in windows]
        d = first_difference(expected, got_windows, "what_if.windows[].engine")
        if d:
            problems.append(d)
    c = overall
    tally["preemptions"] += c["preemptions"] > 0
    tally["prefix hits"] += c["tokens"]["prefix_hit"] > 0
    tally["rejections"] += c["rejected"] > 0
    tally["chunked prefill"] += any(e.chunked > 0 for e in run.engines)
    tally["signals"] += "signal" in opts
    tally["evictions"] += any(e.cache.evictions > 0 for e in run.engines)
    return problems


def main(argv):
    if not 2 <= len(argv) <= 4:
        print(__doc__.split("\n\n")[-2], file=sys.stderr)
        return 2
    binary = argv[1]
    count = int(argv[2]) if len(argv) > 2 else 300
    first = int(argv[3]) if len(argv) > 3 else 1
    tally = {k: 0 for k in ("preemptions", "prefix hits", "rejections", "chunked prefill",
                            "signals", "evictions")}
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(first, first + count):
            try:
                problems = check_case(binary, seed, tmp, tally)
            except Exception as e:  # noqa: BLE001 - report and go on
                problems = [f"{type(e).__name__}: {e}"]
            if problems:
                failures += 1
                if failures <= 10:
                    print(f"seed {seed}: " + "; ".join(problems[:3]))
    print(f"engine differential: {count} cases, {failures} failed; cases with " +
          ", ".join(f"{k} {v}" for k, v in tally.items()))
    vacuous = [k for k, v in tally.items() if v == 0]
    if vacuous and count >= 50:
        print("vacuous: no case had " + ", ".join(vacuous))
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
