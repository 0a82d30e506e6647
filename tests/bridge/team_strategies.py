"""A stand-in for a team's own strategy module, for the --factory test of
proxy_strategies.py: one strategy that always takes the last Instance and
sets no last_reason, so its name is the reason word."""


class LastInstanceStrategy:
    name = "last_instance"

    def select(self, instances, hint=None):
        if not instances:
            raise RuntimeError("no instances")
        return instances[-1]


def build(name):
    if name != "last":
        raise ValueError("unknown strategy %r" % name)
    return LastInstanceStrategy()
