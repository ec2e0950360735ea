"""Validation topics for tests, imported as an annotator imports clusters to validate: a CoRefi
file (cluster ids, `clustersDesc` labels, each member's confidence among its fields) uploaded
into a validation project through the import the admin's upload uses."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile

from annotation.models import Project, Topic
from annotation.services.imports.upload import topics_upload_import
from tests.factories import DEFAULT_DOCUMENTS, DEFAULT_MENTIONS


@dataclass(frozen=True)
class ClusterToValidate:
    """Members are indices into the topic's mentions; `confidences[i]` is members[i]'s, when
    there is one; no label: the import names the cluster after its first member."""

    members: Sequence[int]
    label: str = ""
    confidences: Sequence[float | None] = ()


def corefi_file(
    *,
    documents: Sequence[Sequence[str]],
    mentions: Sequence[tuple[int, list[list[int]]]],
    clusters: Sequence[ClusterToValidate],
    doc_names: Sequence[str] | None = None,
) -> dict:
    """The CoRefi JSON of `documents` (token lists) and `mentions` ((document, [[start, end]]),
    ends inclusive) with `clusters` as the clusters to validate."""
    names = doc_names or [f"doc{d}" for d in range(len(documents))]
    tokens: list[dict[str, Any]] = []
    starts: list[int] = []
    for d, words in enumerate(documents):
        starts.append(len(tokens))
        tokens += [
            {"i": len(tokens) + k, "document": d, "doc_name": names[d], "text": word}
            for k, word in enumerate(words)
        ]
    rows: list[dict[str, Any]] = [
        {"start": starts[d] + spans[0][0], "end": starts[d] + spans[-1][1]} for d, spans in mentions
    ]
    described = []
    for n, cluster in enumerate(clusters):
        # A cluster without confidences has none for any member; a partial list is a bug.
        confidences = cluster.confidences or (None,) * len(cluster.members)
        for member, confidence in zip(cluster.members, confidences, strict=True):
            rows[member]["clustId"] = f"c{n}"
            if confidence is not None:
                rows[member]["confidence"] = confidence
        if cluster.label:
            described.append({"clustId": f"c{n}", "text": cluster.label})
    return {"tokens": tokens, "mentions": rows, "clustersDesc": described}


def validation_input_import(project: Project, external_id: str, corefi: dict) -> Topic:
    """Upload `corefi` (one topic) into `project` as the admin's import does."""
    upload = SimpleUploadedFile(f"{external_id}.json", json.dumps(corefi).encode())
    topics_upload_import(project=project, upload=upload, format="corefi")
    return Topic.objects.get(project=project, external_id=external_id)


def validation_project(name: str = "validation") -> Project:
    return Project.objects.create(name=name, hierarchy=False, validation=True)


def validation_topic(project: Project | None = None, *, confidences: bool = True) -> Topic:
    """Mentions m0..m6 of the factories' default topic; input clusters {m0, m1, m3, m4}
    ('CRF tagger') and {m2}, {m5, m6} ('the mixture')."""
    scores = (0.9, 0.2, 0.7, 0.5) if confidences else ()
    corefi = corefi_file(
        documents=DEFAULT_DOCUMENTS,
        mentions=DEFAULT_MENTIONS,
        clusters=[
            ClusterToValidate([0, 1, 3, 4], "CRF tagger", scores),
            ClusterToValidate([2]),
            ClusterToValidate([5, 6], "the mixture"),
        ],
    )
    return validation_input_import(
        project or validation_project(), f"topic-{Topic.objects.count() + 1}", corefi
    )
