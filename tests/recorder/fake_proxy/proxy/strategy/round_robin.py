"""Fake round robin: a counter modulo the number of candidates."""
import threading

from .base import BaseInstanceStrategy


class RoundRobinStrategy(BaseInstanceStrategy):
    name = "round_robin"

    def __init__(self):
        self._lock = threading.Lock()
        self._next = 0

    def select(self, instances, hint=None):
        if not instances:
            raise RuntimeError("no instances")
        with self._lock:
            i = self._next % len(instances)
            self._next += 1
        return instances[i]
