"""What the datasheet says about how a dataset was made, read from the database: who
annotated (as counts; names only when asked), the agreement report (with its annotator-vs-gold
section, reporting/selectors/agreement_gold.py), adjudication, validation and the split.

Without names, the agreement report that goes into a release is pseudonymised: every
annotator becomes `annotator A`, `annotator B`, ... (in name order), in the CSV and the
datasheet alike; a user who only adjudicated becomes `adjudicator A`, ... so that the letters
of the annotators, the ones the tables show, run without a gap.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from django.apps import apps

from annotation.models import Annotation, Assignment, Project, Topic
from annotation.selectors.gold import adjudicated_annotations, imported_gold_annotations
from corpus.selectors_candidates import project_retrievals
from datasets.models import SplitRecord
from datasets.selectors import latest_split_record, split_names
from reporting.selectors.agreement import project_agreement


def annotation_process(project: Project, *, with_names: bool) -> dict:
    """Users per role, assignments and submissions, annotators per topic."""
    rows = list(
        Assignment.objects.filter(topic__project=project).values_list(
            "role", "status", "user__username", "topic_id"
        )
    )
    by_role: dict[str, set[str]] = {}
    for role, _, user, _ in rows:
        by_role.setdefault(role, set()).add(user)
    submitted = [r for r in rows if r[1] == Assignment.Status.SUBMITTED]
    per_topic = Counter(
        topic for role, _, _, topic in submitted if role == Assignment.Role.ANNOTATOR
    )
    facts = {
        "topics": Topic.objects.filter(project=project).count(),
        "annotators": len(by_role.get(Assignment.Role.ANNOTATOR, ())),
        "adjudicators": len(by_role.get(Assignment.Role.ADJUDICATOR, ())),
        "assignments": sum(1 for r in rows if r[0] == Assignment.Role.ANNOTATOR),
        "submitted": sum(1 for r in submitted if r[0] == Assignment.Role.ANNOTATOR),
        "annotated_by": dict(sorted(Counter(per_topic.values()).items())),
    }
    if with_names:
        facts["names"] = {role: sorted(users) for role, users in sorted(by_role.items())}
    return facts


def agreement(project: Project, *, with_names: bool) -> dict:
    report = project_agreement(project)
    if with_names:
        return report
    return anonymized(report, pseudonyms(*project_usernames_by_role(project)))


def pseudonyms(annotators: Iterable[str], others: Iterable[str] = ()) -> dict[str, str]:
    """Username -> `annotator A`, `annotator B`, ... in name order (`annotator AA` after Z);
    `others` (users who annotated nothing: adjudicators) -> `adjudicator A`, ..., so that no
    annotator letter is taken by someone the annotators' tables never show."""
    annotators = sorted(set(annotators))
    labels = {name: f"annotator {_letters(n)}" for n, name in enumerate(annotators, 1)}
    rest = sorted(set(others) - set(annotators))
    labels |= {name: f"adjudicator {_letters(n)}" for n, name in enumerate(rest, 1)}
    return labels


def _letters(number: int) -> str:
    """1 -> A, 26 -> Z, 27 -> AA."""
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def anonymized(value: Any, labels: dict[str, str]) -> Any:
    """`value` (the agreement report, or a part of it) with every username, and every pair
    label `name-name`, replaced by its pseudonym, in keys and values alike. A string that
    merely equals a username (a topic id, say) is replaced too: a name is never left behind."""
    pairs = {f"{a}-{b}": f"{labels[a]}-{labels[b]}" for a in labels for b in labels if a != b}

    def swap(text: str) -> str:
        return labels.get(text) or pairs.get(text) or text

    if isinstance(value, dict):
        return {
            swap(k) if isinstance(k, str) else k: anonymized(v, labels) for k, v in value.items()
        }
    if isinstance(value, list):
        return [anonymized(item, labels) for item in value]
    if isinstance(value, str):
        return swap(value)
    return value


def project_usernames_by_role(project: Project) -> tuple[list[str], list[str]]:
    """The project's annotators, and its other users (adjudicators only), each by name."""
    rows = Assignment.objects.filter(topic__project=project).values_list("role", "user__username")
    annotators = {name for role, name in rows if role == Assignment.Role.ANNOTATOR}
    return sorted(annotators), sorted({name for _, name in rows} - annotators)


def adjudication(project: Project) -> dict:
    adjudicated = adjudicated_annotations(project)
    imported = imported_gold_annotations(project)
    started = (
        Assignment.objects.filter(topic__project=project, role=Assignment.Role.ADJUDICATOR)
        .values("topic_id")
        .distinct()
        .count()
    )
    return {
        "adjudicated_topics": len(adjudicated),
        "adjudications_in_progress": started - len(adjudicated),
        "imported_gold_topics": len(set(imported) - set(adjudicated)),
        "topics_without_gold": Topic.objects.filter(project=project)
        .exclude(pk__in=[*imported, *adjudicated])
        .count(),
    }


def validation(project: Project) -> dict | None:
    """Validation decisions (WEC-style) of submitted work, or None where the project has no
    validation scheme or no decision: the datasheet then says "none"."""
    try:
        decisions = apps.get_model("annotation", "ValidationDecision")
    except LookupError:
        return None
    rows = list(
        decisions.objects.filter(
            annotation__in=Annotation.objects.submitted().of_project(project)
        ).values_list("annotation__kind", "annotation__topic_id", "decision", "reason")
    )
    if not rows:
        return None
    return {
        "decisions": len(rows),
        "topics": len({topic for _, topic, _, _ in rows}),
        "accepted": sum(1 for _, _, decision, _ in rows if decision == "accepted"),
        "rejected": sum(1 for _, _, decision, _ in rows if decision == "rejected"),
        "reasons": dict(sorted(Counter(r for _, _, d, r in rows if d == "rejected").items())),
        "by_adjudicators": sum(1 for kind, *_ in rows if kind == Annotation.Kind.ADJUDICATION),
    }


def split_facts(project: Project) -> dict:
    """The latest split record and how many topics were moved by hand since."""
    record: SplitRecord | None = latest_split_record(project)
    current = dict(
        Topic.objects.filter(project=project).values_list("external_id", "split").order_by()
    )
    sizes = Counter(split for split in current.values() if split)
    ordered = {name: sizes[name] for name in split_names(project)}
    facts: dict = {"sizes": ordered, "record": None, "moved_by_hand": 0}
    if record is not None:
        facts["record"] = {
            "method": record.method,
            "seed": record.seed,
            "names": record.names,
            "ratios": record.ratios,
            "balance": record.balance,
            "deviation": record.deviation,
            "date": record.created_at.date().isoformat(),
        }
        facts["moved_by_hand"] = sum(
            1 for key, split in current.items() if record.assignment.get(key, "") != split
        )
    return facts


def retrieval(project: Project) -> dict | None:
    """How the topics made from a corpus's candidate topics were retrieved (None: none was)."""
    return project_retrievals(project)
