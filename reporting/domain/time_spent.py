"""Where annotators' time goes (docs/time-spent.md), pure: the time of each kind of decision from
the operation log, how fast suggestions are accepted after they are shown, and agreement with
gold in submission order.

**The time of a decision** is the gap since the same annotator's previous logged operation in
the same topic (one annotation: the session of work on that topic). The first operation of a
topic has no previous one and no time. A gap over the idle cap is a break (lunch, the next
day), not the decision's time, and is left out: unlike the progress matrix's time spent,
which caps such a gap (some work happened in it), a time per decision averaged over capped
breaks would mostly measure the cap. docs/time-spent.md says more.

**Acceptance latency** is from the moment the suggestion was first shown to the annotator
(recorded by the workspace, `SuggestionShown`) to the logged acceptance. Potato flags a median
under 500 ms: a person who accepts faster than they can read the proposal rubber-stamps it,
and agreement then looks better, not worse.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

# Decision kinds in the order the report lists them.
KINDS = (
    "assign",
    "new_cluster",
    "merge",
    "split",
    "hierarchy_edge",
    "link",
    "suggestion_accept",
    "suggestion_reject",
    "validation",
    "mention",
    "other",
    "undo_redo",
)
_BY_NAME = {
    "merge": "merge",
    "split": "split",
    "set_parent": "hierarchy_edge",
    "add_edge": "hierarchy_edge",
    "remove_edge": "hierarchy_edge",
    "add_link": "link",
    "remove_link": "link",
    "retype_links": "link",
    "accept_suggestion": "suggestion_accept",
    "reject_suggestion": "suggestion_reject",
    "validate": "validation",
    "add_mention": "mention",
    "fix_span": "mention",
    "reject_mention": "mention",
    # Bulk steps: one decision of the annotator each, however many changes it makes.
    "add_mentions": "mention",
    "reject_mentions": "mention",
    "accept_suggestions": "suggestion_accept",
    "reject_suggestions": "suggestion_reject",
}
# Potato's rubber-stamping threshold on the median acceptance latency.
RUBBER_STAMP_SECONDS = 0.5


def decision_kind(name: str, payload: Mapping[str, Any], kind: str = "do") -> str:
    """The report's kind of a logged operation: `assign` to no cluster opens a new one;
    rename and notes are `other`; an undo or redo is `undo_redo` whatever it undoes."""
    if kind != "do":
        return "undo_redo"
    if name == "assign":
        return "new_cluster" if payload.get("cluster") is None else "assign"
    return _BY_NAME.get(name, "other")


@dataclass(frozen=True)
class LoggedEvent:
    """One logged operation: who, in which topic session (annotation), when, of what kind."""

    user: str
    session: int
    at: datetime
    kind: str


@dataclass(frozen=True)
class KindTime:
    count: int  # decisions with a time (not first in their session, gap under the cap)
    total_seconds: float
    median_seconds: float | None
    mean_seconds: float | None
    excluded: int  # decisions of this kind left without a time (first, or after a break)


def decision_times(events: Iterable[LoggedEvent], cap: float) -> dict[str, dict[str, list[float]]]:
    """user -> kind -> the times (seconds) of their decisions of that kind, and under the key
    "excluded:<kind>" one 0.0 per decision left without a time. Events are ordered by time
    within each session here; sessions never mix."""
    sessions: dict[tuple[str, int], list[LoggedEvent]] = defaultdict(list)
    for event in events:
        sessions[(event.user, event.session)].append(event)
    out: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for (user, _), logged in sessions.items():
        logged.sort(key=lambda e: e.at)
        previous: datetime | None = None
        for event in logged:
            gap = None if previous is None else (event.at - previous).total_seconds()
            previous = event.at
            if gap is None or gap > cap:
                out[user][f"excluded:{event.kind}"].append(0.0)
            else:
                out[user][event.kind].append(gap)
    return out


def kind_summary(times: Mapping[str, list[float]]) -> dict[str, KindTime]:
    """kind -> its count, total, median and mean, for every kind in KINDS."""
    result = {}
    for kind in KINDS:
        values = times.get(kind, [])
        result[kind] = KindTime(
            count=len(values),
            total_seconds=round(sum(values), 3),
            median_seconds=round(statistics.median(values), 3) if values else None,
            mean_seconds=round(statistics.fmean(values), 3) if values else None,
            excluded=len(times.get(f"excluded:{kind}", [])),
        )
    return result


@dataclass(frozen=True)
class Latency:
    accepted: int  # acceptances of a suggestion whose display was recorded
    unseen: int  # acceptances without a recorded display (bulk accepts, older clients)
    median_seconds: float | None
    rubber_stamping: bool  # the median is under RUBBER_STAMP_SECONDS


def acceptance_latency(
    shown: Mapping[int, datetime], accepted: Iterable[tuple[int, datetime]]
) -> Latency:
    """`shown`: suggestion -> when it was first shown to this annotator in this annotation;
    `accepted`: (suggestion, when the acceptance was logged). An acceptance logged before the
    recorded display (a clock step) counts as 0 s."""
    latencies = []
    unseen = 0
    for suggestion, at in accepted:
        seen = shown.get(suggestion)
        if seen is None:
            unseen += 1
        else:
            latencies.append(max(0.0, (at - seen).total_seconds()))
    median = statistics.median(latencies) if latencies else None
    return Latency(
        accepted=len(latencies),
        unseen=unseen,
        median_seconds=round(median, 3) if median is not None else None,
        rubber_stamping=median is not None and median < RUBBER_STAMP_SECONDS,
    )


def iso_week(at: datetime) -> str:
    """ "2026-W07": the ISO week a submission falls in (the gold-over-time grouping)."""
    year, week, _ = at.isocalendar()
    return f"{year}-W{week:02d}"
