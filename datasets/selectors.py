"""Reads of the dataset release: a project's statistics (total and per split), the figures of
the statistics page, and the project's splits.

Annotations are read in bulk for scoring (`annotations_topic_data(scoring=True)`: no tokens,
only their counts), so a 900-topic project is counted in a few queries. A project with
clusters is read with its tokens: WEC's Ambiguity and Diversity need each mention's head word.
Sentences are counted in the database (the length of each document's stored boundaries).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterable

from django.core.files.storage import default_storage
from django.db.models import F, Func, IntegerField

from annotation.infra.file_names import safe_file_name
from annotation.models import Document, Project, Topic
from annotation.selectors.topic_data import annotations_topic_data, document_token_counts
from datasets.models import SplitRecord
from datasets.sources import source_annotations
from datasets.statistics import (
    TopicStatistics,
    cluster_size_distribution,
    depth_distribution,
    stats_rows,
    summarize,
    topic_statistics,
)
from validation.services.export import validated_topics


def split_names(project: Project) -> list[str]:
    """The project's split names: those of its latest split record in their order, then any
    other (set by hand) alphabetically."""
    used = set(
        Topic.objects.filter(project=project).exclude(split="").values_list("split", flat=True)
    )
    record = latest_split_record(project)
    ordered = [name for name in (record.names if record else []) if name in used]
    return ordered + sorted(used - set(ordered))


def latest_split_record(project: Project) -> SplitRecord | None:
    return SplitRecord.objects.filter(project=project).order_by("-created_at", "-id").first()


def per_topic_statistics(
    project: Project, source: str | None = None, *, split: str | None = None
) -> list[tuple[Topic, TopicStatistics]]:
    """(topic, its figures) for each annotation of the source, in topic order.

    A validation project's gold is its validated clustering (the input clusters without the
    mentions the consolidated decisions reject: what its export writes), not the input."""
    if getattr(project, "validation", False) and source in (None, "gold"):
        return _validated_statistics(project, split)
    annotations = source_annotations(project, source, split=split)
    data = annotations_topic_data(annotations, scoring=not project.hierarchy)
    topic_ids = {a.topic_id for a in annotations}
    tokens = document_token_counts(topic_ids)
    sentences = document_sentence_counts(topic_ids)
    return [
        (
            a.topic,
            topic_statistics(
                data[a.pk],
                tokens=sum(tokens.get(a.topic_id, ())),
                sentences=sentences.get(a.topic_id, 0),
            ),
        )
        for a in annotations
    ]


def document_sentence_counts(topic_ids: Iterable[int]) -> dict[int, int]:
    """topic id -> sentences of its documents, the rule of `document_sentences` (a document
    imported without boundaries is one sentence if it has tokens), counted without loading
    the boundaries."""
    counts: dict[int, int] = defaultdict(int)
    length = Func(F("sentences"), function="jsonb_array_length", output_field=IntegerField())
    rows = (
        Document.objects.filter(topic_id__in=list(topic_ids))
        .annotate(n=length)
        .values_list("topic_id", "n", "token_count")
    )
    for topic, n, token_count in rows:
        counts[topic] += n or (1 if token_count else 0)
    return dict(counts)


def _validated_statistics(
    project: Project, split: str | None
) -> list[tuple[Topic, TopicStatistics]]:
    topics, _ = validated_topics(project=project, split=split)
    rows = {t.external_id: t for t in Topic.objects.filter(project=project)}
    return [(rows[data.external_id], topic_statistics(data)) for data in topics]


def project_statistics(
    project: Project, source: str | None = None, *, split: str | None = None
) -> dict:
    """`{"total": STATS, "splits": {name: STATS}}`; with `split`, the total is that split's
    and `splits` holds it alone."""
    rows = per_topic_statistics(project, source, split=split)
    return _grouped(project, rows, only=split)


def statistics_page(project: Project, source: str | None = None) -> dict:
    """What the statistics page draws: the STATS of the total and of each split, and the
    distributions behind the charts."""
    rows = per_topic_statistics(project, source)
    figures = [stats for _, stats in rows]
    result = _grouped(project, rows)
    return {
        "source": source or "gold",
        **result,
        "cluster_sizes": [
            {"size": size, "clusters": n} for size, n in cluster_size_distribution(figures).items()
        ],
        "depths": [
            {"depth": depth, "topics": n} for depth, n in depth_distribution(figures).items()
        ],
        "topics": [
            {
                "id": topic.pk,
                "external_id": topic.external_id,
                "split": topic.split,
                "mentions": stats.mentions,
                "clusters": stats.clusters,
                "max_depth": stats.max_depth,
            }
            for topic, stats in rows
        ],
    }


def statistics_csv(result: dict) -> str:
    stream = io.StringIO()
    csv.writer(stream, lineterminator="\n").writerows(stats_rows(result))
    return stream.getvalue()


def _grouped(
    project: Project, rows: list[tuple[Topic, TopicStatistics]], only: str | None = None
) -> dict:
    names = [only] if only is not None else split_names(project)
    return {
        "total": summarize(stats for _, stats in rows),
        "splits": {
            name: summarize(stats for topic, stats in rows if topic.split == name) for name in names
        },
    }


def project_splits(project: Project) -> dict:
    """The split names and each topic's split, in topic order (the admin topics page)."""
    topics = Topic.objects.filter(project=project).order_by("position", "id")
    return {"names": split_names(project), "topics": list(topics.values("id", "split"))}


RELEASES = "releases"  # the folder of the default storage


def release_name(project: Project) -> str:
    """Where the project's release bundle is stored (datasets/services/release_storage.py)."""
    return f"{RELEASES}/{project.pk}/{safe_file_name(project.name)}-release.zip"


def stored_release(project: Project):
    """The project's stored release bundle, opened for reading, or None when none was stored."""
    name = release_name(project)
    if not default_storage.exists(name):
        return None
    return default_storage.open(name, "rb")
