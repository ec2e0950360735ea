"""One long synthetic document for benchmarks: sentences of 12-30 words, a mention every ten
tokens or so (one to three tokens long), and for an anaphora project links from a mention to
one of the few before it, as coreference chains run through a novel."""

from __future__ import annotations

import random

from bench.big_topic import WORDS

LINK_TYPES = ["COREFERENCE", "COREFERENCE", "COREFERENCE", "TRANSFORMED", "REACTION_ASSOCIATED"]


def long_tokens(count: int, rng: random.Random) -> list[str]:
    tokens: list[str] = []
    while len(tokens) < count:
        length = min(rng.randint(12, 30), count - len(tokens) - 1)
        tokens += [rng.choice(WORDS) for _ in range(max(0, length))]
        tokens.append(".")
    return tokens[:count]


def create_long_document(project, *, tokens: int, mentions: int, seed: int = 11, external_id: str):
    """A topic of one document of `tokens` tokens with `mentions` mentions, spread evenly."""
    from annotation.models import Document, Mention, Topic

    rng = random.Random(seed)
    topic = Topic.objects.create(project=project, external_id=external_id)
    words = long_tokens(tokens, rng)
    document = Document.objects.create(
        topic=topic,
        position=0,
        doc_id=external_id,
        tokens=words,
        token_count=len(words),
        metadata={"title": f"A long document of {len(words):,} tokens"},
    )
    step = len(words) / mentions
    rows = []
    for k in range(mentions):
        start = int(k * step)
        end = min(start + rng.randint(0, 2), int((k + 1) * step) - 1, len(words) - 1)
        rows.append(
            Mention(topic=topic, document=document, spans=[[start, max(start, end)]], position=k)
        )
    Mention.objects.bulk_create(rows)
    return topic


def seed_annotation(annotation, mention_ids: list[int], *, links: int, seed: int = 5) -> None:
    """Two thirds of the mentions in clusters of about six (chains through the text), and
    `links` links from a mention to one of the five before it; one logged operation."""
    from annotation.infra.effects_sql import effects_write
    from annotation.models import Annotation, Operation
    from annotation.services.operations import _new_id

    rng = random.Random(seed)
    assigned = mention_ids[: len(mention_ids) * 2 // 3]
    clusters = [_new_id("cluster") for _ in range(max(1, len(assigned) // 6))]
    effects: list[dict] = [
        {"e": "cluster_created", "cluster": c, "label": f"entity {i}", "note": ""}
        for i, c in enumerate(clusters)
    ]
    effects += [
        {"e": "member_set", "mention": m, "old": None, "new": clusters[i % len(clusters)]}
        for i, m in enumerate(assigned)
    ]
    anaphors = sorted(rng.sample(range(5, len(mention_ids)), min(links, len(mention_ids) - 5)))
    effects += [
        {
            "e": "link_added",
            "type": rng.choice(LINK_TYPES),
            "anaphor": mention_ids[i],
            "antecedent": mention_ids[i - rng.randint(1, 5)],
        }
        for i in anaphors
    ]
    effects_write(annotation_id=annotation.pk, topic_id=annotation.topic_id, effects=effects)
    Operation.objects.create(
        annotation=annotation,
        version=1,
        kind="do",
        name="import",
        payload={"op": "import"},
        effects=effects,
    )
    Annotation.objects.filter(pk=annotation.pk).update(version=1)
