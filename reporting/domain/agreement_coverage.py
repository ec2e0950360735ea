"""What an agreement report leaves out, and how sure its intervals are (docs/agreement-csv.md,
"What the report leaves out").

Pure: the report as `api.iaa` shapes it in, the same report with these added:

- ``undefined_reasons``: metric -> why it can be undefined (`corefscore.metrics.undefined`);
  an undefined score is ``null`` in ``topics`` and ``overall``, never 0.0;
- ``left_out``: the practice topics that have submitted work (practice measures annotators
  against gold, not against each other), the topics with fewer than two submissions, and,
  per metric, the scored topics where it is undefined for every pair (left out of AVG,
  MAX-micro and MAX-macro), each with its reason;
- on every ``overall`` metric, ``topics``: the scored topics its figures rest on (those
  where it is defined), and ``interval_note``: why no interval is shown where it rests on
  fewer than :data:`MIN_INTERVAL_TOPICS` topics (its intervals are then ``null``).

Why 10: the percentile bootstrap draws topics with replacement, and a handful of topics has
few distinct resamples (C(2n - 1, n): 3 topics give 10, 5 give 126) whose percentiles are
those of a few extreme draws (one topic drawn three times): with 3 topics a report printed
"82.4 [0.0-82.5]", an interval from a resample of the one topic without agreement. From 10
topics there are 92,378 distinct resamples and no single topic's weight decides the tails;
below that the page says the interval is not meaningful rather than print one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from corefscore.metrics.undefined import reasons

MIN_INTERVAL_TOPICS = 10
PRACTICE = "practice topics measure each annotator against gold, not agreement between annotators"
UNSCORED = "fewer than two submitted annotations"
INTERVALS = ("avg_ci", "max_micro_ci", "max_macro_ci")


def interval_note(topics: int) -> str | None:
    """Why a metric resting on ``topics`` topics shows no interval, or None: it shows one."""
    if topics >= MIN_INTERVAL_TOPICS:
        return None
    return (
        f"interval not meaningful over {topics} topic{'' if topics == 1 else 's'} "
        f"(fewer than {MIN_INTERVAL_TOPICS}): none shown"
    )


def add_coverage(
    report: dict[str, Any], *, practice_topics: Sequence[str], keep_singletons: bool
) -> dict[str, Any]:
    """``report`` (changed in place and returned) with what it leaves out said."""
    metrics = list(report["overall"])
    report["undefined_reasons"] = reasons(metrics, keep_singletons=keep_singletons)
    undefined: dict[str, list[str]] = {metric: [] for metric in metrics}
    for topic, scores in report["topics"].items():
        for metric in metrics:
            if metric in scores and scores[metric]["max"] is None:
                undefined[metric].append(topic)
    scored = len(report["topics"])
    for metric, overall in report["overall"].items():
        overall["topics"] = scored - len(undefined[metric])
        overall["interval_note"] = interval_note(overall["topics"])
        if overall["interval_note"] is not None:
            for name in INTERVALS:
                overall[name] = None
    report["left_out"] = {
        "practice": {"topics": list(practice_topics), "reason": PRACTICE},
        "unscored": {"topics": list(report.get("unscored_topics", [])), "reason": UNSCORED},
        "undefined": {
            metric: {"topics": topics, "reason": report["undefined_reasons"][metric]}
            for metric, topics in undefined.items()
            if topics
        },
    }
    report["interval_min_topics"] = MIN_INTERVAL_TOPICS
    return report
