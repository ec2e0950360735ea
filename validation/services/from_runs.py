"""A suggestion run's clusters as clusters to validate (docs/validation.md).

The run's topic is copied into a validation project (documents and candidate mentions, by the
import's own writer) with the run's clusters as the topic's input clustering; each member's
confidence is the score of its membership suggestion (the backend's per-member confidence,
`ClusterSuggestion.mention_scores`). Mentions the run left out of every cluster stay
candidates with nothing to validate. The suggestions app may use the core; the core never
learns where the clusters came from beyond the import's file name.
"""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction

from annotation.errors import ImportRefused
from annotation.models import Project, Topic
from annotation.selectors.topic_data import topic_data_with_ids
from annotation.services.imports.topics import ImportResult, topics_write
from modelserve.models import Suggestion, SuggestionRun


@transaction.atomic
def validation_topics_from_runs(
    *, runs: list[SuggestionRun], project: Project, user=None
) -> ImportResult:
    if not project.validation:
        raise ImportRefused(f"project '{project.name}' does not use the validation scheme", [])
    topics = []
    for run in runs:
        if run.status != SuggestionRun.Status.SUCCEEDED:
            raise ImportRefused(f"suggestion run #{run.pk} has not succeeded ({run.status})", [])
        if Topic.objects.filter(project=project, external_id=run.topic.external_id).exists():
            raise ImportRefused(
                f"topic {run.topic.external_id} is already in project '{project.name}'", []
            )
        topics.append(_clustered(run))
    topics = [t for t in topics if t.cluster_members()]
    if not topics:
        raise ImportRefused("the runs propose no cluster: there is nothing to validate", [])
    names = ", ".join(f"#{run.pk}" for run in runs)
    result = ImportResult(project=project, file=f"suggestion run(s) {names}")
    topics_write(
        project=project,
        topics=topics,
        format="suggestions",
        file=result.file,
        user=user,
        result=result,
    )
    return result


def _clustered(run: SuggestionRun):
    data, ids = topic_data_with_ids(run.topic)
    index = {id: k for k, id in enumerate(ids)}
    cluster_of: dict[int, str] = {}
    for position, members in (
        run.suggestions.filter(kind=Suggestion.Kind.CLUSTER)
        .order_by("position")
        .values_list("position", "payload__mentions")
    ):
        for mention in members:
            cluster_of.setdefault(mention, f"run{run.pk}-{position}")
    confidence = {
        payload["mention"]: score
        for score, payload in run.suggestions.filter(kind=Suggestion.Kind.MEMBERSHIP).values_list(
            "score", "payload"
        )
    }
    mentions = list(data.mentions)
    for id, key in cluster_of.items():
        if id not in index:
            continue  # a mention the topic no longer has
        k = index[id]
        metadata = dict(mentions[k].metadata)
        if id in confidence:
            metadata["confidence"] = round(float(confidence[id]), 6)
        mentions[k] = replace(mentions[k], cluster=key, metadata=metadata)
    return replace(data, mentions=mentions)
