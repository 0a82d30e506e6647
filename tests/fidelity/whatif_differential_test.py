#!/usr/bin/env python3
"""What-if differential test: lbsim's closed-loop results must equal those
of an independent Python model of the what-if rules of docs/what-if.md on
random valid traces: the decision logs (strategies now see their own
service model's completions, and stale snapshots under --stale-*), every
served request's latency percentiles, queue waits, utilisation, inflight
time-averages and peaks, and per-window shares, fallbacks and mean inflight.

The traces are the v1 fidelity test's random traces (every event type,
equal times, unknown loads, hints) with random `speed` keys added; the
options (slots, speeds, stale interval/delay/jitter, windows) are random
too. Strategy logic comes from tests/bench/python_replay.py.

Usage: whatif_differential_test.py LBSIM_BINARY [COUNT] [FIRST_SEED]
"""

import heapq
import json
import math
import os
import random
import subprocess
import sys
import tempfile
from collections import deque

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bench"))
sys.path.insert(0, os.path.dirname(__file__))
import differential_test  # noqa: E402
import python_replay  # noqa: E402

MASK = (1 << 64) - 1
COMPLETION, METRIC = 0, 1


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def jitter_unit(seed, snapshot, instance):
    h = splitmix64(splitmix64(splitmix64(seed) ^ snapshot) ^ instance)
    return (h >> 11) * 2.0 ** -53


class Levels:
    """A stepping integer level per key: area under it and its peak."""

    def __init__(self, on_stretch=None):
        self.t = {}  # key -> [level, peak, since, area]
        self.on_stretch = on_stretch

    def add(self, key, t, delta):
        track = self.t.setdefault(key, [0, 0, 0.0, 0.0])
        level, _, since, _ = track
        if level != 0:
            track[3] += level * (t - since)
        if self.on_stretch:
            self.on_stretch(key, since, t, level)
        track[2] = t
        track[0] += delta
        track[1] = max(track[1], track[0])

    def close(self, t):
        for key in list(self.t):
            self.add(key, t, 0)


class Windows:
    def __init__(self, width, start):
        self.w = width
        self.first = self.index(start)
        self.wins = {}
        self.at(self.first)

    def index(self, t):
        k = math.floor(t / self.w)
        while (k + 1) * self.w <= t:
            k += 1
        while k * self.w > t:
            k -= 1
        return k

    def at(self, k):
        return self.wins.setdefault(k, {"decisions": 0, "no_instances": 0, "fallback": 0,
                                        "selections": {}, "area": {}})

    def decision(self, t, chosen, fallback):
        w = self.at(self.index(t))
        w["decisions"] += 1
        w["fallback"] += fallback
        if chosen is None:
            w["no_instances"] += 1
        else:
            w["selections"][chosen] = w["selections"].get(chosen, 0) + 1

    def area(self, key, lo_t, hi_t, level):
        if not hi_t > lo_t or level == 0:
            return
        for k in range(self.index(lo_t), self.index(hi_t) + 1):
            lo = max(lo_t, k * self.w)
            hi = min(hi_t, (k + 1) * self.w)
            if hi > lo:
                a = self.at(k)["area"]
                a[key] = a.get(key, 0.0) + level * (hi - lo)

    def extend_to(self, t):
        k = self.index(t)
        if k * self.w == t and k > self.first:
            k -= 1
        self.at(k)


class World:
    def __init__(self, strategy, opts, table, info, speeds):
        self.strategy, self.opts, self.table, self.info = strategy, opts, table, info
        self.speeds = speeds  # id -> service speed; kept after a remove
        self.counters = {}
        self.heap = []
        self.seq = {COMPLETION: 0, METRIC: 0}
        self.log = []
        self.last_time = 0.0
        self.begun = False
        self.windows = None
        self.outstanding = Levels(self.window_area)
        self.end = 0.0
        # service model
        self.busy = Levels()
        self.queues = {}
        self.served = {}  # id -> [latencies, wait_sum, latency_sum]
        # stale view
        self.started = False
        self.snapshots = {}  # number -> [values, pending]
        self.seen = {}       # index -> (snapshot number, value)

    def window_area(self, key, lo, hi, level):
        if self.windows:
            self.windows.area(key, lo, hi, level)

    def push(self, time, cls, payload):
        heapq.heappush(self.heap, (time, cls, self.seq[cls], payload))
        self.seq[cls] += 1

    def begin(self, t):
        if self.opts["any"] and not self.begun:
            self.begun = True
            self.start = self.end = t
            if self.opts["window"]:
                self.windows = Windows(self.opts["window"], t)
        if self.opts["stale"] and not self.started:
            self.started = True
            self.anchor = t
            self.push(t, METRIC, ("snapshot", 1))

    def run_before(self, t):
        self.begin(t)
        while self.heap and self.heap[0][0] <= t:
            time, cls, _, payload = heapq.heappop(self.heap)
            if cls == COMPLETION:
                self.complete(time, *payload)
            else:
                self.metric(time, payload)
        self.last_time = max(self.last_time, t)

    def finish(self):
        while self.heap:
            time, cls, _, payload = heapq.heappop(self.heap)
            if cls == COMPLETION:
                self.complete(time, *payload)
        if self.begun:
            self.end = max(self.end, self.last_time)
            self.outstanding.close(self.end)
            if self.windows:
                self.windows.extend_to(self.end)
        if self.opts["slots"]:
            self.busy.close(self.last_time)

    # --- stale metrics
    def metric(self, time, payload):
        if payload[0] == "snapshot":
            n = payload[1]
            values = [self.counters.get(i) for i in self.table]
            jitter, delay = self.opts["jitter"], self.opts["delay"]
            if jitter > 0:
                for idx in range(len(values)):
                    self.push(time + delay + jitter * jitter_unit(self.opts["seed"], n, idx),
                              METRIC, ("publish", n, idx))
                self.snapshots[n] = [values, len(values)]
            else:
                self.push(time + delay, METRIC, ("publish", n, None))
                self.snapshots[n] = [values, 1]
            self.push(self.anchor + n * self.opts["interval"], METRIC, ("snapshot", n + 1))
            return
        _, n, idx = payload
        values = self.snapshots[n][0]
        for i in (range(len(values)) if idx is None else [idx]):
            if self.seen.get(i, (0, None))[0] < n:
                self.seen[i] = (n, values[i])

    def visible(self, iid):
        if not self.opts["stale"]:
            return self.counters.get(iid)
        return self.seen.get(self.table.index(iid), (0, None))[1]

    # --- service model and completions
    def start_service(self, iid, now, arrival, duration, reg):
        wait = now - arrival
        service = duration / self.speeds[iid]
        self.busy.add(iid, now, +1)
        rec = self.served.setdefault(iid, [[], 0.0, 0.0])
        rec[0].append(wait + service)
        rec[1] += wait
        rec[2] += wait + service
        self.push(now + service, COMPLETION, (iid, reg))

    def complete(self, time, iid, reg):
        self.last_time = time
        if self.begun:
            self.end = time
            self.outstanding.add(iid, time, -1)
        if self.opts["slots"]:
            self.busy.add(iid, time, -1)
            q = self.queues.get(iid)
            if q:
                arrival, duration, wreg = q.popleft()
                self.start_service(iid, time, arrival, duration, wreg)
        if iid in self.info and self.info[iid]["reg"] == reg:
            n = self.counters.get(iid)
            if n is not None and n > 0:
                self.counters[iid] = n - 1

    def decide(self, e, seq, request, alive):
        t = e["t"]
        record = {"strategy": self.strategy.name, "seq": seq, "t": t, "request": request}
        if not alive:
            record.update(instance=None, reason="no_instances", candidates=0)
            self.log.append(record)
            if self.begun:
                self.end = t
                if self.windows:
                    self.windows.decision(t, None, False)
            return
        candidates = [{"id": i, "inflight": self.visible(i), "qps_1m": self.info[i]["qps_1m"]}
                      for i in alive]
        chosen, reason = self.strategy.select(candidates, e.get("hint"))
        cid = chosen["id"]
        record.update(instance=cid, reason=reason, candidates=len(alive))
        self.log.append(record)
        if self.begun:
            self.end = t
            if self.windows:
                self.windows.decision(t, cid, reason == "fallback")
        if "duration" not in e:
            return
        if self.counters.get(cid) is not None:
            self.counters[cid] += 1
        if self.begun:
            self.outstanding.add(cid, t, +1)
        reg = self.info[cid]["reg"]
        if not self.opts["slots"]:
            self.push(t + e["duration"], COMPLETION, (cid, reg))
        elif self.busy.t.get(cid, [0])[0] < self.opts["slots"]:
            self.start_service(cid, t, t, e["duration"], reg)
        else:
            self.queues.setdefault(cid, deque()).append((t, e["duration"], reg))


def nearest_rank(values, p):
    v = sorted(values)
    return v[(p * len(v) + 99) // 100 - 1]


def summary(latencies, wait_sum, latency_sum):
    if not latencies:
        return {"served": 0}
    n = len(latencies)
    return {"served": n, "p50": nearest_rank(latencies, 50), "p90": nearest_rank(latencies, 90),
            "p99": nearest_rank(latencies, 99), "max": max(latencies),
            "mean": latency_sum / n, "mean_queue_wait": wait_sum / n}


def model(header, events, specs, opts):
    """Returns (decision log lines, per-strategy expected figures)."""
    table, info, speeds = [], {}, {}
    order = []
    registrations = [0]
    worlds = [World(python_replay.make_strategy(s), opts, table, info, speeds) for s in specs]
    overrides = dict(opts["speeds"])

    def register(iid, speed):
        registrations[0] += 1
        if iid not in table:
            table.append(iid)
        order.append(iid)
        info[iid] = {"alive": True, "reg": registrations[0], "qps_1m": None}
        speeds[iid] = overrides.get(iid, speed)
        for w in worlds:
            w.counters[iid] = None

    for inst in header.get("instances", []):
        register(inst["id"], inst.get("speed", 1.0))
        info[inst["id"]]["alive"] = inst.get("alive", True)
        info[inst["id"]]["qps_1m"] = inst.get("qps_1m")
        for w in worlds:
            w.counters[inst["id"]] = inst.get("inflight")

    arrivals = 0
    for e in events:
        for w in worlds:
            w.run_before(e["t"])
        kind, iid = e["type"], e.get("instance")
        if kind == "up":
            if iid not in info:
                register(iid, e.get("speed", 1.0))
            elif "speed" in e:
                speeds[iid] = overrides.get(iid, e["speed"])
            info[iid]["alive"] = True
            if "qps_1m" in e:
                info[iid]["qps_1m"] = e["qps_1m"]
            if "inflight" in e:
                for w in worlds:
                    w.counters[iid] = e["inflight"]
        elif kind == "down":
            info[iid]["alive"] = False
        elif kind == "remove":
            order.remove(iid)
            del info[iid]
        elif kind == "load":
            if "qps_1m" in e:
                info[iid]["qps_1m"] = e["qps_1m"]
            if "inflight" in e:
                for w in worlds:
                    w.counters[iid] = e["inflight"]
        elif kind == "arrival":
            arrivals += 1
            alive = [i for i in order if info[i]["alive"]]
            for w in worlds:
                w.decide(e, arrivals, e.get("request", "r%d" % arrivals), alive)
    for w in worlds:
        w.finish()

    lines = [json.dumps(r, separators=(",", ":"), ensure_ascii=False)
             for w in worlds for r in w.log]
    figures = []
    for w in worlds:
        span = w.end - w.start if w.begun else 0.0
        f = {"instances": {}}
        for iid in table:
            tr = w.outstanding.t.get(iid, [0, 0, 0.0, 0.0])
            inst = {"inflight_mean": tr[3] / span if span > 0 else None, "inflight_peak": tr[1]}
            if opts["slots"]:
                rec = w.served.get(iid, [[], 0.0, 0.0])
                inst["service"] = summary(*rec)
                busy = w.busy.t.get(iid, [0, 0, 0.0, 0.0])[3]
                inst["utilisation"] = busy / (opts["slots"] * span) if span > 0 else None
            f["instances"][iid] = inst
        if opts["slots"]:
            recs = [w.served.get(iid, [[], 0.0, 0.0]) for iid in table]
            wait_sum = latency_sum = 0.0
            for r in recs:
                wait_sum += r[1]
                latency_sum += r[2]
            f["service"] = summary([x for r in recs for x in r[0]], wait_sum, latency_sum)
        if w.windows:
            f["windows"] = []
            for k in range(w.windows.first, max(w.windows.wins) + 1):
                win = w.windows.at(k)
                lo, hi = k * w.windows.w, (k + 1) * w.windows.w
                covered = min(hi, w.end) - max(lo, w.start)
                chose = win["decisions"] - win["no_instances"]
                f["windows"].append({
                    "start": lo, "decisions": win["decisions"], "fallback": win["fallback"],
                    "selections": {i: win["selections"].get(i, 0) for i in table},
                    "share": {i: win["selections"].get(i, 0) / chose if chose else 0.0
                              for i in table},
                    "mean_inflight": {i: (win["area"].get(i, 0.0) / covered if covered > 0
                                          else None) for i in table}})
        figures.append(f)
    return lines, figures


def close(a, b):
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def compare(report, figures, opts):
    """Returns the first difference found, or None."""
    for s, f in zip(report["strategies"], figures):
        w = s["what_if"]
        label = s["label"]
        if opts["slots"]:
            got, want = w["service"], f["service"]
            if got["served"] != want["served"]:
                return "%s served %s != %s" % (label, got["served"], want["served"])
            if want["served"]:
                lat = got["latency"]
                for key in ("p50", "p90", "p99", "max"):
                    if lat[key] != want[key]:
                        return "%s latency %s %r != %r" % (label, key, lat[key], want[key])
                if not close(lat["mean"], want["mean"]) or \
                        not close(got["mean_queue_wait"], want["mean_queue_wait"]):
                    return "%s mean latency/wait differ" % label
        for iid, want in f["instances"].items():
            got = w["instances"][iid]
            if got["inflight_peak"] != want["inflight_peak"] or \
                    not close(got["inflight_mean"], want["inflight_mean"]):
                return "%s %s inflight %r != %r" % (label, iid, got, want)
            if opts["slots"]:
                gs, ws = got["service"], want["service"]
                if gs["served"] != ws["served"] or not close(gs["utilisation"], want["utilisation"]):
                    return "%s %s service %r != %r" % (label, iid, gs, ws)
                if ws["served"] and any(gs["latency"][k] != ws[k] for k in ("p50", "p99", "max")):
                    return "%s %s latency %r != %r" % (label, iid, gs, ws)
        if opts["window"]:
            if len(w["windows"]) != len(f["windows"]):
                return "%s: %d windows != %d" % (label, len(w["windows"]), len(f["windows"]))
            for gw, ww in zip(w["windows"], f["windows"]):
                if not close(gw["start"], ww["start"]) or gw["decisions"] != ww["decisions"] or \
                        gw["fallback"] != ww["fallback"] or gw["selections"] != ww["selections"]:
                    return "%s window %r != %r" % (label, gw, ww)
                for iid in ww["mean_inflight"]:
                    if not close(gw["mean_inflight"][iid], ww["mean_inflight"][iid]) or \
                            not close(gw["share"][iid], ww["share"][iid]):
                        return "%s window at %s, %s: %r != %r" % (label, ww["start"], iid, gw, ww)
    return None


def random_options(rng, ids):
    opts = {"slots": 0, "speeds": [], "stale": False, "interval": 0, "delay": 0, "jitter": 0,
            "seed": 1, "window": 0}
    while not (opts["slots"] or opts["stale"] or opts["window"]):
        if rng.random() < 0.7:
            opts["slots"] = rng.choice([1, 1, 2, 3])
            if ids and rng.random() < 0.3:
                opts["speeds"] = [(rng.choice(ids), rng.choice([0.5, 2, 4]))]
        if rng.random() < 0.5:
            opts.update(stale=True, interval=rng.choice([0.5, 1, 2, 3]),
                        delay=rng.choice([0, 0, 0.5, 1, 4]), jitter=rng.choice([0, 0, 0.7, 2.5]),
                        seed=rng.randint(1, 1000))
        if rng.random() < 0.5:
            opts["window"] = rng.choice([0.5, 1, 2.5, 7])
    opts["any"] = True
    return opts


def option_args(opts):
    args = []
    if opts["slots"]:
        args += ["--slots", str(opts["slots"])]
        for iid, speed in opts["speeds"]:
            args += ["--speed", "%s=%s" % (iid, speed)]
    if opts["stale"]:
        args += ["--stale-interval", str(opts["interval"]), "--stale-delay", str(opts["delay"]),
                 "--stale-jitter", str(opts["jitter"]), "--seed", str(opts["seed"])]
    if opts["window"]:
        args += ["--window", str(opts["window"])]
    return args


def add_speeds(rng, header, events):
    for inst in header["instances"]:
        if rng.random() < 0.4:
            inst["speed"] = rng.choice([0.5, 1, 2, 3])
    for e in events:
        if e["type"] == "up" and rng.random() < 0.4:
            e["speed"] = rng.choice([0.5, 2, 3])


def main(argv):
    lbsim = argv[1]
    count = int(argv[2]) if len(argv) > 2 else 300
    first = int(argv[3]) if len(argv) > 3 else 1
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(first, first + count):
            rng = random.Random(seed)
            header, events = differential_test.random_trace(rng)
            add_speeds(rng, header, events)
            ids = sorted({i["id"] for i in header["instances"]} |
                         {e["instance"] for e in events if e["type"] == "up"})
            opts = random_options(rng, ids)
            specs = differential_test.random_specs(rng)
            trace = os.path.join(tmp, "t%d.ndjson" % seed)
            differential_test.write_trace(trace, header, events, False)
            log = os.path.join(tmp, "d%d.jsonl" % seed)
            command = [lbsim, "--proxy", "spec", "-s", ",".join(specs), "--decisions", log, "--format", "json"]
            command += option_args(opts) + [trace]
            run = subprocess.run(command, capture_output=True, text=True)
            if run.returncode != 0:
                print("seed %d: lbsim exit %d: %s" % (seed, run.returncode, run.stderr.strip()))
                failures += 1
                continue
            with open(log, encoding="utf-8") as f:
                got = f.read().splitlines()
            want, figures = model(header, events, specs, opts)
            problem = None
            if got != want:
                for k, (g, w) in enumerate(zip(got + [""] * len(want), want + [""] * len(got))):
                    if g != w:
                        problem = "decision line %d:\n  lbsim:  %s\n  python: %s" % (k + 1, g, w)
                        break
            else:
                problem = compare(json.loads(run.stdout), figures, opts)
            if problem:
                failures += 1
                print("seed %d (%s): %s" % (seed, " ".join(option_args(opts)), problem))
    print("%d passed, %d failed" % (count - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
