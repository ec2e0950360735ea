"""Which of a project's topics a model was trained on, so that none is scored as if unseen
(docs/models.md, "Models scored in the app"): the topics a learnt version was trained on
(`ModelVersion.trained_topics`), and those whose text a default model records it learnt from
(modelserve/trained_texts.py: the default ChEMU model, its training file's snippets).

The Models page compares models with each other, so by default it scores every model on the
topics that none of the project's models has seen: a set that is the same for every run of a
time, which is what makes two runs side by side comparable.
"""

from __future__ import annotations

import functools
from pathlib import Path

from django.conf import settings
from django.db.models import Count, Max

from annotation.models import Document, Topic
from modelserve.models import ModelVersion
from modelserve.trained_texts import FILE, document_hash, trained_texts_read

Seen = dict[int, list[str]]  # topic id -> who was trained on it, in words


def _add(seen: Seen, topic_id: int, who: str) -> None:
    names = seen.setdefault(topic_id, [])
    if who not in names:
        names.append(who)


def default_models_seen(project_id: int, *, folders: list[Path] | None = None) -> Seen:
    """The topics whose text a model in the models folder (its default ones, such as `chemu`,
    and `train_suggester`'s) or one of `folders` records it was trained on."""
    root = Path(settings.MODELS_DIR)
    # a default model's folder (`chemu`), or one inside a backend's (`trained/<project>`,
    # where `train_suggester` saves)
    recorded_here = [*root.glob(f"*/{FILE}"), *root.glob(f"*/*/{FILE}")]
    candidates = sorted({p.parent for p in recorded_here}) + list(folders or [])
    recorded = [found for folder in candidates if (found := trained_texts_read(folder))]
    seen: Seen = {}
    if not recorded:
        return seen
    documents = Document.objects.filter(topic__project_id=project_id)
    stamp = documents.aggregate(count=Count("pk"), last=Max("pk"))
    for topic_id, text in _document_hashes(project_id, stamp["count"], stamp["last"]):
        for who, hashes in recorded:
            if text in hashes:
                _add(seen, topic_id, who)
    return seen


@functools.lru_cache(maxsize=32)
def _document_hashes(project_id: int, count: int, last: int | None) -> tuple[tuple[int, str], ...]:
    """Each document's text hash, by topic. Kept per process while the project's documents
    stay the same (their count and newest id): the Suggestions page reads this every few
    seconds while a training runs, and hashing every token of a large project each time
    would cost more than the page's other reads together."""
    documents = Document.objects.filter(topic__project_id=project_id).order_by("topic_id", "pk")
    return tuple(
        (topic_id, document_hash(tokens))
        for topic_id, tokens in documents.values_list("topic_id", "tokens").iterator()
    )


def versions_seen(project_id: int) -> Seen:
    seen: Seen = {}
    for version in ModelVersion.objects.filter(project_id=project_id).order_by("number"):
        for topic_id in version.trained_topics:
            _add(seen, int(topic_id), f"version {version.number}")
    return seen


def seen_topics(project_id: int, *, folder: str = "") -> Seen:
    """Every topic some model compared on the Models page was trained on: the project's
    learnt versions, its backends' default models and the chosen model folder."""
    seen = versions_seen(project_id)
    extra = [Path(folder)] if folder else []
    for topic_id, names in default_models_seen(project_id, folders=extra).items():
        for who in names:
            _add(seen, topic_id, who)
    return seen


def seen_listed(seen: Seen) -> list[dict[str, object]]:
    """The seen topics as the pages list them, in the project's order: name and who saw it."""
    rows = Topic.objects.filter(pk__in=list(seen)).order_by("position", "pk")
    return [
        {"topic_id": topic_id, "topic": name, "seen_by": seen[topic_id]}
        for topic_id, name in rows.values_list("pk", "external_id")
    ]
