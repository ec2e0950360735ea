"""Keep the stored agreement counts current (docs/agreement-store.md).

When a topic's submitted work or gold changes (a submit, of an annotator's or an
adjudicator's work; a reopen), its pairs are computed once, inline after the commit,
through the one side-effect helper: a submit changes at most (annotators - 1) + 1 pairs of
one topic, a few milliseconds, and the next report finds them stored. Inline rather than on
the worker: no queue to wait for, and nothing to lose when no worker runs; a failure here
is logged and never undoes the submit (the report computes any row it does not find).

The core calls this without importing reporting: `assignment_submit` and `assignment_reopen`
tell the `work_changed` gate (annotation/gates.py), where reporting/apps.py registers it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from foundation.side_effects import after_commit
from reporting.selectors.agreement_pairs import agreement_pairs_fill

logger = logging.getLogger(__name__)


def agreement_scores_refresh(topic_ids: Iterable[int]) -> None:
    """Compute the topics' missing or stale pairs once the current transaction commits."""
    after_commit(_fill, list(topic_ids))


def _fill(topic_ids: list[int]) -> None:
    try:
        agreement_pairs_fill(topic_ids)
    except Exception:  # (after the commit: the submit stands, the report fills the gap)
        logger.exception("agreement counts of topics %s not stored", topic_ids)
