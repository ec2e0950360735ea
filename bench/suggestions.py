"""End-to-end suggestion time: request -> Redis -> a real Celery model worker -> stored.

Topics of 50, 200 and 1,000 mentions (the synthetic big-topic generator: ~60-token paragraphs,
5 mentions each) with the default `minilm` backend on whatever device the worker finds (CPU
here), and the `chemu` backend on the demo snippets. The first run of a backend in a fresh
worker includes loading the model; the table shows it apart.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from bench.environment import django_with_services
from bench.smoke import SMOKE, size

SIZES = size((50, 200, 1000), (20,))


def _wait(run, timeout: float = 1800):
    from modelserve.models import SuggestionRun

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if run.status in (SuggestionRun.Status.SUCCEEDED, SuggestionRun.Status.FAILED):
            return run
        time.sleep(0.2)
    raise RuntimeError(f"run {run.pk} did not finish: {run.status} {run.message}")


def _timed_run(topic, user, backend=None):
    from modelserve.services.runs import suggestion_run_request

    started = time.perf_counter()
    run = suggestion_run_request(topic=topic, user=user, backend=backend)
    run = _wait(run)
    return run, time.perf_counter() - started


def chemu_model_ready(*, smoke: bool) -> bool:
    """Whether the default ChEMU link model is there to time. A fresh clone has none until
    `make up` trains it: the full benchmark trains it the same way first (printed apart, not
    timed); the smoke run in `make test` does not spend that time and leaves the rows out."""
    from django.conf import settings

    from modelserve.backends.chemu import is_trained
    from modelserve.services.default_models import link_model_ensure

    model_dir = Path(settings.MODELS_DIR) / "chemu"
    if not smoke and not is_trained(model_dir):
        print("chemu: no default model yet (a fresh clone): training it as make up does, untimed")
        for line in link_model_ensure():
            print(line, flush=True)
    if is_trained(model_dir):
        return True
    print("chemu: not timed, no trained model (make up trains the default one)")
    return False


def main() -> int:
    services = django_with_services()
    worker = None
    try:
        from django.conf import settings
        from django.contrib.auth import get_user_model

        from annotation.models import Project
        from annotation.services.imports.topics import topics_import
        from bench.big_topic import create_big_topic
        from modelserve.services.settings import suggestion_settings_set
        from tests.paths import CHEMU_DEMO
        from tests.workers import Worker

        user = get_user_model().objects.create_user("bench", password="x")
        project = Project.objects.create(name="bench suggestions")
        topics = {
            n: create_big_topic(project, mentions=n, documents=max(1, n // 5), external_id=f"t{n}")
            for n in SIZES
        }
        chemu = Project.objects.create(name="bench chemu", hierarchy=False, anaphora=True)
        suggestion_settings_set(project=chemu, backend="chemu")
        topics_import(project=chemu, path=CHEMU_DEMO, format="chemu")
        chemu_ready = chemu_model_ready(smoke=SMOKE)
        worker = Worker(
            database_url=services.database_url,
            redis_url=services.redis_url,
            secret_key=settings.SECRET_KEY,
            extra_env={"LOG_LEVEL": "ERROR"},
        )
        worker.wait_ready()

        rows = []
        warmup, cold = _timed_run(topics[SIZES[0]], user)
        rows.append(("minilm", f"{SIZES[0]} (first run: loads the model)", cold, warmup))
        for n in SIZES:
            run, seconds = _timed_run(topics[n], user)
            rows.append(("minilm", str(n), seconds, run))
        snippets = list(chemu.topics.order_by("position")) if chemu_ready else []
        for topic in snippets[:1]:
            first, cold = _timed_run(topic, user)
            rows.append(
                (
                    "chemu",
                    f"{first.timings.get('mentions')} (first run: loads the model)",
                    cold,
                    first,
                )
            )
        for topic in snippets[1:4]:
            run, seconds = _timed_run(topic, user)
            rows.append(("chemu", str(run.timings.get("mentions")), seconds, run))

        print(f"device: {rows[1][3].device}; CPU threads: {os.cpu_count()}")
        print(
            f"{'backend':<8}{'mentions':<34}{'end to end s':>13}{'model s':>9}{'mentions/s':>12}"
            "  status"
        )
        for backend, label, seconds, run in rows:
            predict = run.timings.get("predict_s", float("nan"))
            mentions = run.timings.get("mentions", 0)
            print(
                f"{backend:<8}{label:<34}{seconds:>13.2f}{predict:>9.2f}"
                f"{mentions / seconds:>12.1f}  {run.status}"
            )
        succeeded = all(r[3].status == "succeeded" for r in rows)
        return 0 if succeeded and (chemu_ready or SMOKE) else 1
    finally:
        if worker is not None:
            worker.stop()
        services.stop()


if __name__ == "__main__":
    sys.exit(main())
