#!/usr/bin/env python3
"""Differential test: lbsim's pinned-Proxy profiles against an independent oracle.

Usage:
    proxy_profiles_test.py LBSIM_BINARY [COUNT_PER_PROFILE=300] [FIRST_SEED=1]
    proxy_profiles_test.py --self-test

The oracle below is written only from the specification pages
  proxy-versions.md   (wins for every pinned version)
  trace-format.md     (encodings, event order, decision log)
  strategies.md       (context only; the `spec` profile is not tested here)
It never looks at lbsim's C++ code, at other replays in tests/, or at the Proxy's code.
Comments quote the rule each piece implements as  [PV: section]  (proxy-versions.md)
or  [TF: section]  (trace-format.md).

For each seed a random, valid, small trace is generated (JSON document or JSON Lines),
replayed by the oracle for every profile (L2/L3 profiles under both --python 3.11 and
3.12, L1 profiles under the default interpreter) with `-s rr,ll`, and replayed by lbsim
the same way; the decision logs must agree line by line.  The run also checks that it
was not vacuous: every L2/L3 profile must have produced refused decisions and at least
one trace whose 3.11 and 3.12 decisions differ (a "summation split").

Standard library only; runs on Python 3.11.  Exit status: 0 pass, 1 mismatch or failed
check, 2 usage error.
"""

import concurrent.futures
import heapq
import json
import math
import os
import random
import subprocess
import sys
import tempfile

# ---------------------------------------------------------------------------
# Profiles  [PV: Versions]
# ---------------------------------------------------------------------------


class Profile:
    """What one pinned Proxy version does, reduced to the switches that matter."""

    def __init__(self, name, least_load, counting, heartbeat_inflight, zero_on_register):
        self.name = name
        self.least_load = least_load  # "L1", "L2" or "L3"
        # [PV: The pool] "Request counting (2f1019a on)"; df8382d counts nothing.
        self.counting = counting
        # [PV: The pool] df8382d applies a heartbeat's inflight; from 2f1019a on it is ignored.
        self.heartbeat_inflight = heartbeat_inflight
        # [PV: The pool] from 55b32e9 on a new Instance starts at inflight 0, and a
        # re-registration sets an unknown inflight to 0.
        self.zero_on_register = zero_on_register


PROFILES = {
    p.name: p
    for p in (
        Profile("cacheroute@df8382d", "L1", False, True, False),
        Profile("cacheroute@2f1019a", "L1", True, False, False),
        Profile("cacheroute@55b32e9", "L1", True, False, True),
        Profile("cacheroute@8b116b6", "L2", True, False, True),
        Profile("cacheroute@d4bd47f", "L3", True, False, True),
        Profile("cacheroute@28e857c", "L3", True, False, True),
    )
}
ALIASES = {"latest": "cacheroute@28e857c"}  # [PV: Versions] `latest` names the newest row.


def resolve_profile(name):
    return PROFILES[ALIASES.get(name, name)]


# ---------------------------------------------------------------------------
# Hint values and summation  [PV: Hint values], [PV: Summation]
# ---------------------------------------------------------------------------

# [PV: least_load L2 / L3] terms after inflight, in this order, with their weights.
L2_KEYS = (
    ("active_prepare", 1.0),
    ("active_ready", 1.0),
    ("prepare_queue_depth", 0.25),
    ("ready_queue_depth", 0.25),
)
L3_KEYS = L2_KEYS + (
    ("pending_prefill_count", 1.0),
    ("active_decode_count", 0.5),
    ("predicted_total_backlog_ms", 0.001),
)
INFLIGHT_WEIGHT = 1.0
QPS_WEIGHT = 0.0  # [PV] "qps_1m 0.0": a weight-0 term is skipped, so qps_1m never counts.


def read_hint_value(value):
    """The Proxy's reading of one queue value: Python's float().  [PV: Hint values]

    Returns a float, or None when the value is unknown (float() rejects it, or None).
    An OverflowError (a JSON integer beyond the double range) is NOT caught: the
    Proxy's select() raises and the request is refused.  The value comes from
    json.loads, exactly as in the Proxy, so 1e400 arrives here as inf already.
    """
    if value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def sum_plain(terms):
    """Python 3.11: plain left-to-right double additions from the first term. [PV: Summation]"""
    s = terms[0]
    for x in terms[1:]:
        s = s + x
    return s


def sum_neumaier(terms):
    """Python 3.12: first term exactly, then Neumaier over the rest.  [PV: Summation]

    >>> sum_neumaier([0.0, 0.1, 0.2, 0.3]), sum_plain([0.0, 0.1, 0.2, 0.3])
    (0.6, 0.6000000000000001)
    >>> sum_neumaier([0.0, 1e16, 1.0, -1e16]), sum_plain([0.0, 1e16, 1.0, -1e16])
    (1.0, 0.0)
    """
    s = terms[0]
    c = 0.0
    for x in terms[1:]:
        t = s + x
        if abs(s) >= abs(x):
            c += (s - t) + x
        else:
            c += (x - t) + s
        s = t
    if c != 0 and math.isfinite(c):
        return s + c
    return s


SUMMATION = {"3.11": sum_plain, "3.12": sum_neumaier}
DEFAULT_PYTHON = "3.12"  # [PV: The profiles in lbsim] "--python 3.11|3.12 (default 3.12)"


# ---------------------------------------------------------------------------
# Strategies  [PV: round_robin], [PV: least_load L1], [PV: least_load L2 / L3]
# ---------------------------------------------------------------------------


class Refused(Exception):
    """select() raised: the Proxy answers 503.  [PV: The pool, Refusals]"""


class RoundRobin:
    """One counter starting at 0; empty list raises with the counter unchanged;
    else pick list[counter mod len] and add one.  [PV: round_robin]"""

    def __init__(self):
        self.counter = 0

    def pick(self, items):
        if not items:
            raise Refused("no instances")
        chosen = items[self.counter % len(items)]
        self.counter += 1
        return chosen


class RoundRobinStrategy:
    name = "round_robin"

    def __init__(self, profile, python):
        self.rr = RoundRobin()

    def select(self, candidates, pool, hint):
        return self.rr.pick(candidates), "round_robin"


class LeastLoadL1:
    """Lexicographic least_load of df8382d, 2f1019a, 55b32e9.  [PV: least_load L1]

    Reasons (brief): `fallback` when no candidate has a known inflight and none has a
    known qps_1m; otherwise `least`/`tie` by the size of the set round_robin picked from.
    """

    name = "least_load"

    def __init__(self, profile, python):
        self.rr = RoundRobin()  # one shared round_robin for every tie and fallback

    def select(self, candidates, pool, hint):
        # 1. K = candidates with a known inflight; T = the lowest-inflight ties of K,
        #    or every candidate when K is empty.
        known = [c for c in candidates if pool[c].inflight is not None]
        if known:
            low = min(pool[c].inflight for c in known)
            ties = [c for c in known if pool[c].inflight == low]
        else:
            ties = list(candidates)
        # 2. Q = members of T with a known qps_1m.  Empty: round_robin over T.
        #    Else round_robin over the members of Q with exactly the lowest qps_1m.
        with_qps = [c for c in ties if pool[c].qps is not None]
        if with_qps:
            low_qps = min(pool[c].qps for c in with_qps)
            final = [c for c in with_qps if pool[c].qps == low_qps]
        else:
            final = ties
        if not known and not with_qps:
            return self.rr.pick(final), "fallback"
        return self.rr.pick(final), ("least" if len(final) == 1 else "tie")


class LeastLoadWeighted:
    """Weighted least_load: L2 (8b116b6) and L3 (d4bd47f, 28e857c).  [PV: least_load L2 / L3]"""

    name = "least_load"

    def __init__(self, profile, python):
        self.rr = RoundRobin()  # one shared counter for ties and fallback
        self.keys = L2_KEYS if profile.least_load == "L2" else L3_KEYS
        self.summation = SUMMATION[python]

    def queue_entry(self, hint, instance_id):
        """hint.queue_depths.per_instance[id] when every level is an object, else None:
        a hint of any other shape carries no queue information.  [TF: The hint]"""
        if not isinstance(hint, dict):
            return None
        depths = hint.get("queue_depths")
        if not isinstance(depths, dict):
            return None
        per_instance = depths.get("per_instance")
        if not isinstance(per_instance, dict):
            return None
        entry = per_instance.get(instance_id)
        return entry if isinstance(entry, dict) else None

    def score(self, inst, entry):
        """The terms in order, each float(value) * float(weight); a term is skipped when its
        value is unknown or its weight is 0; no term left -> no score (None).
        May raise OverflowError (uncaught by the Proxy -> refused)."""
        terms = []
        if inst.inflight is not None:
            terms.append(float(inst.inflight) * float(INFLIGHT_WEIGHT))
        if entry is not None:
            for key, weight in self.keys:
                if key in entry:
                    value = read_hint_value(entry[key])  # may raise OverflowError
                    if value is not None:
                        terms.append(value * float(weight))
        if inst.qps is not None and QPS_WEIGHT != 0:
            terms.append(float(inst.qps) * float(QPS_WEIGHT))  # never: weight 0.0
        if not terms:
            return None
        return self.summation(terms)

    def select(self, candidates, pool, hint):
        try:
            scored = []
            for c in candidates:
                total = self.score(pool[c], self.queue_entry(hint, c))
                if total is not None:
                    scored.append((c, total))
        except OverflowError:
            raise Refused("float() overflow in a hint value")
        # No known score: round_robin over all candidates.
        if not scored:
            return self.rr.pick(candidates), "fallback"
        # Python's min(): the first known total, replaced by each later one strictly < it.
        minimum = scored[0][1]
        for _, total in scored[1:]:
            if total < minimum:
                minimum = total
        # Ties: known totals == m, in pool order.  NaN first: no tie -> rr raises -> refused.
        ties = [c for c, total in scored if total == minimum]
        chosen = self.rr.pick(ties)  # raises Refused on [], counter unchanged
        return chosen, ("least" if len(ties) == 1 else "tie")


def make_strategy(short, profile, python):
    if short == "rr":
        return RoundRobinStrategy(profile, python)
    if profile.least_load == "L1":
        return LeastLoadL1(profile, python)
    return LeastLoadWeighted(profile, python)


STRATEGY_ORDER = ("rr", "ll")  # -s rr,ll: the log lists strategies in this order
CANONICAL = {"rr": "round_robin", "ll": "least_load"}


# ---------------------------------------------------------------------------
# Pool and replay  [PV: The pool], [TF: Time, order and the lifecycle counter]
# ---------------------------------------------------------------------------


class Instance:
    def __init__(self, inflight, qps, alive):
        self.inflight = inflight  # int or None (unknown)
        self.qps = qps  # number or None (unknown)
        self.alive = alive


def parse_trace(text, ext):
    """Returns (header, events).  Parsed with json.loads, as the Proxy reads JSON.
    [TF: Two encodings, one content]"""
    if ext == ".json":
        doc = json.loads(text)
        events = doc.pop("events")
        return doc, events
    lines = text.split("\n")
    header = json.loads(lines[0])  # line 1 is the header
    events = [json.loads(line) for line in lines[1:] if line.strip()]  # non-blank lines
    return header, events


def replay(header, events, profile, python, short):
    """One strategy's replay of the trace under one profile; returns its decision dicts.
    Each strategy has its own pool (its own routing drives its own request counter)."""
    strategy = make_strategy(short, profile, python)
    pool = {}  # id -> Instance; dict insertion order is pool order

    # [PV: The pool] header instances give the state at the trace's start, as reported.
    for h in header.get("instances", []):
        pool[h["id"]] = Instance(h.get("inflight"), h.get("qps_1m"), h.get("alive", True))

    def heartbeat(inst, ev):
        # [PV: The pool] load events are heartbeats: df8382d applies inflight and qps_1m
        # when present and not null; from 2f1019a on only qps_1m.  A null leaves the value
        # as it was.  A heartbeat refreshes liveness: a down Instance comes back up.
        if profile.heartbeat_inflight and ev.get("inflight") is not None:
            inst.inflight = ev["inflight"]
        if ev.get("qps_1m") is not None:
            inst.qps = ev["qps_1m"]
        inst.alive = True

    def complete(instance_id):
        # [PV: Request counting] at t + duration: max(0, (inflight or 0) - 1) on whatever
        # Instance has that id then, if it is in the pool (down counts; removed does not).
        inst = pool.get(instance_id)
        if inst is not None:
            inst.inflight = max(0, (inst.inflight or 0) - 1)

    decisions = []
    completions = []  # heap of (time, scheduling sequence, instance id)
    scheduled = 0
    seq = 0
    for ev in events:
        t = ev["t"]
        # [TF: Time] completions are class 0, trace events class 1: at equal time every
        # due completion runs first, in scheduling order.
        while completions and completions[0][0] <= t:
            complete(heapq.heappop(completions)[2])

        kind = ev["type"]
        if kind == "up":
            iid = ev["instance"]
            inst = pool.get(iid)
            if inst is None:
                # [PV: The pool] registration appended at the end of pool order: inflight
                # unknown up to 2f1019a, 0 from 55b32e9 on; qps_1m unknown.
                pool[iid] = inst = Instance(0 if profile.zero_on_register else None, None, True)
            else:
                # Re-registration keeps its place; from 55b32e9 on unknown inflight -> 0.
                inst.alive = True
                if profile.zero_on_register and inst.inflight is None:
                    inst.inflight = 0
            # `up` with load fields = registration followed at once by a heartbeat.
            heartbeat(inst, ev)
        elif kind == "down":
            pool[ev["instance"]].alive = False  # keeps place and load
        elif kind == "remove":
            del pool[ev["instance"]]  # a later up appends it at the end
        elif kind == "load":
            heartbeat(pool[ev["instance"]], ev)
        elif kind == "arrival":
            seq += 1
            request = ev.get("request", "r%d" % seq)  # [TF: Events] default id r<N>
            candidates = [iid for iid, inst in pool.items() if inst.alive]
            if not candidates:
                # [PV: Refusals] nothing alive: no_instances; nothing moves.
                chosen, reason = None, "no_instances"
            else:
                try:
                    chosen, reason = strategy.select(candidates, pool, ev.get("hint"))
                except Refused:
                    # [PV: Refusals] no counter moves, no completion, rr counter unchanged.
                    chosen, reason = None, "refused"
            if chosen is not None and profile.counting:
                # [PV: Request counting] routing sets (inflight or 0) + 1; with a duration
                # a completion is scheduled; without one it never completes.
                inst = pool[chosen]
                inst.inflight = (inst.inflight or 0) + 1
                if "duration" in ev:
                    scheduled += 1
                    heapq.heappush(completions, (t + ev["duration"], scheduled, chosen))
            decisions.append(
                {
                    "strategy": strategy.name,
                    "seq": seq,
                    "t": t,
                    "request": request,
                    "instance": chosen,
                    "reason": reason,
                    "candidates": len(candidates),
                }
            )
        else:
            raise ValueError("generator produced an unknown event type %r" % kind)
    return decisions


def oracle_log(text, ext, profile_name, python):
    """The full decision log for `-s rr,ll`: rr's decisions, then ll's."""
    header, events = parse_trace(text, ext)
    profile = resolve_profile(profile_name)
    log = []
    for short in STRATEGY_ORDER:
        log.extend(replay(header, events, profile, python, short))
    return log


# ---------------------------------------------------------------------------
# Trace generator
# ---------------------------------------------------------------------------


class Raw:
    """A JSON number literal written verbatim (e.g. 1e400, which no Python float can
    print as valid JSON).  json.loads reads it back the way the Proxy does."""

    def __init__(self, text):
        self.text = text


def encode(value, spaced=False):
    """Minimal JSON writer: unique keys (dicts), no NaN/Infinity literals, no NUL."""
    colon, comma = (": ", ", ") if spaced else (":", ",")
    if isinstance(value, Raw):
        return value.text
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)  # huge integers are written as integer literals
    if isinstance(value, float):
        assert math.isfinite(value)
        return repr(value)  # shortest round-trip form, valid JSON
    if isinstance(value, str):
        assert "\0" not in value
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + comma.join(encode(v, spaced) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + comma.join(json.dumps(k) + colon + encode(v, spaced) for k, v in value.items()) + "}"
    raise TypeError(type(value))


# Instance ids: plain, short, with a space, non-ASCII, and one that differs only by case.
ID_NAMES = ["inst-a", "inst-b", "inst-c", "inst-d", "inst-e", "inst-f", "b", "x y", "\u00fc-7", "Inst-A"]

# Hint keys: every key some version reads, plus keys no Proxy version reads.
HINT_KEYS = [k for k, _ in L3_KEYS] + ["queue_depth", "qps_1m", "inflight", "Active_Prepare"]

# Hint values by kind.  Each kind is what float() does with it in the Proxy.
HINT_VALUES = {
    "int": [0, 1, 2, 3, 5, 7, -1, -3, 40, 1000],
    "float": [0.5, 0.1, 0.2, 0.3, 0.6, 1.2, 2.4, 1.5, 2.25, 1e16, -1e16, 4e16, -4e16, 1e308, -1e308,
              1e-300, 0.001, 333.3],
    "string_number": ["3", " 2.5 ", "1e3", "1_000", "inf", "-Infinity", "+inf", "infinity", ".5", "5.",
                      "\t4\n", "0.1", "0.2", "1.2", "-0", "1e400", "1" + "0" * 400, "+1E-2", "0.6"],
    # Strings float() accepts only because Python's float() is Unicode-aware: full-width
    # digits, Arabic-Indic digits, non-ASCII spaces.  [PV: "whatever float() makes of it"]
    "string_unicode": ["\uff11\uff12", "\u0663", "\u00a02", "\u20073\u2007"],
    "string_nan": ["nan", "NaN", "-nan", "+NAN"],
    "string_bad": ["abc", "", " ", "1__0", "_1", "1_", "0x10", "1e", "--1", "1,5", "infinit", "nan1"],
    "bool": [True, False],
    "null": [None],
    "array": [[], [1], ["2"]],
    "object": [{}, {"v": 1}],
    # float(int) overflows for the first four (the last of them rounds up to 2**1024);
    # the others convert (2**1024-2**970-1 rounds down to the largest double).
    "huge_int": [10 ** 400, -(10 ** 400), 2 ** 1024, 2 ** 1024 - 2 ** 970, 2 ** 1024 - 2 ** 970 - 1,
                 10 ** 308, 2 ** 53 + 1, 10 ** 30],
    # Fraction/exponent literals: beyond range -> +-inf, below range -> 0.0.
    "literal": [Raw("1e400"), Raw("-1e400"), Raw("1.7976931348623159e308"), Raw("1.7976931348623157e308"),
                Raw("1E-400"), Raw("-0.0"), Raw("0.1e1"), Raw("100e-2"), Raw("2.5E+0"), Raw("1e16")],
}
HINT_VALUE_WEIGHTS = {
    "int": 24, "float": 20, "string_number": 10, "string_unicode": 2, "string_nan": 4, "string_bad": 6,
    "bool": 5, "null": 5, "array": 2, "object": 2, "huge_int": 4, "literal": 4,
}

# Per-instance entries whose exact sums tie but whose plain (3.11) sums do not, after the
# weights multiply them (1.2 * 0.25 == 0.3 and 2.4 * 0.25 == 0.6 exactly).  [PV: Summation]
SPLIT_FAMILIES = [
    [{"active_prepare": 0.1, "active_ready": 0.2, "prepare_queue_depth": 1.2},
     {"active_prepare": 0.6}, {"ready_queue_depth": 2.4}, {"active_ready": 0.3, "active_prepare": 0.3},
     {"active_prepare": "0.1", "active_ready": "0.2", "prepare_queue_depth": "1.2"}],
    [{"active_prepare": 1e16, "active_ready": 1.0, "prepare_queue_depth": -4e16},
     {"active_ready": 1}, {"active_prepare": 2}, {"active_ready": True},
     {"active_prepare": "1e16", "active_ready": 1, "ready_queue_depth": "-4e16"}],
    [{"pending_prefill_count": 0.1, "active_decode_count": 0.4, "predicted_total_backlog_ms": 300},
     {"active_prepare": 0.6}, {"active_decode_count": 1.2},
     {"active_prepare": 0.1, "active_ready": 0.2, "pending_prefill_count": 0.3}],
    [{"active_prepare": 1e16, "pending_prefill_count": 1.0, "active_decode_count": -2e16},
     {"active_ready": 1.0}, {"pending_prefill_count": 1, "predicted_total_backlog_ms": 0}],
]


def gen_hint_value(rng):
    kinds = list(HINT_VALUE_WEIGHTS)
    kind = rng.choices(kinds, weights=[HINT_VALUE_WEIGHTS[k] for k in kinds])[0]
    return rng.choice(HINT_VALUES[kind])


def gen_hint(rng, ids):
    """An arrival's hint: absent (None here), wrong shapes, crafted split families, or
    random per-instance entries with values of every kind.  Always an object when present
    (a non-object `hint` is a mistyped field in the trace format)."""
    roll = rng.random()
    if roll < 0.22:
        return None
    some = rng.choice(ids)
    if roll < 0.32:
        return rng.choice([
            {}, {"queue_depths": None}, {"queue_depths": 5}, {"queue_depths": []}, {"queue_depths": {}},
            {"queue_depths": {"per_instance": None}}, {"queue_depths": {"per_instance": "x"}},
            {"queue_depths": {"per_instance": [{some: {"active_prepare": 1}}]}},
            {"per_instance": {some: {"active_prepare": 10 ** 400}}},  # missing level
            {"queue_depths": {"per_instance": {some: 5}}},
            {"queue_depths": {"per_instance": {some: [1, 2]}}},
            {"queue_depths": {"per_instance": {some: "3"}}},
            {"queue_depths": {"per_instance": {some: None}}},
            {"Queue_Depths": {"per_instance": {some: {"active_prepare": 1}}}},
            {some: {"active_prepare": 1}},
        ])
    per_instance = {}
    if roll < 0.60:
        family = rng.choice(SPLIT_FAMILIES)
        for iid in ids:
            if rng.random() < 0.85:
                per_instance[iid] = dict(rng.choice(family))
        if rng.random() < 0.2:  # occasionally spice a crafted entry with a random value
            iid = rng.choice(ids)
            per_instance.setdefault(iid, {})[rng.choice(HINT_KEYS)] = gen_hint_value(rng)
    else:
        for iid in ids + ["ghost"]:
            if rng.random() < 0.7:
                if rng.random() < 0.07:
                    per_instance[iid] = rng.choice([5, "3", None, [1], True])  # not an object
                else:
                    keys = rng.sample(HINT_KEYS, rng.randint(1, 4))
                    per_instance[iid] = {k: gen_hint_value(rng) for k in keys}
    hint = {"queue_depths": {"per_instance": per_instance}}
    if rng.random() < 0.1:
        hint["queue_depths"]["total"] = 3  # unknown sibling keys are harmless
    if rng.random() < 0.1:
        hint["request_kind"] = "chat"
    return hint


def gen_inflight(rng):
    return rng.choice([None, 0, 0, 1, 2, 3, 5])


def gen_qps(rng):
    return rng.choice([None, 0, 0.5, 1, 1, 2, 2.0, 2.5, 10])


def gen_load_fields(rng, require_one):
    """inflight and/or qps_1m (either may be null).  [TF: Events] `load`: any of them."""
    which = rng.choice(["inflight", "qps_1m", "both"] + ([] if require_one else ["none", "none", "none"]))
    fields = {}
    if which in ("inflight", "both"):
        fields["inflight"] = gen_inflight(rng)
    if which in ("qps_1m", "both"):
        fields["qps_1m"] = gen_qps(rng)
    return fields


def generate_trace(seed):
    """A random valid trace for this seed.  Returns (text, ext)."""
    rng = random.Random(seed)
    ids = rng.sample(ID_NAMES, rng.randint(1, 6))
    header = {"lbsim_trace": 1}
    if rng.random() < 0.3:
        header["name"] = "fuzz-%d" % seed
    if rng.random() < 0.2:
        header["time_unit"] = rng.choice(["s", "ms"])
    if rng.random() < 0.15:  # [PV: profiles] the command line wins over the header's profile
        header["proxy"] = rng.choice(["spec", "cacheroute@df8382d", "latest"])
    if rng.random() < 0.1:
        header["x_future_key"] = {"ignored": True}

    # Header instances: inflight absent/null/number, qps_1m absent/null/number, alive, weight.
    in_pool = {}  # id -> alive, tracked so that down/remove/load only name registered ids
    instances = []
    for iid in ids[: rng.randint(0, len(ids))]:
        inst = {"id": iid}
        if rng.random() < 0.8:
            inst["inflight"] = gen_inflight(rng)
        if rng.random() < 0.7:
            inst["qps_1m"] = gen_qps(rng)
        if rng.random() < 0.2:
            inst["weight"] = rng.choice([1, 2, 0.5, 3.25])
        if rng.random() < 0.15:
            inst["alive"] = rng.random() < 0.3
        instances.append(inst)
        in_pool[iid] = inst.get("alive", True)
    if instances or rng.random() < 0.5:
        header["instances"] = instances

    events = []
    t = rng.choice([0, 0.0, 0.5, 1])
    pending_reup = None  # an id removed just before, to register again soon
    for _ in range(rng.randint(5, 120)):
        # Equal times are common; fractional steps make t + duration round (0.1 + 0.2).
        t = t + rng.choice([0, 0, 0, 0.1, 0.2, 0.25, 0.3, 0.5, 1, 1, 2, 0.7])
        registered = list(in_pool)
        kind = rng.choices(["arrival", "load", "up", "down", "remove"], weights=[50, 13, 15, 9, 5])[0]
        if pending_reup is not None and rng.random() < 0.6:
            kind = "up"
        if kind in ("load", "down", "remove") and not registered:
            kind = "up"
        ev = {"t": t, "type": kind}
        if kind == "arrival":
            if rng.random() < 0.12:
                ev["request"] = rng.choice(["req-%d" % len(events), "same", "\u00e9-1", ""])
            roll = rng.random()
            if roll < 0.2:
                pass  # no duration: counted forever from 2f1019a on
            else:
                ev["duration"] = rng.choice([0, 0, 0.0, 0.1, 0.2, 0.3, 0.5, 0.7, 1, 2, 3.5, 10, 100])
            hint = gen_hint(rng, ids)
            if hint is not None:
                ev["hint"] = hint
        elif kind == "up":
            if pending_reup is not None:
                iid, pending_reup = pending_reup, None
            else:
                iid = rng.choice(ids)  # new, alive, down, or previously removed
            ev["instance"] = iid
            if rng.random() < 0.5:
                ev.update(gen_load_fields(rng, require_one=True))
            if rng.random() < 0.1:
                ev["weight"] = rng.choice([1, 2.5])
            in_pool[iid] = True
        elif kind == "load":
            iid = rng.choice(registered)  # down ones too: a heartbeat revives them
            ev["instance"] = iid
            ev.update(gen_load_fields(rng, require_one=True))
            in_pool[iid] = True
        elif kind == "down":
            iid = rng.choice(registered)
            ev["instance"] = iid
            in_pool[iid] = False
        else:  # remove
            iid = rng.choice(registered)
            ev["instance"] = iid
            del in_pool[iid]
            if rng.random() < 0.7:
                pending_reup = iid
        if rng.random() < 0.05:
            ev["x_note"] = "unknown keys are ignored"
        events.append(ev)

    if rng.random() < 0.5:
        doc = dict(header)
        doc["events"] = events
        return encode(doc, spaced=rng.random() < 0.5) + "\n", ".json"
    lines = [encode(header)]
    for ev in events:
        lines.append(encode(ev))
        if rng.random() < 0.03:
            lines.append("")  # blank lines are skipped in JSON Lines
    return "\n".join(lines) + "\n", ".ndjson"


# ---------------------------------------------------------------------------
# Running lbsim and comparing
# ---------------------------------------------------------------------------

COMPARED_FIELDS = ("strategy", "seq", "request", "instance", "reason", "candidates")


def runs_for(seed):
    """(profile, python) pairs to check for one trace.  L1 profiles: default interpreter
    only (python None = do not pass --python).  L2/L3: both.  `latest` on every 5th seed."""
    runs = []
    for name, profile in PROFILES.items():
        if profile.least_load == "L1":
            runs.append((name, None))
        else:
            runs.extend([(name, "3.11"), (name, "3.12")])
    if seed % 5 == 0:
        runs.append(("latest", "3.11" if seed % 10 == 0 else "3.12"))
    return runs


def same_line(expected, actual):
    for field in COMPARED_FIELDS:
        if expected.get(field) != actual.get(field):
            return False
    t_actual = actual.get("t")
    return isinstance(t_actual, (int, float)) and float(t_actual) == float(expected["t"])


def reason_counts(log, strategy):
    counts = {}
    for line in log:
        if line["strategy"] == strategy:
            counts[line["reason"]] = counts.get(line["reason"], 0) + 1
    return counts


def check_one(binary, tmp, seed, path, text, ext, profile_name, python):
    """Run the oracle and lbsim on one trace under one profile.  Returns a dict with
    'log' (the oracle's), 'failure' (text or None) and 'notes'."""
    expected = oracle_log(text, ext, profile_name, python or DEFAULT_PYTHON)
    tag = "%d-%s-%s" % (seed, profile_name.replace("@", "_"), python or "default")
    log_path = os.path.join(tmp, tag + ".decisions.jsonl")
    report_path = os.path.join(tmp, tag + ".report.json")
    cmd = [binary, "--proxy", profile_name]
    if python is not None:
        cmd += ["--python", python]
    cmd += ["-s", "rr,ll", "--decisions", log_path, "-f", "json", "-o", report_path, path]
    result = {"log": expected, "failure": None, "notes": [], "cmd": cmd}
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        result["failure"] = "lbsim exited with %d\nstderr:\n%s" % (proc.returncode, proc.stderr.strip())
        return result
    with open(log_path, encoding="utf-8") as f:
        actual = [json.loads(line) for line in f if line.strip()]
    # [TF: Decision log] exactly one line per arrival per strategy.
    if len(actual) != len(expected):
        result["failure"] = "lbsim wrote %d decision lines, the oracle %d" % (len(actual), len(expected))
    # Compare each strategy's decisions in order (the log lists rr's, then ll's; comparing
    # per strategy also tolerates a log that interleaves them per arrival).  A count
    # mismatch is reported at the first differing line when there is one.
    for short in STRATEGY_ORDER:
        name = CANONICAL[short]
        exp = [d for d in expected if d["strategy"] == name]
        act = [d for d in actual if d.get("strategy") == name]
        for i in range(max(len(exp), len(act))):
            e = exp[i] if i < len(exp) else None
            a = act[i] if i < len(act) else None
            if e is None or a is None or not same_line(e, a):
                result["failure"] = (
                    "first mismatch in %s's decision %d\n  oracle: %s\n  lbsim:  %s"
                    % (name, i + 1, json.dumps(e, ensure_ascii=False), json.dumps(a, ensure_ascii=False))
                )
                return result
    if result["failure"]:
        return result
    # Secondary check: the report's per-strategy reason counts, when present.
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    for entry in report.get("strategies", []):
        name = entry.get("strategy")
        if name not in CANONICAL.values():
            continue
        if "reasons" not in entry:
            result["notes"].append("report has no 'reasons' for %s" % name)
            continue
        want = reason_counts(expected, name)
        got = {k: v for k, v in entry["reasons"].items() if v}
        if want != got:
            result["failure"] = "report reasons for %s differ\n  oracle: %s\n  lbsim:  %s" % (name, want, got)
            return result
    return result


def differential(binary, count, first_seed):
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        print("proxy_profiles_test: %s is not an executable file" % binary, file=sys.stderr)
        return 2
    binary = os.path.abspath(binary)
    seeds = range(first_seed, first_seed + count)
    stats = {"decisions": 0, "checks": 0}
    refused = {name: 0 for name in PROFILES}
    splits = {name: 0 for name, p in PROFILES.items() if p.least_load != "L1"}
    notes = set()
    workers = max(2, os.cpu_count() or 2)
    with tempfile.TemporaryDirectory(prefix="lbsim-proxy-profiles-") as tmp:
        traces = {}
        for seed in seeds:
            text, ext = generate_trace(seed)
            path = os.path.join(tmp, "trace-%d%s" % (seed, ext))
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            traces[seed] = (path, text, ext)
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            jobs = []
            for seed in seeds:
                path, text, ext = traces[seed]
                for profile_name, python in runs_for(seed):
                    fut = pool.submit(check_one, binary, tmp, seed, path, text, ext, profile_name, python)
                    jobs.append((seed, profile_name, python, fut))
            logs = {}
            for seed, profile_name, python, fut in jobs:  # results in submission order
                try:
                    res = fut.result()
                except Exception as exc:  # timeouts, unreadable output
                    res = {"failure": "%s: %s" % (type(exc).__name__, exc), "log": [], "cmd": []}
                if res["failure"]:
                    pool.shutdown(wait=True, cancel_futures=True)
                    path, text, ext = traces[seed]
                    print("MISMATCH  profile %s  python %s  seed %d  trace %s"
                          % (profile_name, python or "default (%s)" % DEFAULT_PYTHON, seed, os.path.basename(path)))
                    print(res["failure"])
                    print("command: %s" % " ".join(res["cmd"]))
                    print("reproduce: %s %s 1 %d" % (sys.argv[0], binary, seed))
                    print("---- trace (%s) ----" % os.path.basename(path))
                    print(text, end="")
                    print("---- end of trace ----")
                    return 1
                notes.update(res.get("notes", []))
                stats["checks"] += 1
                stats["decisions"] += len(res["log"])
                if profile_name in refused:
                    refused[profile_name] += sum(1 for d in res["log"] if d["reason"] == "refused")
                logs[(seed, profile_name, python)] = res["log"]
            # A summation split: the 3.11 and 3.12 replays of one trace decide differently.
            for seed in seeds:
                for name in splits:
                    a, b = logs[(seed, name, "3.11")], logs[(seed, name, "3.12")]
                    if any((x["instance"], x["reason"]) != (y["instance"], y["reason"]) for x, y in zip(a, b)):
                        splits[name] += 1
    for note in sorted(notes):
        print("note: %s" % note)
    for name in PROFILES:
        extra = "" if name not in splits else " (3.11 and 3.12 runs), %d summation splits" % splits[name]
        print("  %-20s %d refused decisions%s" % (name, refused[name], extra))
    # The run must not pass vacuously.
    vacuous = [n for n in splits if refused[n] == 0 or splits[n] == 0]
    if vacuous:
        print("FAIL: no refused decision or no summation split under %s; the generator did not "
              "reach those rules (raise COUNT_PER_PROFILE)" % ", ".join(vacuous))
        return 1
    print("OK: %d traces x profiles, %d decisions, %d refused, %d summation splits"
          % (stats["checks"], stats["decisions"], sum(refused.values()), sum(splits.values())))
    return 0


# ---------------------------------------------------------------------------
# Self-test: hand-derived decision sequences (no lbsim needed)
# ---------------------------------------------------------------------------

A, B, C, D = "A", "B", "C", "D"


def arrival(t, **fields):
    ev = {"t": t, "type": "arrival"}
    ev.update(fields)
    return ev


def event(t, kind, instance, **fields):
    ev = {"t": t, "type": kind, "instance": instance}
    ev.update(fields)
    return ev


def pq(**entries):
    """hint with queue_depths.per_instance = entries"""
    return {"queue_depths": {"per_instance": entries}}


# Each case: (title, header instances, events, {(profile, python): (ll expected, rr expected)})
# with decisions written "X reason" or "- refused".  Derivations are in the comments.
SELF_TEST_CASES = [
    (
        # df8382d (no counting).  t0: inflight ties {A,B,C}; Q = {B:3, C:3.0} -> rr over [B,C]
        # (counter 0,1,2 -> B,C,B).  t1: A qps 1 -> Q min is A alone.  t2: A inflight 4 -> T={B,C},
        # counter 4 -> B.  t3: only E,F,G alive, no inflight known: lowest qps F wins among all.
        # t4: only G, nothing known -> fallback.  t5: A back (inflight 4) beats unknown G.
        "L1 lexicographic, qps ties, unknown qps loses, fallback",
        [{"id": A, "inflight": 0, "qps_1m": None}, {"id": B, "inflight": 0, "qps_1m": 3},
         {"id": C, "inflight": 0, "qps_1m": 3.0}, {"id": D, "inflight": 2, "qps_1m": 0}],
        [arrival(0, duration=1), arrival(0), arrival(0, duration=0),
         event(1, "load", A, qps_1m=1), arrival(1),
         event(2, "load", A, inflight=4), arrival(2),
         event(3, "down", A), event(3, "down", B), event(3, "down", C), event(3, "down", D),
         event(3, "up", "E", qps_1m=5), event(3, "up", "F", qps_1m=2), event(3, "up", "G"), arrival(3),
         event(4, "down", "E"), event(4, "down", "F"), arrival(4),
         event(5, "up", A), arrival(5)],
        {("cacheroute@df8382d", "3.12"): (
            ["B tie", "C tie", "B tie", "A least", "B tie", "F least", "G fallback", "A least"],
            ["A", "B", "C", "D", "A", "G", "G", "G"])},
    ),
    (
        # Header A inflight 1, C inflight null; `up B` registers B at the end: [A, C, B].
        # 2f1019a: B unknown, C stays unknown -> A is the only known, A least every time.
        # 55b32e9: B = 0 -> B least; then A1,B1 tie (counter 1 -> B); `up C` (alive, unknown)
        # sets C = 0 -> C least.
        "unknown inflight at registration: 2f1019a vs 55b32e9",
        [{"id": A, "inflight": 1}, {"id": C, "inflight": None}],
        [event(0, "up", B), arrival(0, duration=10), arrival(1), event(2, "up", C), arrival(2)],
        {("cacheroute@2f1019a", "3.12"): (["A least", "A least", "A least"], ["A", "C", "B"]),
         ("cacheroute@55b32e9", "3.12"): (["B least", "B tie", "C least"], ["A", "C", "B"])},
    ),
    (
        # df8382d applies heartbeat inflight (A=5 -> B least; B=7 -> A least; nulls keep 5/7
        # -> A least).  2f1019a ignores it and counts: A0,B0 tie -> A; A1,B0 -> B; A1,B1 tie,
        # counter 2 -> A.
        "heartbeat inflight ignored from 2f1019a; null in a heartbeat keeps the value",
        [{"id": A, "inflight": 0}, {"id": B, "inflight": 0}],
        [event(0, "load", A, inflight=5), arrival(0),
         event(1, "load", B, inflight=7, qps_1m=1), event(1, "load", A, qps_1m=1), arrival(1),
         event(2, "load", A, inflight=None, qps_1m=None), arrival(2)],
        {("cacheroute@df8382d", "3.12"): (["B least", "A least", "A least"], ["A", "B", "A"]),
         ("cacheroute@2f1019a", "3.12"): (["A tie", "B least", "A tie"], ["A", "B", "A"])},
    ),
    (
        # t0: tie -> A (A=1, completion at 10).  t1: remove A, up A -> pool [B, A].
        # 2f1019a: new A unknown -> B least (B=1).  t10: the completion runs before the
        # arrival and sets the NEW A to max(0, 0-1) = 0 -> A0 < B1 -> A least.
        # 55b32e9: new A = 0 -> tie [B,A], counter 1 -> A (A=1); t10: A back to 0, tie,
        # counter 2 -> B.  rr sees the new order too: [A,B] -> A, then [B,A] at 1 -> A, 2 -> B.
        "completion decrements a re-registered Instance",
        [{"id": A, "inflight": 0}, {"id": B, "inflight": 0}],
        [arrival(0, duration=10), event(1, "remove", A), event(1, "up", A),
         arrival(1, duration=100), arrival(10)],
        {("cacheroute@2f1019a", "3.12"): (["A tie", "B least", "A least"], ["A", "A", "B"]),
         ("cacheroute@55b32e9", "3.12"): (["A tie", "A tie", "B tie"], ["A", "A", "B"])},
    ),
    (
        # 2f1019a: r1 (no duration) -> A forever.  r2 duration 0: B, completes at t0 before
        # r3, so r3 sees B0 -> B (until 5).  t5: completion first -> B least again, but r4 has
        # no duration: B=1 forever.  t6: A1,B1 tie, counter 4 -> A (A=2).  t7: B least.
        # df8382d counts nothing: all ties, rr alternates.
        "arrival without duration counted forever; zero duration completes before equal-time events",
        [{"id": A, "inflight": 0}, {"id": B, "inflight": 0}],
        [arrival(0), arrival(0, duration=0), arrival(0, duration=5), arrival(5), arrival(6), arrival(7)],
        {("cacheroute@2f1019a", "3.12"): (["A tie", "B least", "B least", "B least", "A tie", "B least"],
                                          ["A", "B", "A", "B", "A", "B"]),
         ("cacheroute@df8382d", "3.12"): (["A tie", "B tie", "A tie", "B tie", "A tie", "B tie"],
                                          ["A", "B", "A", "B", "A", "B"])},
    ),
    (
        # d4bd47f: r1 A's total is NaN and first -> refused, counter stays 0, nothing counted.
        # r2 tie [A,B] counter 0 -> A.  r3 B NaN (not first) -> A least.  r4 pending_prefill_count
        # 10**400: float() overflows -> refused.  r5 B -inf -> B least.  t1: 3 completions (A,A,B)
        # -> tie, counter 3 -> B.
        # 8b116b6 does not read pending_prefill_count: r4 scores A2, B0 -> B; r5 B -inf -> B;
        # t1: completions A,A,B,B -> tie, counter 4 -> A.
        "NaN first and int overflow refuse with the rr counter unchanged",
        [{"id": A, "inflight": 0}, {"id": B, "inflight": 0}],
        [arrival(0, duration=1, hint=pq(A={"active_prepare": "nan"})),
         arrival(0, duration=1),
         arrival(0, duration=1, hint=pq(B={"active_ready": "NaN"})),
         arrival(0, duration=1, hint=pq(A={"pending_prefill_count": 10 ** 400})),
         arrival(0, duration=1, hint=pq(B={"active_prepare": Raw("-1e400")})),
         arrival(1)],
        {("cacheroute@d4bd47f", "3.11"): (["- refused", "A tie", "A least", "- refused", "B least", "B tie"],
                                          ["A", "B", "A", "B", "A", "B"]),
         ("cacheroute@28e857c", "3.12"): (["- refused", "A tie", "A least", "- refused", "B least", "B tie"],
                                          ["A", "B", "A", "B", "A", "B"]),
         ("cacheroute@8b116b6", "3.12"): (["- refused", "A tie", "A least", "B least", "B least", "A tie"],
                                          ["A", "B", "A", "B", "A", "B"])},
    ),
    (
        # r1: A = 0+0.1+0.2+0.3 (1.2*0.25), B = 0+0.6.  3.11: 0.6000000000000001 > 0.6 -> B.
        # 3.12: both 0.6 -> tie, counter 0 -> A.
        # r2: A terms [inflight, 1e16, 1, -1e16 (= -4e16*0.25)], B [inflight, 1].
        # 3.11 (A0, B1): A sums to 0.0, B to 2 -> A.  3.12 (A1, B0): A = 2.0, B = 1 -> B.
        "plain vs Neumaier summation split 3.11 and 3.12",
        [{"id": A, "inflight": 0}, {"id": B, "inflight": 0}],
        [arrival(0, duration=1, hint=pq(A={"active_prepare": 0.1, "active_ready": 0.2,
                                          "prepare_queue_depth": 1.2}, B={"active_prepare": 0.6})),
         arrival(0, duration=1, hint=pq(A={"active_prepare": 1e16, "active_ready": 1,
                                          "prepare_queue_depth": -4e16}, B={"active_ready": 1}))],
        {("cacheroute@8b116b6", "3.11"): (["B least", "A least"], ["A", "B"]),
         ("cacheroute@8b116b6", "3.12"): (["A tie", "B least"], ["A", "B"])},
    ),
    (
        # Header alive false is down; a `load` on a down Instance revives it, keeping the
        # header's inflight 2 (its heartbeat carries qps_1m only).
        # 55b32e9 (L1 never reads hints): r1 only B -> B least (B=1); r2 A2, B1 -> B least.
        # 8b116b6: r1 reads active_prepare = 10**400 -> float() overflows -> refused (B stays
        # 0); r2 A = 2.0, B = 0.0 + float(" 3 ") = 3.0 -> A least.  rr: [B], then [A,B] at 1 -> B.
        "hints ignored by L1, strings read by L2, heartbeat revives a down Instance",
        [{"id": A, "inflight": 2, "alive": False}, {"id": B, "inflight": 0}],
        [arrival(0, duration=5, hint=pq(B={"active_prepare": 10 ** 400})),
         event(1, "load", A, qps_1m=0),
         arrival(1, duration=5, hint=pq(B={"active_ready": " 3 "}))],
        {("cacheroute@55b32e9", "3.12"): (["B least", "B least"], ["B", "B"]),
         ("cacheroute@8b116b6", "3.12"): (["- refused", "A least"], ["B", "B"])},
    ),
]

READ_VALUE_CASES = [
    (3, 3.0), (2.5, 2.5), (True, 1.0), (False, 0.0), (None, None), ([1], None), ({}, None),
    ("3", 3.0), (" 2.5 ", 2.5), ("1e3", 1000.0), ("1_000", 1000.0), ("inf", math.inf),
    ("-Infinity", -math.inf), ("abc", None), ("", None), ("1__0", None), ("\uff11\uff12", 12.0),
    ("1" + "0" * 400, math.inf), (2 ** 1024 - 2 ** 970 - 1, sys.float_info.max),
    (10 ** 400, OverflowError), (2 ** 1024 - 2 ** 970, OverflowError), (-(10 ** 400), OverflowError),
]


def self_test():
    failures = 0

    def check(label, got, want):
        nonlocal failures
        if got != want:
            failures += 1
            print("FAIL %s\n  want %s\n  got  %s" % (label, want, got))

    # float() reading of hint values.  [PV: Hint values]
    for value, want in READ_VALUE_CASES:
        try:
            got = read_hint_value(value)
        except OverflowError:
            got = OverflowError
        check("read_hint_value(%s)" % str(value)[:24], got, want)
    got = read_hint_value("nan")
    check("read_hint_value('nan') is NaN", got is not None and math.isnan(got), True)
    check("json 1e400 reads as inf", json.loads("[1e400, -1e400]"), [math.inf, -math.inf])

    # Summation.  [PV: Summation]
    check("plain 0.1+0.2+0.3", sum_plain([0.1, 0.2, 0.3]), 0.6000000000000001)
    check("neumaier 0.1+0.2+0.3", sum_neumaier([0.1, 0.2, 0.3]), 0.6)
    check("neumaier cancel", sum_neumaier([1e16, 1.0, -1e16]), 1.0)
    check("plain cancel", sum_plain([1e16, 1.0, -1e16]), 0.0)
    check("neumaier inf (c is NaN -> s)", sum_neumaier([1.0, math.inf]), math.inf)

    # The hand-derived decision sequences.
    for title, instances, events, expectations in SELF_TEST_CASES:
        header = {"lbsim_trace": 1, "instances": instances}
        for encoding in (".json", ".ndjson"):
            if encoding == ".json":
                doc = dict(header)
                doc["events"] = events
                text = encode(doc) + "\n"
            else:
                text = "\n".join([encode(header)] + [encode(e) for e in events]) + "\n"
            for (profile_name, python), (want_ll, want_rr) in expectations.items():
                log = oracle_log(text, encoding, profile_name, python)
                ll = ["%s %s" % (d["instance"] or "-", d["reason"]) for d in log if d["strategy"] == "least_load"]
                rr = [d["instance"] or "-" for d in log if d["strategy"] == "round_robin"]
                check("%s [%s %s %s] least_load" % (title, profile_name, python, encoding), ll, want_ll)
                check("%s [%s %s %s] round_robin" % (title, profile_name, python, encoding), rr, want_rr)

    # The generator: reproducible, parseable, and it reaches refusals and splits.
    check("generator reproducible", generate_trace(7), generate_trace(7))
    refused = {n: 0 for n, p in PROFILES.items() if p.least_load != "L1"}
    splits = dict(refused)
    kinds = set()
    for seed in range(1, 101):
        text, ext = generate_trace(seed)
        kinds.add(ext)
        header, events = parse_trace(text, ext)
        last = 0
        for ev in events:
            assert ev["t"] >= last, "times must not decrease"
            last = ev["t"]
        for name in PROFILES:
            logs = {py: oracle_log(text, ext, name, py) for py in ("3.11", "3.12")}
            if name in refused:
                refused[name] += sum(d["reason"] == "refused" for d in logs["3.12"])
                if logs["3.11"] != logs["3.12"]:
                    splits[name] += 1
            else:
                check("L1 ignores the interpreter (%s seed %d)" % (name, seed), logs["3.11"], logs["3.12"])
                check("L1 never refuses (%s seed %d)" % (name, seed),
                      any(d["reason"] == "refused" for d in logs["3.12"]), False)
    check("both encodings generated", sorted(kinds), [".json", ".ndjson"])
    for name in refused:
        check("generator reaches refusals under %s" % name, refused[name] > 0, True)
        check("generator reaches summation splits under %s" % name, splits[name] > 0, True)
    print("generator, seeds 1-100: refused %s; splits %s" % (refused, splits))

    if failures:
        print("self-test: %d FAILED" % failures)
        return 1
    print("self-test: OK (%d decision cases)" % len(SELF_TEST_CASES))
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if not 2 <= len(argv) <= 4 or argv[1].startswith("-"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        count = int(argv[2]) if len(argv) > 2 else 300
        first_seed = int(argv[3]) if len(argv) > 3 else 1
    except ValueError:
        print("COUNT_PER_PROFILE and FIRST_SEED must be integers", file=sys.stderr)
        return 2
    if count < 1:
        print("COUNT_PER_PROFILE must be at least 1", file=sys.stderr)
        return 2
    return differential(argv[1], count, first_seed)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
