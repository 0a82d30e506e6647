from .least_load import LeastLoadStrategy
from .round_robin import RoundRobinStrategy


def build_instance_strategy(name):
    n = (name or "").strip().lower()
    if n in ("rr", "round_robin"):
        return RoundRobinStrategy()
    if n in ("ll", "least_load"):
        return LeastLoadStrategy()
    raise ValueError("unknown instance strategy: %s" % name)
