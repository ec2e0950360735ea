"""A flag on one mention: an annotator's short comment for the adjudicator.

A row of its own, not a logged operation of the annotation (docs/adjudication-workspace.md,
"Flags", says why): a flag is a message about the work, not part of it, so it stays out of
the annotation's state, its undo history, the agreement scores and the exports.
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models

from annotation.models import Annotation, Mention

FLAG_COMMENT_MAX_CHARS = 500


class MentionFlag(models.Model):
    annotation = models.ForeignKey(
        Annotation,
        on_delete=models.CASCADE,
        related_name="mention_flags",
        help_text="the flagging annotator's own annotation",
    )
    mention = models.ForeignKey(Mention, on_delete=models.CASCADE, related_name="+")
    comment = models.CharField(max_length=FLAG_COMMENT_MAX_CHARS, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["annotation", "mention"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["annotation", "mention"], name="mention_flag_unique"),
        ]

    def __str__(self) -> str:
        return f"flag on mention {self.mention_id} in annotation {self.annotation_id}"
