"""A big synthetic topic for benchmarks: 1,000 mentions over 200 documents."""

from __future__ import annotations

import random

WORDS = [
    "sequence",
    "tagging",
    "conditional",
    "random",
    "field",
    "neural",
    "network",
    "attention",
    "encoder",
    "decoder",
    "graph",
    "embedding",
    "transformer",
    "recurrent",
    "convolution",
    "segmentation",
    "speech",
    "recognition",
    "translation",
    "evaluation",
    "metric",
    "corpus",
    "annotation",
    "model",
    "training",
    "inference",
    "parser",
    "tagger",
]


def big_topic_data(
    *, mentions: int = 1000, documents: int = 200, seed: int = 7
) -> tuple[list[list[str]], list[tuple[int, list[list[int]]]]]:
    """The topic as data: each document's tokens, each mention's (document, spans)."""
    rng = random.Random(seed)
    per_doc = mentions // documents
    texts = [[rng.choice(WORDS) for _ in range(60)] + ["."] for _ in range(documents)]
    spans = []
    for d in range(documents):
        for k in range(per_doc):
            start = 2 + k * 11
            spans.append((d, [[start, start + rng.randint(0, 2)]]))
    return texts, spans


def create_big_topic(
    project,
    *,
    mentions: int = 1000,
    documents: int = 200,
    seed: int = 7,
    external_id: str = "big-topic",
):
    from annotation.models import Document, Mention, Topic

    texts, spans = big_topic_data(mentions=mentions, documents=documents, seed=seed)
    topic = Topic.objects.create(project=project, external_id=external_id)
    docs = [
        Document(
            topic=topic,
            position=d,
            doc_id=f"paper-{d // 2}",
            tokens=tokens,
            token_count=len(tokens),
            metadata={
                "title": f"Paper {d // 2}: {' '.join(tokens[:5])}",
                "venue": "ACL",
                "year": 2000 + d % 20,
                "url": f"https://example.org/papers/{d // 2}",
            },
        )
        for d, tokens in enumerate(texts)
    ]
    Document.objects.bulk_create(docs)
    Mention.objects.bulk_create(
        Mention(topic=topic, document=docs[d], spans=mention_spans, position=position)
        for position, (d, mention_spans) in enumerate(spans)
    )
    return topic
