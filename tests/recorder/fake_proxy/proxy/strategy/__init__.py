from .base import BaseInstanceStrategy
from .round_robin import RoundRobinStrategy
from .least_load import LeastLoadStrategy
from .factory import build_instance_strategy
