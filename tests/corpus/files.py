"""Small corpus files in each format the corpus reads, written where a test asks."""

from __future__ import annotations

import json
from pathlib import Path

from tests.formats import scico_record

WORDS = [
    ["We", "train", "BERT", "for", "named", "entity", "recognition", "."],
    ["The", "transformer", "model", "improves", "parsing", "."],
]


def corpus_line(doc_id: str, mentions=((2, 2, "Method"), (4, 6, "Task"))) -> dict:
    return {
        "id": doc_id,
        "sentences": WORDS,
        "mentions": [{"start": s, "end": e, "label": label} for s, e, label in mentions],
        "metadata": {"year": 2021},
    }


def dygiepp_line(doc_key: str) -> dict:
    # document-level offsets: sentence 2 starts at word 8
    return {
        "doc_key": doc_key,
        "dataset": "scierc",
        "sentences": WORDS,
        "predicted_ner": [
            [[2, 2, "Method", 9.1, 0.98], [4, 6, "Task", 7.5, 0.91]],
            [[9, 10, "Method", 6.0, 0.87], [12, 12, "Task", 5.2, 0.80]],
        ],
    }


def scico_words(topic: int) -> dict:
    """A SciCo topic over WORDS, the two sentences as two papers with their ids."""
    return scico_record(
        topic,
        tokens=WORDS,
        doc_ids=[10, 11],
        mentions=[[0, 2, 2, 0], [1, 1, 2, 0], [1, 4, 4, 1]],
        relations=[],
    )


def write_lines(path: Path, lines: list) -> Path:
    path.write_text(
        "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    )
    return path
