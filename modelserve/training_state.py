"""What a suggestion run says about the parts of its backend that are not ready yet.

A backend names them in `Suggestions.pending` (the `chemu` backend: "mentions", while its
mention tagger is not trained). The first `make up` queues that training on the model worker
(`services.trainings`) and is usable at once: its runs offer links meanwhile, and their message
says why no mentions come with them and how far the training is, e.g. "mention proposals are
not ready yet: the mention tagger is training (40 %)". The workspace shows a run's message
beside its status (RunStatus.vue), so no interface change was needed.
"""

from __future__ import annotations

from modelserve.models import ModelTraining

# services.trainings.MENTION_TAGGER (not imported: services import this module; the tests
# create trainings under that name, so the two cannot drift apart unnoticed)
MENTION_TAGGER = "chemu-mentions"


def mention_tagger_state() -> str:
    """The mention tagger's training as an annotator reads it."""
    newest = ModelTraining.objects.filter(name=MENTION_TAGGER).order_by("-created_at", "-pk")
    training = newest.first()
    status = ModelTraining.Status
    if training is None:
        return "no mention tagger is trained (`python -m modelserve.train --backend chemu`)"
    if training.status == status.RUNNING:
        return f"the mention tagger is training ({round(100 * training.progress)} %)"
    if training.status == status.QUEUED:
        return "the mention tagger's training waits for a model worker"
    if training.status == status.FAILED:
        return "the mention tagger's training failed (the admin Suggestions page says why)"
    return "the mention tagger has just been trained: ask again"


def pending_note(pending: list[str]) -> str:
    """A sentence for the run's message; "" when nothing is pending."""
    if "mentions" in pending:
        return f"mention proposals are not ready yet: {mention_tagger_state()}"
    return ""
