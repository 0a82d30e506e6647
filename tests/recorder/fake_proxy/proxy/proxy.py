"""Fake of the Proxy's route glue: select_instance as the Proxy calls it."""
from types import SimpleNamespace


class App:
    def __init__(self, pool, strategy, queue_snapshot=None):
        self.state = SimpleNamespace(instance_pool=pool, instance_strategy=strategy,
                                     queue_snapshot=queue_snapshot)


def select_instance(app, req_obj):
    pool = app.state.instance_pool
    strategy = app.state.instance_strategy
    instances = pool.list(include_dead=False)
    if not instances:
        return None
    hint = {"request": req_obj}
    if app.state.queue_snapshot is not None:
        hint["queue_depths"] = app.state.queue_snapshot()
    try:
        return strategy.select(instances, hint=hint)
    except Exception:
        return None


def not_select_instance(app):
    """Lists the pool from a function of another name (no no_instances event)."""
    return app.state.instance_pool.list(include_dead=False)
