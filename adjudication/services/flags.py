"""An annotator flags a mention of their annotation for the adjudicator, with a short comment,
or takes the flag back. Only the annotator who owns the annotation, while it is editable
(the rule of every change: annotation.selectors.access.editable_annotation); the mention must
be one of the topic's candidates or one this annotation added."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from adjudication.models import FLAG_COMMENT_MAX_CHARS, MentionFlag
from annotation.domain.errors import NotFound, TextTooLong
from annotation.models import Annotation, Mention
from annotation.selectors.access import editable_annotation


def _flaggable(user, annotation_id: int, mention_id: int) -> tuple[Annotation, Mention]:
    annotation = editable_annotation(user, annotation_id)
    mention = (
        Mention.objects.filter(pk=mention_id, topic_id=annotation.topic_id)
        .filter(Q(added_in__isnull=True) | Q(added_in=annotation))
        .first()
    )
    if mention is None:
        raise NotFound("mention", mention_id)
    return annotation, mention


@transaction.atomic
def mention_flag_set(*, user, annotation_id: int, mention_id: int, comment: str) -> MentionFlag:
    """Flag the mention (again: the comment is replaced). Surrounding whitespace is trimmed;
    a flag without a comment says "look here"."""
    comment = comment.strip()
    if len(comment) > FLAG_COMMENT_MAX_CHARS:
        raise TextTooLong("comment", FLAG_COMMENT_MAX_CHARS, len(comment))
    annotation, mention = _flaggable(user, annotation_id, mention_id)
    flag, _ = MentionFlag.objects.update_or_create(
        annotation=annotation, mention=mention, defaults={"comment": comment}
    )
    return flag


@transaction.atomic
def mention_flag_clear(*, user, annotation_id: int, mention_id: int) -> None:
    """Take the flag back (refused as missing when there is none)."""
    annotation, mention = _flaggable(user, annotation_id, mention_id)
    deleted, _ = MentionFlag.objects.filter(annotation=annotation, mention=mention).delete()
    if not deleted:
        raise NotFound("flag", mention_id, "This mention has no flag to take back.")
