"""Practice topics: mark a topic as practice, or import CoRefi onboarding files as guided ones.

A guided topic keeps CoRefi's tour (`tourSteps`), settings, and per-mention messages
(`goldMentions`: `validMessage`, `defaultErrorMessage`, `clusterErrorMessages`) keyed by the
candidate mention they name, beside the gold cluster of every candidate mention, so that each
decision is checked without reading the gold annotation. The whole file also stays in the
topic's metadata (the CoRefi reader keeps it), which is what the export writes back.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from annotation.domain.errors import NotFound
from annotation.errors import ProjectRefused
from annotation.models import Assignment, Document, Mention, Project, Topic
from annotation.selectors.topic_data import annotation_topic_data
from annotation.services.imports.topics import topics_import
from annotation.services.operations import annotation_operation_apply
from corefscore.formats.corefi_parser import FORMAT
from foundation.side_effects import after_commit
from onboarding.guided import GUIDED_START
from onboarding.memo import memo_forget
from onboarding.models import PracticeTopic
from onboarding.selectors.practice import practice_gold

# CoRefi's per-file settings a guided topic keeps (the rest of the file is data).
SETTING_FIELDS = (
    "mode",
    "hypernym",
    "fixableSpans",
    "reassignable",
    "newMentions",
    "selectedCluster",
    "snackbarTimeout",
    "clusterName",
)


def _global_starts(topic: Topic) -> dict[int, int]:
    """Document id -> the global index of its first token (CoRefi counts tokens globally)."""
    starts, total = {}, 0
    for id, count in (
        Document.objects.filter(topic=topic)
        .order_by("position", "id")
        .values_list("id", "token_count")
    ):
        starts[id] = total
        total += count
    return starts


def _guided_feedback(topic: Topic, gold_keys: list[str | None], corefi: dict[str, Any]) -> dict:
    """Per candidate mention id: its gold cluster key, and CoRefi's messages for it."""
    starts = _global_starts(topic)
    candidates = list(
        Mention.objects.filter(topic=topic, added_in__isnull=True)
        .order_by("position", "id")
        .values_list("id", "document_id", "spans")
    )
    feedback: dict[str, dict[str, Any]] = {}
    by_place: dict[tuple[int, int], str] = {}
    for (id, document, spans), key in zip(candidates, gold_keys, strict=True):
        feedback[str(id)] = {"cluster": key}
        by_place[(starts[document] + spans[0][0], starts[document] + spans[-1][1])] = str(id)
    for entry in corefi.get("goldMentions") or []:
        placed_id = by_place.get((entry.get("start"), entry.get("end")))
        if placed_id is None:
            continue
        feedback[placed_id].update(
            {
                "cluster": str(entry.get("clustId", feedback[placed_id]["cluster"])),
                "valid": entry.get("validMessage"),
                "error": entry.get("defaultErrorMessage"),
                "cluster_errors": entry.get("clusterErrorMessages") or {},
            }
        )
    return feedback


@transaction.atomic
def practice_mark(*, topic: Topic, mode: str) -> PracticeTopic:
    """Make `topic` a practice topic (its gold: imported, or its latest adjudication)."""
    if mode not in PracticeTopic.Mode.values:
        raise ProjectRefused(f"A practice topic is guided or scored, not {mode!r}.")
    practice, _ = PracticeTopic.objects.get_or_create(topic=topic, defaults={"mode": mode})
    gold = practice_gold(practice)
    if gold is None:
        raise ProjectRefused(
            f"{topic.external_id} has no gold annotation: import one, or adjudicate the topic, "
            "before making it a practice topic."
        )
    corefi = (topic.metadata.get(FORMAT) or {}).get("extra", {})
    keys = [m.cluster for m in annotation_topic_data(gold).mentions]
    practice.mode = mode
    practice.feedback = _guided_feedback(topic, keys, corefi)
    practice.tour_steps = list(corefi.get("tourSteps") or [])
    practice.settings = {k: corefi[k] for k in SETTING_FIELDS if k in corefi}
    practice.save()
    memo_forget()  # now for this process, and again once committed (a racing request)
    after_commit(memo_forget)
    return practice


def practice_unmark(*, topic: Topic) -> None:
    PracticeTopic.objects.filter(topic=topic).delete()
    memo_forget()


def practice_import(
    *, project: Project, path: Any, mode: str | None = None, user=None, name: str | None = None
) -> list[PracticeTopic]:
    """Import CoRefi onboarding files as practice topics: guided when the file is in CoRefi's
    onboarding mode (or `mode` says so), scored otherwise."""
    with transaction.atomic():
        result = topics_import(project=project, path=path, format="corefi", user=user, name=name)
        topics = Topic.objects.filter(project=project, external_id__in=result.topics)
        practices = []
        for topic in topics.order_by("position", "id"):
            corefi = (topic.metadata.get(FORMAT) or {}).get("extra", {})
            chosen = mode or ("guided" if corefi.get("mode") == "onboarding" else "scored")
            practices.append(practice_mark(topic=topic, mode=chosen))
    return practices


def guided_start(*, assignment_id: int, user) -> int:
    """Place what a CoRefi onboarding file does not ask about: its mentions without a message
    (the first mention, which CoRefi assigns itself) go to their gold clusters, as ordinary
    logged operations, before the annotator's first decision. Returns how many were placed
    (none once the annotation has any change, so it is safe to call again)."""
    assignment = (
        Assignment.objects.select_related("annotation").filter(pk=assignment_id, user=user).first()
    )
    practice = (
        PracticeTopic.objects.filter(
            topic_id=assignment.topic_id, mode=PracticeTopic.Mode.GUIDED
        ).first()
        if assignment
        else None
    )
    if assignment is None or practice is None:
        raise NotFound(
            "practice topic", assignment_id, "This is not one of your guided practice topics."
        )
    annotation = assignment.annotation
    entries = practice.feedback
    asked = [id for id, entry in entries.items() if "valid" in entry or "error" in entry]
    if annotation.version != 0 or not asked:
        return 0
    placed: dict[str, int | None] = {}
    count = 0
    for id, entry in sorted(entries.items(), key=lambda item: int(item[0])):
        if id in asked or entry.get("cluster") is None:
            continue
        key = entry["cluster"]
        applied = annotation_operation_apply(
            annotation_id=annotation.pk,
            user=user,
            payload={"op": "assign", "mention": int(id), "cluster": placed.get(key)},
            expected_version=annotation.version + count,
            client_id=GUIDED_START,
        )
        placed.setdefault(key, applied.created.get("cluster", placed.get(key)))
        count += 1
    return count
