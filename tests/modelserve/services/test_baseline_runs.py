"""SciCo's baselines run in the app: a suggestion run for each goes through Redis to a real
Celery model worker and comes back with suggestions for every mention."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from modelserve.models import Suggestion
from modelserve.services.runs import suggestion_run_request
from tests.factories import UserFactory
from tests.modelserve.backends.test_baseline_backends import tiny_nli
from tests.modelserve.services.test_runs_with_worker import demo_topic
from tests.workers import start_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_baseline_runs_on_the_model_worker(services):
    topic = demo_topic("baselines")
    nli = tiny_nli(Path(settings.MODELS_DIR) / "test-tiny-nli")  # inside the allowed folders
    requests = {
        "edit-distance": {},
        "same-head-lemma": {},
        "singleton": {},
        "entailment": {"nli_model": str(nli), "clusters": "same-head-lemma"},
    }
    runs = {
        name: suggestion_run_request(topic=topic, user=UserFactory(), backend=name, params=params)
        for name, params in requests.items()
    }
    worker = start_worker(services)
    try:
        runs = {name: wait_for(run, {"succeeded", "failed"}) for name, run in runs.items()}
    finally:
        worker.stop()
    mentions = sorted(topic.mentions.values_list("id", flat=True))
    for name, run in runs.items():
        assert run.status == "succeeded", (name, run.error)
        memberships = Suggestion.objects.filter(run=run, kind="membership")
        assert sorted(s.payload["mention"] for s in memberships) == mentions, name
    singles = Suggestion.objects.filter(run=runs["singleton"], kind="membership")
    assert len({s.payload["cluster"] for s in singles}) == len(mentions)  # each alone
