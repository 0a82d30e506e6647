#!/usr/bin/env python3
"""A second, independent reading of the spec, for differential testing.

This is a deliberately plain model of trace-format.md (pool order, alive
flags, the lifecycle counter, the (time, class, sequence) event order) and
strategies.md (round_robin, least_load with its shared counter, the score
in component order), written without looking at how lbsim does it. It
replays traces (random ones from a fixed seed, or given files) and checks
that lbsim's decision log says the same thing, decision by decision, and
that the spec's keys of its JSON report agree with the model's counts.

Usage: reference_model.py LBSIM [--random N --seed S] [TRACE...]
Exit status 0 when every log matches, 1 otherwise.
"""
import argparse
import heapq
import json
import os
import random
import subprocess
import sys
import tempfile

QUEUE_KEYS = ["queue_depth", "active_prepare", "active_ready", "prepare_queue_depth",
              "ready_queue_depth", "pending_prefill_count", "active_decode_count",
              "predicted_total_backlog_ms"]
DEFAULT_WEIGHTS = {"inflight": 1.0, "queue_depth": 0.25, "active_prepare": 1.0,
                   "active_ready": 1.0, "prepare_queue_depth": 0.25, "ready_queue_depth": 0.25,
                   "pending_prefill_count": 1.0, "active_decode_count": 0.5,
                   "predicted_total_backlog_ms": 0.001, "qps_1m": 0.01}
# The strategy runs compared: (lbsim spec, model strategy factory).
RUNS = [
    ("rr", lambda: RoundRobin()),
    ("ll", lambda: LeastLoad({})),
    ("ll:qps_1m=0:queue_depth=1:inflight=0.5", lambda: LeastLoad(
        {"qps_1m": 0.0, "queue_depth": 1.0, "inflight": 0.5})),
    ("ll:inflight=0", lambda: LeastLoad({"inflight": 0.0})),
]


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class RoundRobin:
    name = "round_robin"

    def __init__(self):
        self.counter = 0

    def pick(self, candidates, hint, world):
        index = self.counter % len(candidates)
        self.counter += 1
        return index, "round_robin"


class LeastLoad:
    name = "least_load"

    def __init__(self, overrides):
        self.weights = dict(DEFAULT_WEIGHTS, **overrides)
        self.counter = 0

    def score(self, instance, world, hint):
        parts = [("inflight", world.inflight.get(instance))]
        queues = {}
        if isinstance(hint, dict) and isinstance(hint.get("queue_depths"), dict):
            per_instance = hint["queue_depths"].get("per_instance")
            if isinstance(per_instance, dict) and isinstance(per_instance.get(instance), dict):
                queues = per_instance[instance]
        for key in QUEUE_KEYS:
            value = queues.get(key)
            parts.append((key, value if is_number(value) else None))
        parts.append(("qps_1m", world.pool.qps.get(instance)))
        total, known = 0.0, False
        for key, value in parts:
            if value is not None and self.weights[key] != 0.0:
                total += float(value) * self.weights[key]
                known = True
        return total if known else None

    def pick(self, candidates, hint, world):
        scores = [self.score(c, world, hint) for c in candidates]
        known = [(s, i) for i, s in enumerate(scores) if s is not None]
        if known and len(known) < len(scores):
            world.unknown_excluded += 1
        if not known:
            index = self.counter % len(candidates)
            self.counter += 1
            return index, "fallback"
        lowest = min(s for s, _ in known)
        ties = [i for s, i in known if s == lowest]
        index = ties[self.counter % len(ties)]
        self.counter += 1
        return index, "least" if len(ties) == 1 else "tie"


class Pool:
    def __init__(self):
        self.order, self.alive, self.registration, self.qps = [], {}, {}, {}
        self.registrations = 0

    def up(self, instance):
        """Registers at the end (True) or marks a registered one alive (False)."""
        if instance in self.registration:
            self.alive[instance] = True
            return False
        self.registrations += 1
        self.registration[instance] = self.registrations
        self.alive[instance] = True
        self.qps[instance] = None
        self.order.append(instance)
        return True


class World:
    def __init__(self, strategy, pool):
        self.strategy, self.pool = strategy, pool
        self.inflight, self.completions, self.scheduled = {}, [], 0
        self.unknown_excluded = 0

    def complete_due(self, t):
        # Completions are class 0: due ones run before a trace event at t.
        while self.completions and self.completions[0][0] <= t:
            _, _, instance, registration = heapq.heappop(self.completions)
            if (self.pool.registration.get(instance) == registration
                    and self.inflight.get(instance) is not None):
                self.inflight[instance] = max(0, self.inflight[instance] - 1)


def fairness(counts, rates):
    """The report's fairness figures, None where undefined."""
    f = dict.fromkeys(["jain", "jain_eligible", "cv", "max_min_ratio", "max_mean_ratio", "gini"])
    if not counts:
        return f
    jain = lambda x: sum(x) ** 2 / (len(x) * sum(v * v for v in x)) if any(x) else None
    f["jain"], f["jain_eligible"] = jain(counts), jain(rates)
    n, mean = len(counts), sum(counts) / len(counts)
    if mean > 0:
        f["cv"] = (sum((v - mean) ** 2 for v in counts) / n) ** 0.5 / mean
        f["max_mean_ratio"] = max(counts) / mean
        f["gini"] = sum(abs(a - b) for a in counts for b in counts) / (2 * n * n * mean)
    if min(counts) > 0:
        f["max_min_ratio"] = max(counts) / min(counts)
    return f


def model_report(log, worlds, instances):
    """The spec's report keys for each strategy run, from the model's log."""
    reports = []
    for k, w in enumerate(worlds):
        lines = [d for d in log if d["_run"] == k]
        reasons = {r: 0 for r in (["round_robin"] if w.strategy.name == "round_robin"
                                  else ["least", "tie", "fallback"]) + ["no_instances"]}
        selections = dict.fromkeys(instances, 0)
        fallback = dict.fromkeys(instances, 0)
        candidacies = dict.fromkeys(instances, 0)
        for d in lines:
            reasons[d["reason"]] += 1
            for c in d["_candidates"]:
                candidacies[c] += 1
            if d["instance"] is not None:
                selections[d["instance"]] += 1
                if d["reason"] == "fallback":
                    fallback[d["instance"]] += 1
        chose = len(lines) - reasons["no_instances"]
        eligible = [i for i in instances if candidacies[i] > 0]
        reports.append({
            "strategy": w.strategy.name, "decisions": len(lines),
            "no_instances": reasons["no_instances"], "selections": selections,
            "share": {i: (selections[i] / chose if chose else 0.0) for i in instances},
            "reasons": reasons,
            "fallback": {"decisions": reasons.get("fallback", 0), "selections": fallback},
            "unknown_excluded": w.unknown_excluded,
            "fairness": fairness([float(selections[i]) for i in eligible],
                                 [selections[i] / candidacies[i] for i in eligible])})
    return reports


def model_log(header, events, factories):
    """The decision log (in strategy order) and the report of a replay."""
    pool = Pool()
    worlds = [World(make(), pool) for make in factories]
    for inst in header.get("instances", []):
        pool.up(inst["id"])
        pool.qps[inst["id"]] = inst.get("qps_1m")
        pool.alive[inst["id"]] = inst.get("alive", True)
        for w in worlds:
            w.inflight[inst["id"]] = inst.get("inflight")
    logs = [[] for _ in worlds]
    arrivals = 0
    instances = [inst["id"] for inst in header.get("instances", [])]
    for e in events:
        t = e["t"]
        for w in worlds:
            w.complete_due(t)
        kind = e["type"]
        if kind == "arrival":
            arrivals += 1
            request = e.get("request", "r%d" % arrivals)
            candidates = [i for i in pool.order if pool.alive[i]]
            for run, (log, w) in enumerate(zip(logs, worlds)):
                line = {"strategy": w.strategy.name, "seq": arrivals, "t": t,
                        "request": request, "instance": None, "reason": "no_instances",
                        "candidates": len(candidates),
                        "_run": run, "_candidates": candidates}  # "_" keys: not logged
                if candidates:
                    index, line["reason"] = w.strategy.pick(candidates, e.get("hint"), w)
                    chosen = line["instance"] = candidates[index]
                    if "duration" in e:
                        if w.inflight.get(chosen) is not None:
                            w.inflight[chosen] += 1
                        heapq.heappush(w.completions, (t + e["duration"], w.scheduled, chosen,
                                                       pool.registration[chosen]))
                        w.scheduled += 1
                log.append(line)
        elif kind == "up":
            fresh = pool.up(e["instance"])
            if e["instance"] not in instances:
                instances.append(e["instance"])
            if "qps_1m" in e:
                pool.qps[e["instance"]] = e["qps_1m"]
            for w in worlds:
                if "inflight" in e:
                    w.inflight[e["instance"]] = e["inflight"]
                elif fresh:
                    w.inflight[e["instance"]] = None
        elif kind == "down":
            pool.alive[e["instance"]] = False
        elif kind == "remove":
            pool.order.remove(e["instance"])
            del pool.registration[e["instance"]]
            pool.alive[e["instance"]] = False
        elif kind == "load":
            if "qps_1m" in e:
                pool.qps[e["instance"]] = e["qps_1m"]
            if "inflight" in e:
                for w in worlds:
                    w.inflight[e["instance"]] = e["inflight"]
    flat = [line for log in logs for line in log]
    return flat, model_report(flat, worlds, instances)


def random_trace(rng):
    """A valid JSON Lines trace exercising every event type, equal times,
    integer and float times, hints of every shape and value type."""
    ids = ["inst-%d" % k for k in range(rng.randint(1, 5))]
    load = lambda: rng.choice([None, 0, 1, 2, 3, 5])
    qps = lambda: rng.choice([None, None, 0, 10, 50, 100, 33.5])
    instances = []
    for i in ids[: rng.randint(0, len(ids))]:
        inst = {"id": i}
        if rng.random() < 0.7:
            inst["inflight"] = load()
        if rng.random() < 0.4:
            inst["qps_1m"] = qps()
        if rng.random() < 0.15:
            inst["alive"] = False
        instances.append(inst)
    lines = [json.dumps({"lbsim_trace": 1, "instances": instances})]
    registered = {inst["id"] for inst in instances}
    t = 0
    for _ in range(rng.randint(5, 60)):
        if rng.random() < 0.5:
            t += rng.choice([0, 1, 2, 0.5, 0.25])
        e = {"t": t if rng.random() < 0.7 else float(t)}
        r = rng.random()
        if r < 0.5:
            e["type"] = "arrival"
            if rng.random() < 0.6:
                e["duration"] = rng.choice([0, 0.5, 1, 2, 3, 1.5])
            if rng.random() < 0.3:
                e["request"] = "q%d" % rng.randint(0, 99)
            if rng.random() < 0.4:
                per = {i: {k: rng.choice([0, 1, 2, 4, -1, 0.5, "3", True, None, 1000, {}])
                           for k in rng.sample(QUEUE_KEYS, rng.randint(0, 3))}
                       for i in rng.sample(ids, rng.randint(0, len(ids)))}
                e["hint"] = rng.choice([{"queue_depths": {"per_instance": per}}] * 3 +
                                       ["busy", {"queue_depths": per}, [per]])
        elif r < 0.65:
            e.update(type="up", instance=rng.choice(ids))
            if rng.random() < 0.5:
                e["inflight"] = load()
            if rng.random() < 0.3:
                e["qps_1m"] = qps()
            registered.add(e["instance"])
        elif not registered:
            continue
        elif r < 0.85:
            e.update(type="load", instance=rng.choice(sorted(registered)))
            if rng.random() < 0.8:
                e["inflight"] = load()
            if rng.random() < 0.4:
                e["qps_1m"] = qps()
        elif r < 0.95:
            e.update(type="down", instance=rng.choice(sorted(registered)))
        else:
            e.update(type="remove", instance=rng.choice(sorted(registered)))
            registered.discard(e["instance"])
        lines.append(json.dumps(e))
    return "\n".join(lines) + "\n"


def read_trace(path):
    with open(path, encoding="utf-8-sig") as f:
        if path.endswith(".json"):
            doc = json.load(f)
            return doc, doc.pop("events")
        rows = [json.loads(line) for line in f if line.strip()]
        return rows[0], rows[1:]


def check(lbsim, path, scratch):
    """Compares lbsim's decision log for `path` with the model's; returns
    a description of the first difference, or None."""
    header, events = read_trace(path)
    want, want_reports = model_log(header, events, [make for _, make in RUNS])
    log, report = os.path.join(scratch, "decisions.jsonl"), os.path.join(scratch, "report.json")
    run = subprocess.run([lbsim, "-s", ",".join(spec for spec, _ in RUNS), "--decisions", log,
                          "--format", "json", "--output", report, path],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return "lbsim exited with %d: %s" % (run.returncode, run.stderr.strip())
    with open(log, encoding="utf-8") as f:
        got = [json.loads(line) for line in f]
    # Compare t with its JSON type: 2 and 2.0 are different echoes.
    typed = lambda lines: [{k: (type(v).__name__, v) if k == "t" else v
                            for k, v in d.items() if not k.startswith("_")} for d in lines]
    for k, (g, w) in enumerate(zip(typed(got), typed(want))):
        if g != w:
            return "decision log line %d:\n  lbsim: %s\n  model: %s" % (k + 1, g, w)
    if len(got) != len(want):
        return "lbsim logged %d decisions, the model %d" % (len(got), len(want))
    with open(report, encoding="utf-8") as f:
        got_reports = json.load(f)["strategies"]
    for k, (g, w) in enumerate(zip(got_reports, want_reports)):
        for key, value in w.items():
            if not same_value(g.get(key), value):
                return "report, strategy %d, %s:\n  lbsim: %s\n  model: %s" % (
                    k + 1, key, g.get(key), value)
    return None


def same_value(a, b):
    """Equal, with floats compared to 1e-12 relative (the model sums in
    another order)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, float) or isinstance(b, float):
        return (a is not None and b is not None and
                abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b)))
    return a == b and type(a) == type(b)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lbsim")
    parser.add_argument("traces", nargs="*")
    parser.add_argument("--random", type=int, default=0, help="number of random traces")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_intermixed_args()
    failures = 0
    with tempfile.TemporaryDirectory(prefix="lbsim-reference.") as scratch:
        for path in args.traces:
            problem = check(args.lbsim, path, scratch)
            if problem:
                failures += 1
                print("%s: %s" % (path, problem))
        rng = random.Random(args.seed)
        for n in range(args.random):
            path = os.path.join(scratch, "random-%d.ndjson" % n)
            with open(path, "w", encoding="utf-8") as f:
                f.write(random_trace(rng))
            problem = check(args.lbsim, path, scratch)
            if problem:
                failures += 1
                print("random trace %d (seed %d):\n%s\n%s" % (n, args.seed, open(path).read(), problem))
                if failures >= 3:
                    break
    checked = len(args.traces) + args.random
    print("%d traces checked, %d differ from the model" % (checked, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
