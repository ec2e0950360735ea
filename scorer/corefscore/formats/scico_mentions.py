"""SciCo mentions (``[paragraph, start, end, cluster_id]``): their check and their flat form."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from corefscore.corpus import MentionData
from corefscore.formats._io import canonical_int, is_int, json_type


def parse_mentions(
    value: Any,
    paragraphs: list[list[str]],
    scico: dict[str, Any],
    error: Callable[[str | None, str], None],
) -> tuple[list[MentionData] | None, list[str]]:
    """The mentions of the topic's ``mentions`` field (``value``; None when it is not a list)
    and the cluster keys in order of first mention; what is wrong goes to
    ``error(field, message)``."""
    cluster_order: list[str] = []
    if not isinstance(value, list):
        error(
            "mentions",
            f"must be a list of [paragraph, start, end, cluster_id], not {json_type(value)}",
        )
        return None, cluster_order
    seen: dict[tuple[int, int, int], int] = {}
    known_clusters: set[str] = set()
    string_cluster_ids = False
    mentions: list[MentionData] = []
    sizes = list(map(len, paragraphs))
    count = len(sizes)
    for m, mention in enumerate(value):
        # fast path: [paragraph, start, end, integer cluster id], all fine (the exact path
        # below would accept it without a message, and do the same)
        if _plainly_valid(mention, count, sizes, seen):
            paragraph, start, end, cluster_id = mention
            seen[(paragraph, start, end)] = m
            cluster_key = str(cluster_id)
            if cluster_key not in known_clusters:
                known_clusters.add(cluster_key)
                cluster_order.append(cluster_key)
            mentions.append(MentionData(paragraph, ((start, end),), cluster_key))
            continue
        field = f"mentions[{m}]"
        if not (isinstance(mention, list) and len(mention) in (3, 4)):
            error(field, f"must be [paragraph, start, end, cluster_id], not {json.dumps(mention)}")
            continue
        paragraph, start, end = mention[:3]
        if not is_int(paragraph):
            error(f"{field}[0]", f"paragraph index must be an integer, not {json.dumps(paragraph)}")
            continue
        if not 0 <= paragraph < len(paragraphs):
            error(
                f"{field}[0]",
                f"paragraph {paragraph} does not exist (the topic has {len(paragraphs)})",
            )
            continue
        ok = _offsets_valid(field, start, end, len(paragraphs[paragraph]), error)
        if ok and start > end:
            error(field, f"start {start} is after end {end}")
            ok = False
        cluster: str | None = None
        if len(mention) == 4:
            cluster_id = mention[3]
            if not (is_int(cluster_id) or isinstance(cluster_id, str)):
                error(
                    f"{field}[3]",
                    f"cluster id must be an integer or a string, not {json.dumps(cluster_id)}",
                )
                ok = False
            else:
                cluster = str(cluster_id)
                string_cluster_ids |= (
                    isinstance(cluster_id, str) and canonical_int(cluster_id) is not None
                )
        if cluster is not None and cluster not in known_clusters:
            # Known even when the mention is bad, so relations do not report it again.
            known_clusters.add(cluster)
            cluster_order.append(cluster)
        if not ok:
            continue
        key = (paragraph, start, end)
        if key in seen:
            error(
                field,
                f"duplicate of mentions[{seen[key]}] (paragraph {paragraph}, tokens {start}-{end})",
            )
            continue
        seen[key] = m
        mentions.append(MentionData(document=paragraph, spans=((start, end),), cluster=cluster))
    if string_cluster_ids:
        scico["string_cluster_ids"] = True
    return mentions, cluster_order


def _plainly_valid(
    mention: Any, count: int, sizes: list[int], seen: dict[tuple[int, int, int], int]
) -> bool:
    """[paragraph, start, end, integer cluster id] of integers in range, not seen before."""
    if type(mention) is not list or len(mention) != 4:
        return False
    paragraph, start, end, cluster_id = mention
    return (
        type(paragraph) is int
        and type(start) is int
        and type(end) is int
        and type(cluster_id) is int
        and 0 <= paragraph < count
        and 0 <= start <= end < sizes[paragraph]
        and (paragraph, start, end) not in seen
    )


def _offsets_valid(
    field: str, start: Any, end: Any, size: int, error: Callable[[str | None, str], None]
) -> bool:
    """Both offsets are integers inside the paragraph of `size` tokens; each that is not is
    reported."""
    ok = True
    for position, offset in ((1, start), (2, end)):
        if not is_int(offset):
            error(f"{field}[{position}]", f"offset must be an integer, not {json.dumps(offset)}")
            ok = False
        elif not 0 <= offset < size:
            error(
                f"{field}[{position}]", f"offset {offset} is beyond the paragraph's {size} tokens"
            )
            ok = False
    return ok


def flatten_mentions(paragraphs: list[list[str]], mentions: list[Any]) -> list[list[Any]]:
    offsets = [0]
    for paragraph in paragraphs:
        offsets.append(offsets[-1] + len(paragraph))
    flat = []
    for mention in mentions:
        if (
            isinstance(mention, list)
            and len(mention) >= 3
            and is_int(mention[0])
            and 0 <= mention[0] < len(paragraphs)
        ):
            base = offsets[mention[0]]
            try:
                flat.append([base + mention[1], base + mention[2], *mention[3:]])
            except TypeError:  # an offset that is not a number (already an error of the mention)
                continue
    return flat
