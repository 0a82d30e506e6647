"""Fake strategy interface."""
from abc import ABC, abstractmethod


class BaseInstanceStrategy(ABC):
    name = "base"

    @abstractmethod
    def select(self, instances, hint=None):
        raise NotImplementedError
