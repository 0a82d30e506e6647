#!/usr/bin/env python3
"""The Proxy's Instance-selection strategies, served to lbsim over its
external-strategy protocol (exec:COMMAND, see docs/external-strategies.md).

    lbsim -s 'exec:python3 strategies/external/proxy_strategies.py least_load' trace.json

The strategy code is laid out as the Proxy lays out its own (a base class,
one class per strategy with select(instances, hint), a factory with the
aliases), so a team can check its real module against lbsim's built-ins:

    exec:python3 strategies/external/proxy_strategies.py \
        --factory proxy.strategy.factory:build_instance_strategy least_load

--factory imports MODULE (from the current directory or PYTHONPATH) and
builds the strategy with FUNCTION(NAME). Its select() receives a list of
InstanceInfo objects (instance_id, weight, alive, load.inflight,
load.qps_1m; None when unknown) and the hint as the Proxy builds it, and
returns one of the instances. The reason word sent back is the strategy's
`last_reason` attribute after select() when it has one, else its `name`.

These classes follow lbsim's spec profile (docs/strategies.md), which
differs from the Proxy in one deliberate point: hint values are typed JSON,
so a string or a boolean is unknown (the Proxy's float() would take "3" as
3.0 and true as 1.0).
"""

import argparse
import importlib
import json
import math
import sys
from typing import Any, Dict, List, Optional


# --- What the Proxy's strategies see: InstanceInfo with its load ---------

class InstanceLoad:
    """The Proxy-side load of one Instance; None means unknown."""

    __slots__ = ("inflight", "qps_1m")

    def __init__(self, inflight: Optional[int], qps_1m: Optional[float]):
        self.inflight = inflight
        self.qps_1m = qps_1m


class InstanceInfo:
    """One alive Instance, as InstancePool.list(include_dead=False) gives it."""

    __slots__ = ("instance_id", "weight", "alive", "load")

    def __init__(self, instance_id: str, weight: float, load: InstanceLoad):
        self.instance_id = instance_id
        self.weight = weight
        self.alive = True
        self.load = load


# --- proxy/strategy/base.py -----------------------------------------------

class BaseInstanceStrategy:
    """Picks one Instance out of the live list for each request."""

    name = "base"

    def select(self, instances: List[InstanceInfo], hint: Optional[Any] = None) -> InstanceInfo:
        raise NotImplementedError


# --- proxy/strategy/round_robin.py ----------------------------------------

class RoundRobinStrategy(BaseInstanceStrategy):
    """instances[counter % len(instances)], then counter += 1. One counter
    for every call, whatever list it is given."""

    name = "round_robin"

    def __init__(self) -> None:
        self._counter = 0
        self.last_reason = "round_robin"

    def select(self, instances: List[InstanceInfo], hint: Optional[Any] = None) -> InstanceInfo:
        if not instances:
            raise RuntimeError("no instances")
        chosen = instances[self._counter % len(instances)]
        self._counter += 1
        return chosen


# --- proxy/strategy/least_load.py -----------------------------------------

# hint["queue_depths"]["per_instance"][<instance id>] keys, in score order.
QUEUE_DEPTH_KEYS = (
    "queue_depth", "active_prepare", "active_ready", "prepare_queue_depth",
    "ready_queue_depth", "pending_prefill_count", "active_decode_count",
    "predicted_total_backlog_ms",
)

DEFAULT_WEIGHTS = {
    "inflight": 1.0, "queue_depth": 0.25, "active_prepare": 1.0, "active_ready": 1.0,
    "prepare_queue_depth": 0.25, "ready_queue_depth": 0.25, "pending_prefill_count": 1.0,
    "active_decode_count": 0.5, "predicted_total_backlog_ms": 0.001, "qps_1m": 0.01,
}


def _is_number(value: Any) -> bool:
    """A JSON number: bool is an int subclass in Python but not a number here."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _as_double(value: Any) -> float:
    """A JSON number as lbsim's spec profile reads it: an integer past the
    double range is an infinity, not an OverflowError."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _queue_depths_for(hint: Optional[Any], instance_id: str) -> Optional[Dict[str, Any]]:
    """hint.queue_depths.per_instance[instance_id], or None for any other shape."""
    if not isinstance(hint, dict):
        return None
    queue_depths = hint.get("queue_depths")
    if not isinstance(queue_depths, dict):
        return None
    per_instance = queue_depths.get("per_instance")
    if not isinstance(per_instance, dict):
        return None
    values = per_instance.get(instance_id)
    return values if isinstance(values, dict) else None


class LeastLoadStrategy(BaseInstanceStrategy):
    """The lowest known load score wins. Ties, and the case where no
    Instance has a known score, go to one internal round robin that
    advances on every decision.

    score = inflight * w_inflight
          + sum(hint queue value * w_key for QUEUE_DEPTH_KEYS)
          + qps_1m * w_qps_1m
    summed in that order from 0.0; a component that is unknown or whose
    weight is 0 adds nothing and does not make the score known. A score
    with no component is None (unknown), never 0.
    """

    name = "least_load"

    def __init__(self, weights: Optional[Dict[str, float]] = None) -> None:
        self.weights = dict(DEFAULT_WEIGHTS)
        for key, value in (weights or {}).items():
            if key not in self.weights:
                raise ValueError("unknown least_load weight %r" % key)
            self.weights[key] = float(value)
        self._round_robin = RoundRobinStrategy()  # shared by ties and fallback
        self.last_reason = None

    def compute_score(self, instance: InstanceInfo, hint: Optional[Any]) -> Optional[float]:
        weights = self.weights
        total = 0.0
        known = False
        inflight = instance.load.inflight
        if _is_number(inflight) and weights["inflight"] != 0:
            total += inflight * weights["inflight"]
            known = True
        queues = _queue_depths_for(hint, instance.instance_id)
        if queues is not None:
            for key in QUEUE_DEPTH_KEYS:
                value = queues.get(key)
                if _is_number(value) and weights[key] != 0:
                    total += _as_double(value) * weights[key]
                    known = True
        qps_1m = instance.load.qps_1m
        if _is_number(qps_1m) and weights["qps_1m"] != 0:
            total += qps_1m * weights["qps_1m"]
            known = True
        return total if known else None

    def select(self, instances: List[InstanceInfo], hint: Optional[Any] = None) -> InstanceInfo:
        if not instances:
            raise RuntimeError("no instances")
        known = []
        for instance in instances:
            score = self.compute_score(instance, hint)
            if score is not None:
                known.append((score, instance))
        if not known:
            self.last_reason = "fallback"
            return self._round_robin.select(instances)
        min_score = min(score for score, _ in known)
        ties = [instance for score, instance in known if score == min_score]
        self.last_reason = "least" if len(ties) == 1 else "tie"
        return self._round_robin.select(ties)


# --- proxy/strategy/factory.py --------------------------------------------

_STRATEGIES = {
    "round_robin": RoundRobinStrategy, "round-robin": RoundRobinStrategy,
    "rr": RoundRobinStrategy,
    "least_load": LeastLoadStrategy, "least-load": LeastLoadStrategy,
    "ll": LeastLoadStrategy,
}


def build_instance_strategy(name: str, **options: Any) -> BaseInstanceStrategy:
    """Builds a strategy by name or alias (trimmed, case-insensitive)."""
    key = name.strip().lower()
    if key not in _STRATEGIES:
        raise ValueError("unknown instance strategy %r; known: %s"
                         % (name, ", ".join(sorted(_STRATEGIES))))
    return _STRATEGIES[key](**options)


# --- lbsim's exec protocol ------------------------------------------------

def serve(strategy: BaseInstanceStrategy, requests, replies) -> None:
    """Answers each request line on `requests` (binary, UTF-8 JSON) with
    one reply line on `replies`, flushed at once: lbsim waits for it."""
    for line in requests:
        request = json.loads(line)
        instances = [InstanceInfo(c["id"], c["weight"], InstanceLoad(c["inflight"], c["qps_1m"]))
                     for c in request["candidates"]]
        try:
            chosen = strategy.select(instances, request["hint"])
        except Exception:  # the Proxy answers 503: the decision is refused
            reply = {"seq": request["seq"], "instance": None, "reason": "refused"}
        else:
            reason = getattr(strategy, "last_reason", None) or strategy.name
            reply = {"seq": request["seq"], "instance": chosen.instance_id, "reason": reason}
        replies.write(json.dumps(reply, ensure_ascii=False).encode("utf-8") + b"\n")
        replies.flush()


def _load_factory(spec: str):
    module_name, _, function = spec.partition(":")
    if not module_name or not function:
        raise SystemExit("--factory: expected MODULE:FUNCTION, got %r" % spec)
    sys.path.insert(0, "")
    return getattr(importlib.import_module(module_name), function)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(
        description="Serve a Proxy Instance-selection strategy to lbsim (exec:COMMAND).")
    parser.add_argument("strategy", help="round_robin (rr) or least_load (ll), or a name "
                                         "the --factory knows")
    parser.add_argument("--weight", action="append", default=[], metavar="KEY=VALUE",
                        help="least_load weight, e.g. qps_1m=0 (repeatable)")
    parser.add_argument("--factory", metavar="MODULE:FUNCTION",
                        help="build the strategy with this factory instead of the "
                             "classes above")
    args = parser.parse_args(argv)
    if args.factory:
        if args.weight:
            parser.error("--weight applies to the built-in least_load only")
        strategy = _load_factory(args.factory)(args.strategy)
    else:
        options = {}
        if args.weight and _STRATEGIES.get(args.strategy.strip().lower()) is not LeastLoadStrategy:
            parser.error("--weight applies to least_load only")
        if args.weight:
            weights = {}
            for item in args.weight:
                key, sep, value = item.partition("=")
                if not sep:
                    parser.error("--weight: expected KEY=VALUE, got %r" % item)
                weights[key] = float(value)
            options["weights"] = weights
        strategy = build_instance_strategy(args.strategy, **options)
    serve(strategy, sys.stdin.buffer, sys.stdout.buffer)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
