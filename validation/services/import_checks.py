"""Importing topics for validation (`import_topics --as validation`): the file's clusters are
what validators accept or reject, so a topic without a single cluster id has nothing to
validate and is an error of the usual shape (refused, or skipped with `skip_invalid`)."""

from __future__ import annotations

from annotation.errors import ImportRefused
from corefscore.corpus import TopicData
from corefscore.formats import Skipped
from corefscore.formats.errors import FormatError


def validation_unfit_drop(
    topics: list[TopicData], file: str, skip_invalid: bool, skipped: list[Skipped]
) -> list[TopicData]:
    errors = [
        FormatError(
            file,
            f"topic {topic.external_id}",
            None,
            f"topic {topic.external_id} carries no cluster ids: there is nothing to validate",
        )
        for topic in topics
        if not topic.cluster_members()
    ]
    if not errors:
        return topics
    if not skip_invalid:
        raise ImportRefused(
            f"{file}: {len(errors)} error(s); nothing was imported", [str(e) for e in errors]
        )
    skipped += [Skipped(error.file, error.record, (error,)) for error in errors]
    unfit = {error.record for error in errors}
    return [topic for topic in topics if f"topic {topic.external_id}" not in unfit]
