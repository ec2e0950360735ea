"""Turn a validation project into an ordinary clustering project for further work.

A new hierarchy project gets every topic (documents, mentions) with the validated clustering
as its imported annotation, written by the import's own writer and logged as an `import`
operation like any import. Rejected mentions are left out, or, with `keep_rejected`, kept as
candidate mentions outside every cluster (so that annotators can look at them again). The
validation project stays as it is.
"""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction

from annotation.errors import ImportRefused
from annotation.models import Project
from annotation.services.imports.topics import ImportResult, topics_write
from validation.services.export import validated_topics


@transaction.atomic
def validated_project_create(
    *,
    project: Project,
    name: str,
    source: str | None = None,
    keep_rejected: bool = False,
    user=None,
) -> ImportResult:
    if not project.validation:
        raise ImportRefused(f"project '{project.name}' does not use the validation scheme", [])
    if Project.objects.filter(name=name).exists():
        raise ImportRefused(f"a project named '{name}' exists already", [])
    topics, _ = validated_topics(project=project, source=source, keep_rejected=keep_rejected)
    if not topics:
        raise ImportRefused(f"project '{project.name}' has no clusters to validate", [])
    topics = [
        replace(
            topic,
            mentions=[
                replace(m, cluster=None)
                if m.metadata.get("corefi", {}).get("validation") == "rejected"
                else m
                for m in topic.mentions
            ],
        )
        for topic in topics
    ]
    target = Project.objects.create(
        name=name, hierarchy=True, guidelines=project.guidelines, validation=False
    )
    result = ImportResult(project=target, file=f"the validation of '{project.name}'")
    # The import's writer: the same COPY of documents and mentions and the same logged import.
    topics_write(
        project=target,
        topics=topics,
        format="validation",
        file=result.file,
        user=user,
        result=result,
    )
    return result
