"""Mention flags as their readers see them: the annotator their own (to show and take back),
the adjudicator those of the annotators' submitted versions (adjudication/selectors/versions)."""

from __future__ import annotations

from collections import defaultdict

from adjudication.models import MentionFlag
from annotation.selectors.access import readable_annotation


def own_flags(user, annotation_id: int) -> list[dict]:
    """The flags of an annotation `user` may read: `mention_id`, `comment`, `updated_at`."""
    annotation = readable_annotation(user, annotation_id)
    return [
        dict(row)
        for row in MentionFlag.objects.filter(annotation=annotation)
        .order_by("mention_id")
        .values("mention_id", "comment", "updated_at")
    ]


def flags_by_annotation(annotation_ids: list[int]) -> dict[int, list[dict]]:
    """annotation id -> its flags (`mention`, `comment`), in one query."""
    flags: dict[int, list[dict]] = defaultdict(list)
    for annotation, mention, comment in (
        MentionFlag.objects.filter(annotation_id__in=annotation_ids)
        .order_by("mention_id")
        .values_list("annotation_id", "mention_id", "comment")
    ):
        flags[annotation].append({"mention": mention, "comment": comment})
    return flags
