"""Fake least load: fewest known inflight; ties (and all-unknown) go to an
inner round robin, whose select is a nested select call."""
from .base import BaseInstanceStrategy
from .round_robin import RoundRobinStrategy


class LeastLoadStrategy(BaseInstanceStrategy):
    name = "least_load"

    def __init__(self):
        self._rr = RoundRobinStrategy()

    def select(self, instances, hint=None):
        if not instances:
            raise RuntimeError("no instances")
        known = [it for it in instances if getattr(getattr(it, "load", None), "inflight", None) is not None]
        if not known:
            return self._rr.select(instances)
        low = min(it.load.inflight for it in known)
        return self._rr.select([it for it in known if it.load.inflight == low])
