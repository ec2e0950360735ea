"""Background jobs, one lifecycle for all: the abstract job model and its QuerySet
(`models.py`) and claim, owned write, heartbeat, throttled progress, finish, take-over and the
broker-failure policy (`lifecycle.py`). docs/jobs.md says how they fit together."""
