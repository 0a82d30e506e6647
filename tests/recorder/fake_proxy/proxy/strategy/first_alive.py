"""A strategy module nothing imports by default (for the import-hook test)."""
from .base import BaseInstanceStrategy


class FirstAliveStrategy(BaseInstanceStrategy):
    name = "first_alive"

    def select(self, instances, hint=None):
        if not instances:
            raise RuntimeError("no instances")
        return instances[0]
