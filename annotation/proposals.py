"""Proposals: changes offered to an annotator by something outside the core.

Model suggestions are the only proposals today, and they belong to the suggestions app
(`modelserve`), which depends on this one and never the other way round. An annotator's
decision on a proposal is part of their annotation all the same: accepting applies the
proposal's operation and records the decision in the same effect list, so one undo reverts
both, and the log, replay and live updates treat it like any other change. So the core
records decisions by the proposal's id alone (`SuggestionDecision.suggestion`, no foreign key)
and asks the app that made the proposal whether an id names one of its proposals for the
topic. That app registers the question here when Django starts (`AppConfig.ready`).
"""

from __future__ import annotations

from collections.abc import Callable

from annotation.domain.operations import SUGGESTION_DECISIONS

ProposalExists = Callable[[int, int], bool]
"""``exists(topic_id, proposal_id)``: does this id name a proposal made for this topic?"""

# The operations that decide on a proposal by its id (annotation/domain/operations/names.py).
DECISION_OPERATIONS = frozenset(SUGGESTION_DECISIONS)

_sources: list[ProposalExists] = []


def proposal_source_register(exists: ProposalExists) -> None:
    if exists not in _sources:
        _sources.append(exists)


def proposal_exists(*, topic_id: int, proposal_id: int) -> bool:
    return any(exists(topic_id, proposal_id) for exists in _sources)
