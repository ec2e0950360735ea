"""Writes of splits: the seeded balanced split of a project, and one topic's split by hand."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db import transaction

from annotation.models import Project, Topic
from corefscore.corpus import LINK_TYPES
from datasets.errors import DatasetRefused
from datasets.models import SplitRecord
from datasets.selectors import per_topic_statistics
from datasets.splitting import balanced_split, share_deviations
from datasets.statistics import TopicStatistics

BALANCES = ("links", "clusters", "mentions")
METHOD = "seeded balanced search (random restarts and swaps minimising the largest deviation)"
DEFAULT_NAMES = {2: ("train", "test"), 3: ("train", "dev", "test")}
NAME_LENGTH = 40  # Topic.split's max_length


@dataclass
class SplitOutcome:
    kept: bool
    sizes: dict[str, int]
    record: SplitRecord | None = None
    # Per split and balanced dimension: share of the quantity minus share of topics.
    deviations: dict[str, dict[str, float | None]] | None = None

    def as_dict(self) -> dict:
        """What the split endpoint answers (SplitOutcomePayload)."""
        record = self.record
        return {
            "kept": self.kept,
            "sizes": [{"name": name, "topics": n} for name, n in self.sizes.items()],
            "seed": record.seed if record else None,
            "balance": record.balance if record else None,
            "deviation": record.deviation if record else None,
            "deviations": [
                {"split": name, "dimension": dim, "deviation": value}
                for name, row in (self.deviations or {}).items()
                for dim, value in row.items()
            ],
        }

    def lines(self) -> list[str]:
        counts = ", ".join(f"{name} {n}" for name, n in self.sizes.items())
        if self.kept:
            return [f"kept the existing split ({counts}); pass --force to replace it"]
        assert self.record is not None
        assert self.deviations is not None
        total = sum(self.sizes.values())
        record = self.record
        lines = [
            f"split {total} topics: {counts} (seed {record.seed}, balance {record.balance})",
            f"largest deviation of a split's share from its topic share: {record.deviation:.4f}",
        ]
        for name, row in self.deviations.items():
            cells = ", ".join(
                f"{dim} {'-' if value is None else f'{value:+.4f}'}" for dim, value in row.items()
            )
            lines.append(f"  {name}: {cells}")
        return lines


def _default_balance(project: Project) -> str:
    return "links" if project.anaphora else "clusters"


def _balance_weights(stats: TopicStatistics | None, balance: str) -> list[float]:
    """The quantities a topic brings to the balance (zeros for a topic without gold)."""
    if balance == "links":
        return [float(stats.links[t]) if stats else 0.0 for t in LINK_TYPES]
    if balance == "clusters":
        return [float(stats.clusters) if stats else 0.0]
    return [float(stats.mentions) if stats else 0.0]


def _balance_dimensions(balance: str) -> list[str]:
    return list(LINK_TYPES) if balance == "links" else [balance]


@transaction.atomic
def dataset_split(
    *,
    project: Project,
    ratios: list[float],
    names: list[str] | None = None,
    seed: int = 0,
    balance: str | None = None,
    force: bool = False,
) -> SplitOutcome:
    """Assign every topic of the project to a split, balancing `balance` over the gold.

    A project already split keeps its split unless `force`."""
    Project.objects.select_for_update().filter(pk=project.pk).first()
    names = _checked(ratios, names)
    balance = balance or _default_balance(project)
    if balance not in BALANCES:
        raise DatasetRefused("balance", f"{balance!r} is not one of {', '.join(BALANCES)}")
    current = Counter(
        Topic.objects.filter(project=project).exclude(split="").values_list("split", flat=True)
    )
    if current and not force:
        return SplitOutcome(kept=True, sizes=dict(sorted(current.items())))
    topics = list(Topic.objects.filter(project=project).order_by("position", "id"))
    if not topics:
        raise DatasetRefused("project", f"project '{project.name}' has no topics to split")
    by_topic = {topic.pk: stats for topic, stats in per_topic_statistics(project)}
    weights = [_balance_weights(by_topic.get(topic.pk), balance) for topic in topics]
    result = balanced_split(weights, ratios, seed=seed)
    assignment = {
        topic.external_id: names[s] for topic, s in zip(topics, result.assignment, strict=True)
    }
    for index, name in enumerate(names):
        ids = [topic.pk for topic, s in zip(topics, result.assignment, strict=True) if s == index]
        Topic.objects.filter(pk__in=ids).update(split=name)
    record = SplitRecord.objects.create(
        project=project,
        method=METHOD,
        seed=seed,
        names=names,
        ratios=list(ratios),
        balance=balance,
        deviation=result.deviation,
        assignment=assignment,
    )
    table = share_deviations(weights, result.assignment, len(names))
    dims = _balance_dimensions(balance)
    return SplitOutcome(
        kept=False,
        sizes=dict(zip(names, result.sizes, strict=True)),
        record=record,
        deviations={
            name: dict(zip(dims, row, strict=True)) for name, row in zip(names, table, strict=True)
        },
    )


@transaction.atomic
def topic_split_set(*, topic: Topic, split: str) -> Topic:
    """An admin's change of one topic's split ('' takes it out of every split)."""
    split = split.strip()
    if len(split) > NAME_LENGTH:
        raise DatasetRefused("split", f"a split name has at most {NAME_LENGTH} characters")
    Topic.objects.filter(pk=topic.pk).update(split=split)
    topic.split = split
    return topic


def _checked(ratios: list[float], names: list[str] | None) -> list[str]:
    if len(ratios) < 2:
        raise DatasetRefused("ratios", "give at least two ratios, e.g. 0.6,0.15,0.25")
    if any(r <= 0 for r in ratios):
        raise DatasetRefused("ratios", "every ratio must be above 0")
    if abs(sum(ratios) - 1) > 1e-6:
        raise DatasetRefused("ratios", f"the ratios add up to {sum(ratios):g}, not 1")
    if names is None:
        if len(ratios) not in DEFAULT_NAMES:
            raise DatasetRefused("names", f"give --names for {len(ratios)} splits")
        names = list(DEFAULT_NAMES[len(ratios)])
    names = [name.strip() for name in names]
    if len(names) != len(ratios):
        raise DatasetRefused("names", f"{len(names)} names for {len(ratios)} ratios")
    if len(set(names)) != len(names) or not all(names):
        raise DatasetRefused("names", "split names must be distinct and not empty")
    if any(len(name) > NAME_LENGTH for name in names):
        raise DatasetRefused("names", f"a split name has at most {NAME_LENGTH} characters")
    return names
