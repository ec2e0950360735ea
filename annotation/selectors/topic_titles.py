"""A topic's title for lists (My topics): the id alone tells an annotator nothing.

The title is the topic's own metadata title, else its first document's (SciCo's paper title,
a CoRefi or brat document's `title`), else the first words of its first document's text (a
ChEMU snippet has no title). Read for many topics in one query, without loading the tokens:
PostgreSQL takes the first words out of the JSON itself.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models.expressions import RawSQL

from annotation.models import Document, Topic

WORDS = 12
TITLE_CHARS = 120

# The first WORDS tokens of the document, joined by spaces, in the database.
_FIRST_WORDS = RawSQL(
    "(SELECT string_agg(word, ' ' ORDER BY n) FROM jsonb_array_elements_text("
    '"annotation_document"."tokens") WITH ORDINALITY AS t(word, n) WHERE n <= %s)',
    (WORDS,),
)


def topic_titles(topic_ids: Iterable[int]) -> dict[int, str]:
    """Topic id -> its title ('' for a topic without documents)."""
    ids = set(topic_ids)
    own = {
        pk: str(title)
        for pk, title in Topic.objects.filter(pk__in=ids).values_list("pk", "metadata__title")
        if title
    }
    first = (
        Document.objects.filter(topic_id__in=ids - set(own))
        .order_by("topic_id", "position")
        .distinct("topic_id")
        .annotate(words=_FIRST_WORDS)
        .values_list("topic_id", "metadata__title", "words", "token_count")
    )
    titles = dict(own)
    for topic_id, title, words, count in first:
        if title:
            titles[topic_id] = str(title)
        elif words:
            titles[topic_id] = words + (" …" if count > WORDS else "")
    return {pk: title[:TITLE_CHARS] for pk, title in titles.items()}
