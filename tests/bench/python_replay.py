#!/usr/bin/env python3
"""A plain Python replay of lbsim's trace format v1 and strategy contract.

Written the obvious way a team would write it (the json module and the
spec's strategy logic), it serves two purposes: the peer that lbsim's replay
speed is compared against (tests/bench), and an independent oracle whose
decision logs must equal lbsim's (tests/fidelity). It trusts its input: it
does not validate traces.

Usage: python_replay.py [-s STRATEGY]... TRACE > decisions.jsonl
"""

import heapq
import json
import sys

QUEUE_KEYS = ["queue_depth", "active_prepare", "active_ready",
              "prepare_queue_depth", "ready_queue_depth",
              "pending_prefill_count", "active_decode_count",
              "predicted_total_backlog_ms"]

DEFAULT_WEIGHTS = {"inflight": 1.0, "queue_depth": 0.25, "active_prepare": 1.0,
                   "active_ready": 1.0, "prepare_queue_depth": 0.25,
                   "ready_queue_depth": 0.25, "pending_prefill_count": 1.0,
                   "active_decode_count": 0.5,
                   "predicted_total_backlog_ms": 0.001, "qps_1m": 0.01}

ALIASES = {"round_robin": "round_robin", "rr": "round_robin",
           "round-robin": "round_robin", "least_load": "least_load",
           "ll": "least_load", "least-load": "least_load"}


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class RoundRobin:
    name = "round_robin"

    def __init__(self):
        self.counter = 0

    def select(self, instances, hint=None):
        chosen = instances[self.counter % len(instances)]
        self.counter += 1
        return chosen, "round_robin"


class LeastLoad:
    name = "least_load"

    def __init__(self, weights):
        self.weights = weights
        self.rr = RoundRobin()  # shared by tie breaking and the fallback

    def score(self, inst, hint):
        total, known = 0.0, False
        w = self.weights
        if inst["inflight"] is not None and w["inflight"] != 0:
            total += inst["inflight"] * w["inflight"]
            known = True
        queues = None
        if isinstance(hint, dict):
            qd = hint.get("queue_depths")
            if isinstance(qd, dict):
                per = qd.get("per_instance")
                if isinstance(per, dict):
                    queues = per.get(inst["id"])
        if isinstance(queues, dict):
            for key in QUEUE_KEYS:
                v = queues.get(key)
                if is_number(v) and w[key] != 0:
                    total += v * w[key]
                    known = True
        if inst["qps_1m"] is not None and w["qps_1m"] != 0:
            total += inst["qps_1m"] * w["qps_1m"]
            known = True
        return total if known else None

    def select(self, instances, hint=None):
        known = []
        for inst in instances:
            s = self.score(inst, hint)
            if s is not None:
                known.append((s, inst))
        if not known:
            chosen, _ = self.rr.select(instances)
            return chosen, "fallback"
        lowest = min(s for s, _ in known)
        ties = [inst for s, inst in known if s == lowest]
        chosen, _ = self.rr.select(ties)
        return chosen, "least" if len(ties) == 1 else "tie"


def read_events(path):
    """Yields the header, then each event, in file order."""
    if path.endswith(".json"):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        yield doc
        for e in doc.get("events", []):
            yield e
        return
    f = sys.stdin if path == "-" else open(path, encoding="utf-8")
    for line in f:
        if line.strip():
            yield json.loads(line)


def make_strategy(spec):
    name, *params = spec.split(":")
    canonical = ALIASES[name.strip().lower()]
    if canonical == "round_robin":
        return RoundRobin()
    weights = dict(DEFAULT_WEIGHTS)
    for p in params:
        key, value = p.split("=", 1)
        weights[key] = float(value)
    return LeastLoad(weights)


def replay(path, specs):
    """Returns each strategy's decision log lines, strategies in order."""
    strategies = [make_strategy(s) for s in specs]
    logs = [[] for _ in strategies]
    events = read_events(path)
    header = next(events)
    order = []        # registered ids in pool order
    info = {}         # id -> shared registration state
    inflight = [dict() for _ in strategies]  # per strategy: id -> int|None
    pending = [[] for _ in strategies]       # per strategy: completion heaps
    registrations = 0
    seq_counter = [0 for _ in strategies]

    def register(iid):
        nonlocal registrations
        registrations += 1
        order.append(iid)
        info[iid] = {"alive": True, "reg": registrations, "qps_1m": None}
        for inf in inflight:
            inf[iid] = None

    for inst in header.get("instances", []):
        register(inst["id"])
        info[inst["id"]]["alive"] = inst.get("alive", True)
        info[inst["id"]]["qps_1m"] = inst.get("qps_1m")
        for inf in inflight:
            inf[inst["id"]] = inst.get("inflight")

    arrivals = 0
    for e in events:
        t = e["t"]
        for k in range(len(strategies)):
            heap = pending[k]
            while heap and heap[0][0] <= t:
                _, _, iid, reg = heapq.heappop(heap)
                if iid in info and info[iid]["reg"] == reg:
                    n = inflight[k][iid]
                    if n is not None:
                        inflight[k][iid] = max(0, n - 1)
        kind = e["type"]
        iid = e.get("instance")
        if kind == "up":
            if iid not in info:
                register(iid)
            info[iid]["alive"] = True
            if "qps_1m" in e:
                info[iid]["qps_1m"] = e["qps_1m"]
            if "inflight" in e:
                for inf in inflight:
                    inf[iid] = e["inflight"]
        elif kind == "down":
            info[iid]["alive"] = False
        elif kind == "remove":
            order.remove(iid)
            del info[iid]
        elif kind == "load":
            if "qps_1m" in e:
                info[iid]["qps_1m"] = e["qps_1m"]
            if "inflight" in e:
                for inf in inflight:
                    inf[iid] = e["inflight"]
        elif kind == "arrival":
            arrivals += 1
            request = e.get("request", "r%d" % arrivals)
            alive = [i for i in order if info[i]["alive"]]
            for k, strategy in enumerate(strategies):
                record = {"strategy": strategy.name, "seq": arrivals, "t": t,
                          "request": request}
                if not alive:
                    record.update(instance=None, reason="no_instances", candidates=0)
                else:
                    candidates = [{"id": i, "inflight": inflight[k][i],
                                   "qps_1m": info[i]["qps_1m"]} for i in alive]
                    chosen, reason = strategy.select(candidates, e.get("hint"))
                    cid = chosen["id"]
                    record.update(instance=cid, reason=reason, candidates=len(alive))
                    if "duration" in e:
                        if inflight[k][cid] is not None:
                            inflight[k][cid] += 1
                        seq_counter[k] += 1
                        heapq.heappush(pending[k], (t + e["duration"], seq_counter[k],
                                                    cid, info[cid]["reg"]))
                logs[k].append(json.dumps(record, separators=(",", ":"),
                                          ensure_ascii=False))
    return logs


def main(argv):
    specs, path, i = [], None, 1
    while i < len(argv):
        if argv[i] in ("-s", "--strategy"):
            specs.extend(argv[i + 1].split(","))
            i += 2
        else:
            path = argv[i]
            i += 1
    if path is None:
        sys.exit(__doc__)
    out = sys.stdout
    for log in replay(path, specs or ["round_robin"]):
        for line in log:
            out.write(line)
            out.write("\n")


if __name__ == "__main__":
    main(sys.argv)
