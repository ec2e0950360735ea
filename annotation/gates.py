"""Gates: questions the core asks apps built on it before it lets work happen.

Onboarding (practice topics, qualification) and reporting depend on this app and never the
other way round, yet the core must know when an assignment is locked (an annotator who has
not qualified yet), when an operation is answered with feedback (a guided practice topic
checks each decision against gold), when a submitted annotation is to be scored, and tell
reporting when a topic's submitted work changed. As with
`annotation/proposals.py`, the app registers its answers here when Django starts
(`AppConfig.ready`); with nothing registered every gate is open and silent.

- ``assignment_notes(user, assignment_ids) -> {assignment id: {"locked": why | None,
  "practice": mode | None}}``: what My topics shows about each of a user's assignments.
- ``edit_check(context)``: called under the row lock before any change (operation, undo,
  redo); raise a DomainError (AnnotationLocked: why) to refuse it.
- ``operation_feedback(context, state, payload) -> [message, ...]``: called under the row lock
  before an operation is planned; raise a DomainError to refuse it (nothing changes), or
  return messages the annotator sees with the applied change.
- ``submitted(assignment)``: called in the submit transaction, after the status changed; it
  may raise a DomainError to refuse the submission.
- ``suggestions_off(topic) -> why | None``: whether the model may be asked for suggestions
  on a topic (a practice topic measures the annotator, not the model).
- ``undo_check(context, target_version)``: called under the row lock before an undo of the
  operation logged at `target_version`; raise a DomainError to refuse it (guided practice
  keeps the tutorial's own starting clusters).
- ``work_changed(topic_ids)``: called in the transaction of a submit or a reopen (of an
  annotator's or an adjudicator's work): these topics' submitted work or gold changed. A
  hook defers what it does with `after_commit` (reporting stores the topics' agreement
  counts then: reporting/apps.py).
- ``practice_topic_ids(project_id) -> {topic id}``: the topics kept apart from real work (practice
  topics): the agreement report, exports, dataset statistics, release bundles and training
  leave them out. This one function is the gate all of them read; through it
  ``practice_proposals_refusal`` keeps proposals made before a topic became practice off it
  (not listed, not accepted).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class EditContext:
    """The annotation an operation changes, as the operation service locked it."""

    annotation_id: int
    topic_id: int
    project_id: int
    assignment_id: int | None
    user_id: int | None


AssignmentNotes = Callable[[Any, list[int]], dict[int, dict[str, Any]]]
OperationFeedback = Callable[[EditContext, Any, dict[str, Any]], list[str]]
Submitted = Callable[[Any], None]
EditCheck = Callable[[EditContext], None]
SuggestionsOff = Callable[[Any], str | None]
PracticeTopics = Callable[[int], Collection[int]]
UndoCheck = Callable[[EditContext, int], None]
WorkChanged = Callable[[list[int]], None]

_notes: list[AssignmentNotes] = []
_edit_checks: list[EditCheck] = []
_feedback: list[OperationFeedback] = []
_submitted: list[Submitted] = []
_suggestions_off: list[SuggestionsOff] = []
_practice: list[PracticeTopics] = []
_undo_checks: list[UndoCheck] = []
_work_changed: list[WorkChanged] = []


def gates_register(
    *,
    notes: AssignmentNotes | None = None,
    edit_check: EditCheck | None = None,
    feedback: OperationFeedback | None = None,
    submitted: Submitted | None = None,
    suggestions_off: SuggestionsOff | None = None,
    practice: PracticeTopics | None = None,
    undo_check: UndoCheck | None = None,
    work_changed: WorkChanged | None = None,
) -> None:
    hooks: list[tuple[Any, list[Any]]] = [
        (notes, _notes),
        (edit_check, _edit_checks),
        (feedback, _feedback),
        (submitted, _submitted),
        (suggestions_off, _suggestions_off),
        (practice, _practice),
        (undo_check, _undo_checks),
        (work_changed, _work_changed),
    ]
    for hook, registry in hooks:
        if hook is not None and hook not in registry:
            registry.append(hook)


def assignment_notes(user, assignment_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    ids = list(assignment_ids)
    notes: dict[int, dict[str, Any]] = {id: {"locked": None, "practice": None} for id in ids}
    for hook in _notes:
        for id, note in hook(user, ids).items():
            if id in notes:
                notes[id].update({key: value for key, value in note.items() if value is not None})
    return notes


def edit_check(context: EditContext) -> None:
    for hook in _edit_checks:
        hook(context)


def undo_check(context: EditContext, target_version: int) -> None:
    for hook in _undo_checks:
        hook(context, target_version)


def operation_feedback(context: EditContext, state: Any, payload: dict[str, Any]) -> list[str]:
    messages: list[str] = []
    for hook in _feedback:
        messages += hook(context, state, payload)
    return messages


def submitted(assignment: Any) -> None:
    for hook in _submitted:
        hook(assignment)


def work_changed(topic_ids: Iterable[int]) -> None:
    ids = list(topic_ids)
    for hook in _work_changed:
        hook(ids)


def suggestions_off(topic: Any) -> str | None:
    """Why the model may not be asked for suggestions on `topic` (None: it may)."""
    for hook in _suggestions_off:
        why = hook(topic)
        if why:
            return why
    if not topic.project.suggestions:
        return (
            "Suggestions are off in this project (its settings), so that agreement measures "
            "the annotators' own decisions."
        )
    return None


def practice_topic_ids(project_id: int) -> Collection[int]:
    """The project's topics kept apart from real work (practice): what no agreement report,
    export, statistic or release counts. With one app answering, its answer as it is (a lazy
    query: `exclude(topic_id__in=...)` makes it a subquery, no extra round trip)."""
    if len(_practice) == 1:
        return _practice[0](project_id)
    ids: set[int] = set()
    for hook in _practice:
        ids.update(hook(project_id))
    return ids


# What a decision on a proposal is refused with on a practice topic (accepting, one by one or
# in bulk): a model suggestion made before the topic became practice would still answer the
# test for the annotator.
PRACTICE_PROPOSALS = (
    "Suggestions are off on practice topics: the practice measures you, not the model, so "
    "none can be accepted here."
)


def practice_proposals_refusal(topic_id: int, project_id: int) -> str | None:
    """Why proposals may not be listed or accepted on this topic (None: they may)."""
    return PRACTICE_PROPOSALS if topic_id in practice_topic_ids(project_id) else None
