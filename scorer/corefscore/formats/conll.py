"""CoNLL-2012 export, for the standard coreference scorers (coval, the reference scorer).

Layout (decisions in docs/formats.md):
- A topic is **one** CoNLL document, ``#begin document (<topic>); part 000``: SciCo-style
  evaluation is cross-document within a topic, and the scorers score each ``#begin
  document`` key on its own, so clusters must not be cut at document boundaries. With
  ``parts="documents"`` each of the topic's documents is a part of its own instead
  (``part 000``, ``part 001``...), for within-document scoring.
- Each of our documents (a SciCo paragraph) is one block of lines, blocks separated by a
  blank line; word numbers restart in each block. Mentions never cross a document, so none
  crosses a block (coval wants a mention inside one "sentence").
- Twelve columns: document, part, word number, word, then ``-`` for POS, parse bit, lemma,
  frameset, sense, speaker and named entities, and the coreference column last (``(5``,
  ``5)``, ``(5)``, ``|``-joined, ``-`` when none). Words holding spaces get ``_`` instead.
- Cluster numbers: the cluster keys where all are integers, else 0, 1, ... in order of first
  mention. A mention without a cluster is a singleton of its own.
- Singletons are written unless ``singletons=False`` (the scorers can drop them too).
- Discontinuous mentions cannot be expressed: the covering span (first token to last) is
  written, with a warning; if that span is already another mention's, it is left out, with
  a warning.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from corefscore.corpus import TopicData
from corefscore.formats._io import PathOrStream, canonical_int, display_name, open_text
from corefscore.formats.errors import FormatWarning, Problems

UNKNOWN_COLUMNS = (
    7  # POS, parse bit, predicate lemma, frameset, word sense, speaker, named entities
)
_SPACE = re.compile(r"\s+")


def write_conll(
    topics: Iterable[TopicData],
    path_or_stream: PathOrStream,
    *,
    singletons: bool = True,
    parts: Literal["topic", "documents"] = "topic",
    chains_from_links: bool = False,
) -> list[FormatWarning]:
    """Write topics as CoNLL-2012; return warnings (discontinuous mentions, odd tokens).

    ``chains_from_links``: for topics without clusters (ChEMU-Ref), the clusters are the
    chains that COREFERENCE links form (connected components)."""
    problems = Problems(display_name(path_or_stream))
    with open_text(path_or_stream, "w") as stream:
        for topic in topics:
            stream.write(
                topic_to_conll(
                    topic,
                    problems,
                    singletons=singletons,
                    parts=parts,
                    chains_from_links=chains_from_links,
                )
            )
    return problems.warnings


def topic_to_conll(
    topic: TopicData,
    problems: Problems | None = None,
    *,
    singletons: bool = True,
    parts: Literal["topic", "documents"] = "topic",
    chains_from_links: bool = False,
) -> str:
    problems = problems or Problems("<conll>")
    name = _SPACE.sub("_", topic.external_id) or "_"
    marks = _marks(topic, problems, singletons, chains_from_links)
    out: list[str] = []
    groups = (
        [list(range(len(topic.documents)))]
        if parts == "topic"
        else [[d] for d in range(len(topic.documents))]
    )
    for part, documents in enumerate(groups):
        out.append(f"#begin document ({name}); part {part:03d}\n")
        for d in documents:
            tokens = topic.documents[d].tokens
            if not tokens:
                continue
            for t, token in enumerate(tokens):
                word = _SPACE.sub("_", token) or "_"
                if word != token:
                    problems.warn(
                        topic.external_id,
                        f"documents[{d}].tokens[{t}]",
                        f"token {token!r} written as {word!r}",
                    )
                column = "|".join(marks.get((d, t), [])) or "-"
                out.append(
                    "\t".join([name, str(part), str(t), word, *["-"] * UNKNOWN_COLUMNS, column])
                    + "\n"
                )
            out.append("\n")
        out.append("#end document\n")
    return "".join(out)


def _marks(
    topic: TopicData, problems: Problems, singletons: bool, chains_from_links: bool
) -> dict[tuple[int, int], list[str]]:
    """(document, token) -> its coreference marks, in the order the scorers parse safely:
    openings (longest mention first), one-token mentions, closings (innermost first)."""
    clusters = _clusters(topic, chains_from_links)
    sizes: dict[str, int] = {}
    for cluster in clusters.values():
        sizes[cluster] = sizes.get(cluster, 0) + 1
    numbers = _numbers(list(dict.fromkeys(clusters.values())))
    spans: dict[tuple[int, int, int], int] = {}
    for index, mention in enumerate(topic.mentions):
        start, end = mention.spans[0][0], mention.spans[-1][1]
        key = (mention.document, start, end)
        if len(mention.spans) > 1:
            if key in spans or any(
                len(m.spans) == 1 and (m.document, m.spans[0][0], m.spans[0][1]) == key
                for m in topic.mentions
            ):
                problems.warn(
                    topic.external_id,
                    f"mentions[{index}]",
                    "discontinuous mention whose covering span is another mention's; left out",
                )
                continue
            problems.warn(
                topic.external_id,
                f"mentions[{index}]",
                "CoNLL has no discontinuous mentions; wrote the covering span",
            )
        if not singletons and sizes[clusters[index]] < 2:
            continue
        spans.setdefault(key, index)
    opens: dict[tuple[int, int], list[tuple[int, str]]] = {}
    singles: dict[tuple[int, int], list[str]] = {}
    closes: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for (document, start, end), index in spans.items():
        number = str(numbers[clusters[index]])
        if start == end:
            singles.setdefault((document, start), []).append(f"({number})")
        else:
            opens.setdefault((document, start), []).append((end, f"({number}"))
            closes.setdefault((document, end), []).append((start, f"{number})"))
    marks: dict[tuple[int, int], list[str]] = {}
    for position in set(opens) | set(singles) | set(closes):
        marks[position] = (
            [mark for _, mark in sorted(opens.get(position, []), key=lambda item: -item[0])]
            + singles.get(position, [])
            + [mark for _, mark in sorted(closes.get(position, []), key=lambda item: -item[0])]
        )
    return marks


def _clusters(topic: TopicData, chains_from_links: bool) -> dict[int, str]:
    """Mention index -> cluster key; a mention without a cluster gets a key of its own."""
    if chains_from_links and not any(m.cluster is not None for m in topic.mentions):
        parent = list(range(len(topic.mentions)))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for link in topic.links:
            if link.type == "COREFERENCE":
                a, b = find(link.anaphor), find(link.antecedent)
                parent[max(a, b)] = min(a, b)
        return {index: f"\0chain{find(index)}" for index in range(len(topic.mentions))}
    return {
        index: mention.cluster if mention.cluster is not None else f"\0mention{index}"
        for index, mention in enumerate(topic.mentions)
    }


def _numbers(keys: list[str]) -> dict[str, int]:
    """Integer cluster keys keep their number (others after them) where every real key is one;
    otherwise clusters are numbered in order of first mention."""
    real = [key for key in keys if not key.startswith("\0")]
    as_ints = {key: canonical_int(key) for key in real}
    if all(value is not None and value >= 0 for value in as_ints.values()):
        numbers: dict[str, int] = dict(as_ints)  # type: ignore[arg-type]
        next_number = max(numbers.values(), default=-1) + 1
        for key in keys:
            if key not in numbers:
                numbers[key] = next_number
                next_number += 1
        return numbers
    return {key: number for number, key in enumerate(keys)}
