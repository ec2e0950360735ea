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


def create_big_topic(
    project,
    *,
    mentions: int = 1000,
    documents: int = 200,
    seed: int = 7,
    external_id: str = "big-topic",
):
    from annotation.models import Document, Mention, Topic

    rng = random.Random(seed)
    topic = Topic.objects.create(project=project, external_id=external_id)
    per_doc = mentions // documents
    docs = []
    for d in range(documents):
        tokens = [rng.choice(WORDS) for _ in range(60)] + ["."]
        docs.append(
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
        )
    Document.objects.bulk_create(docs)
    rows = []
    for d, doc in enumerate(docs):
        for k in range(per_doc):
            start = 2 + k * 11
            rows.append(
                Mention(
                    topic=topic,
                    document=doc,
                    spans=[[start, start + rng.randint(0, 2)]],
                    position=d * per_doc + k,
                )
            )
    Mention.objects.bulk_create(rows)
    return topic
