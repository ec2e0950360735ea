"""Guided practice (CoRefi's onboarding): each assignment of a mention is checked against gold
before it is applied. A wrong one is refused with the file's message (nothing changes, so
the mention stays current); a right one goes through with its message.

Right means: the mention joins the cluster that holds its gold cluster's mentions, or a new
cluster when none of them is assigned yet. The error message is the one CoRefi's file gives
for the gold cluster chosen by mistake (`clusterErrorMessages`), else its default.
"""

from __future__ import annotations

from typing import Any

from annotation.gates import EditContext
from annotation.models import Operation
from onboarding.errors import PracticeRefused, WrongDecision
from onboarding.memo import memo
from onboarding.models import PracticeTopic

RIGHT = "Correct!"
# The client id of the operations guided_start logs: the tutorial's own placements, which
# undo leaves alone (guided_undo_gate).
GUIDED_START = "guided-start"


def guided_feedback_gate(context: EditContext, state: Any, payload: dict[str, Any]) -> list[str]:
    if payload.get("op") != "assign" or context.assignment_id is None:
        return []
    feedback = memo(
        "guided",
        context.topic_id,
        lambda: (
            PracticeTopic.objects.filter(topic_id=context.topic_id, mode=PracticeTopic.Mode.GUIDED)
            .values_list("feedback", flat=True)
            .first()
        ),
    )
    if not feedback:
        return []
    mention = payload.get("mention")
    entry = feedback.get(str(mention))
    if entry is None:
        return []  # a mention the annotator added: gold says nothing about it
    gold = entry.get("cluster")
    cluster = payload.get("cluster")
    members = (
        set(state.clusters[cluster].members) - {mention} if cluster in state.clusters else set()
    )
    chosen = {feedback.get(str(m), {}).get("cluster") for m in members}
    if members:
        right = chosen == {gold}
    else:
        # A new (or empty) cluster is right when no mention of the gold cluster is placed yet.
        right = not any(
            feedback.get(str(m), {}).get("cluster") == gold
            for m in state.mention_cluster
            if m != mention
        )
    if right:
        return [entry.get("valid") or RIGHT]
    wrong_key = next(iter(chosen - {gold}), None) if members else None
    message = (entry.get("cluster_errors") or {}).get(wrong_key) if wrong_key else None
    raise WrongDecision(
        message or entry.get("error") or _default_error(state, mention, bool(members)),
        mention=mention,
    )


def _default_error(state: Any, mention: Any, joined: bool) -> str:
    name = state.mention_name(mention)
    if joined:
        return f"Not quite: {name} does not belong in that cluster."
    return f"Not quite: {name} belongs with a cluster that already exists."


def guided_undo_gate(context: EditContext, target_version: int) -> None:
    """Undo stops at the tutorial's own starting clusters (guided_start placed them, as in
    CoRefi, before the first decision): without them the next messages make no sense."""
    started = Operation.objects.filter(
        annotation_id=context.annotation_id, version=target_version, client_id=GUIDED_START
    ).exists()
    if started:
        raise PracticeRefused(
            "The tutorial placed this mention itself, so it stays: there is nothing of yours "
            "to undo yet."
        )
