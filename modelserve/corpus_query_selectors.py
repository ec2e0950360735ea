"""Query by example from the workspace: the current mention (or a free text) against the
corpus of the annotation's project (docs/corpus.md, "Query by example").

The query vector comes, fastest first, from: the corpus mention that is this topic mention
(its stored vector: no model at all), else a model worker encoding the mention in its
sentence while the request waits (services/query_encoding.py, cached). Free text is encoded
the same way, as a bare phrase (context "none"). The answer is read from the index only."""

from __future__ import annotations

import time
from typing import Any

from django.db.models import Q

from annotation.domain.errors import NotFound
from annotation.models import Document, Mention, MentionEdit
from annotation.selectors.access import readable_annotation
from corpus.query_selectors import linked_vector, query_corpus, similar_mentions
from modelserve.services.query_encoding import query_vector


def corpus_query(
    user,
    annotation_id: int,
    *,
    mention_id: int | None = None,
    text: str | None = None,
    corpus_id: int | None = None,
    k: int = 10,
) -> dict[str, Any]:
    began = time.perf_counter()
    annotation = readable_annotation(user, annotation_id)
    topic = annotation.topic
    corpus = query_corpus(user, topic.project, corpus_id)
    encoding = corpus.active_encoding
    answer: dict[str, Any] = {
        "corpus": {"id": corpus.pk, "name": corpus.name},
        "neighbours": [],
        "message": "",
    }
    if encoding is None:
        answer["message"] = f"The corpus {corpus.name} is not indexed yet."
        answer["query"] = {"text": text or "", "vector_from": "none"}
        answer["server_ms"] = _ms(began)
        return answer
    leave_out = None
    if mention_id is not None:
        mention = (
            Mention.objects.filter(pk=mention_id, topic=topic)
            .filter(Q(added_in__isnull=True) | Q(added_in=annotation))
            .select_related("document__topic")
            .first()
        )
        if mention is None:
            raise NotFound(
                "mention", mention_id, f"There is no mention #{mention_id} in this topic."
            )
        edited = MentionEdit.objects.filter(annotation=annotation, mention=mention).first()
        spans = [list(s) for s in (edited.spans if edited and edited.spans else mention.spans)]
        words = _words(mention.document, spans)
        vector, linked = linked_vector(corpus, mention.document, spans)
        source = "corpus"
        if vector is None:
            sentence, offset = _sentence(mention.document, spans)
            vector = query_vector(
                encoder=encoding.encoder,
                context=encoding.context,
                words=sentence,
                spans=[[s - offset, e - offset] for s, e in spans],
                what=" ".join(words),
            )
            source = "worker"
        else:
            leave_out = linked.pk
        query_text = " ".join(words)
    else:
        words = (text or "").split()
        vector = query_vector(
            encoder=encoding.encoder,
            context="none",
            words=words,
            spans=[[0, len(words) - 1]],
            what=" ".join(words),
        )
        source, query_text = "worker", " ".join(words)
    answer["query"] = {"text": query_text, "vector_from": source}
    answer["neighbours"] = similar_mentions(
        user, corpus, vector, k=k, leave_out=leave_out, topic=topic
    )
    answer["server_ms"] = _ms(began)
    return answer


def _ms(began: float) -> float:
    return round((time.perf_counter() - began) * 1000, 1)


def _words(document: Document, spans: list[list[int]]) -> list[str]:
    return [w for s, e in spans for w in document.tokens[s : e + 1]]


def _sentence(document: Document, spans: list[list[int]]) -> tuple[list[str], int]:
    """The sentence holding the mention (all its spans), and its first word's offset: what
    the corpus's encoder saw around each corpus mention (context "sentence")."""
    start, end = spans[0][0], spans[-1][1]
    first, last = 0, len(document.tokens)
    for s, e in document.sentences or []:
        if s <= start < e:
            first, last = s, max(e, end + 1)
            break
    return document.tokens[first:last], first
