"""The remembered current mention, so that a reload resumes where the annotator was. Not an
operation: it changes no annotation content, so it has no version and no log entry."""

from __future__ import annotations

from annotation.domain.errors import NotFound
from annotation.models import Annotation, Mention
from annotation.selectors.access import editable_annotation


def annotation_cursor_set(*, annotation_id: int, user, mention: int | None) -> None:
    annotation = editable_annotation(user, annotation_id, content=False)
    if (
        mention is not None
        and not Mention.objects.filter(pk=mention, topic_id=annotation.topic_id).exists()
    ):
        raise NotFound("mention", mention, f"There is no mention #{mention} in this topic.")
    Annotation.objects.filter(pk=annotation.pk).update(cursor=mention)
