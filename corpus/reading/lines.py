"""The two JSON-lines corpus formats: our own (`corpus-jsonl`) and DyGIE++'s predictions
(`dygiepp`). A line gives a DocumentRecord or the list of what is wrong with it, in words."""

from __future__ import annotations

import json
import math
from typing import Any

from corpus.reading.records import DocumentRecord, MentionRecord

MAX_ID = 300
MAX_LABEL = 100


class LineProblems(ValueError):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def decode(line: bytes | str) -> Any:
    try:
        return json.loads(line)
    except UnicodeDecodeError:
        raise LineProblems(["is not UTF-8 text"]) from None
    except (ValueError, RecursionError) as error:
        raise LineProblems([f"is not JSON ({error})"]) from None


def _doc_id(value: Any, problems: list[str]) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        problems.append("its document id must be a string")
        return ""
    text = str(value).strip()
    if not text or len(text) > MAX_ID or "\x00" in text:
        problems.append(f"its document id must be 1 to {MAX_ID} characters")
    return text


def _sentences(value: Any, problems: list[str]) -> tuple[list[str], list[tuple[int, int]]]:
    """Token lists per sentence -> the document's tokens and half-open sentence ranges."""
    if not isinstance(value, list) or not value:
        problems.append("sentences must be a non-empty list of token lists")
        return [], []
    tokens: list[str] = []
    ranges: list[tuple[int, int]] = []
    for number, sentence in enumerate(value, start=1):
        if not isinstance(sentence, list) or not all(
            isinstance(t, str) and t and "\x00" not in t for t in sentence
        ):
            problems.append(f"sentence {number} must be a list of non-empty words")
            return [], []
        ranges.append((len(tokens), len(tokens) + len(sentence)))
        tokens.extend(sentence)
    if not tokens:
        problems.append("the document has no words")
    return tokens, ranges


def _mention(
    start: Any, end: Any, label: Any, score: Any, tokens: list[str], problems: list[str]
) -> MentionRecord | None:
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end)):
        problems.append(f"mention [{start!r}, {end!r}] must have integer start and end")
        return None
    if not 0 <= start <= end < len(tokens):
        problems.append(
            f"mention [{start}, {end}] is outside the text: the document has {len(tokens)} "
            "words (offsets count from 0, the end included)"
        )
        return None
    words = " ".join(tokens[start : end + 1])
    if label is None:
        label = ""
    if not isinstance(label, str) or len(label) > MAX_LABEL:
        problems.append(f"mention '{words}' has a label that is not a short string")
        return None
    if score is not None and (
        isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score)
    ):
        problems.append(f"mention '{words}' has a score that is not a number")
        return None
    return MentionRecord(start, end, label, None if score is None else float(score))


def _unique(mentions: list[MentionRecord]) -> list[MentionRecord]:
    """A mention listed twice (same span and label) is one mention."""
    seen: dict[tuple[int, int, str], MentionRecord] = {}
    for mention in mentions:
        seen.setdefault((mention.start, mention.end, mention.label), mention)
    return list(seen.values())


def corpus_line(obj: Any, line: int) -> DocumentRecord:
    """Our format: {"id", "sentences": [[word, ...], ...] or "tokens": [word, ...],
    "mentions": [{"start", "end", "label"?, "score"?}, ...], "metadata"?: {...}}."""
    if not isinstance(obj, dict) or "id" not in obj or not ({"sentences", "tokens"} & set(obj)):
        raise LineProblems(["is not a corpus document: it needs an id and its sentences"])
    problems: list[str] = []
    doc_id = _doc_id(obj["id"], problems)
    words = obj["sentences"] if "sentences" in obj else [obj["tokens"]]
    tokens, sentences = _sentences(words, problems)
    mentions: list[MentionRecord] = []
    given = obj.get("mentions", [])
    if not isinstance(given, list):
        problems.append("mentions must be a list")
        given = []
    for item in given if tokens else []:
        if not isinstance(item, dict):
            problems.append("each mention must be an object with start and end")
            continue
        start, end = item.get("start"), item.get("end")
        found = _mention(start, end, item.get("label"), item.get("score"), tokens, problems)
        if found is not None:
            mentions.append(found)
    metadata = obj.get("metadata", {})
    if not isinstance(metadata, dict):
        problems.append("metadata must be an object")
    if problems:
        raise LineProblems(problems)
    return DocumentRecord(doc_id, tokens, sentences, _unique(mentions), metadata, line)


def dygiepp_line(obj: Any, line: int) -> DocumentRecord:
    """DyGIE++'s prediction output: {"doc_key", "sentences", "predicted_ner": per sentence
    [[start, end, label, logit?, softmax?], ...]} with document-level offsets (end included);
    "ner" (gold) is read when there are no predictions. The softmax is the mention's score."""
    if not isinstance(obj, dict) or "doc_key" not in obj or "sentences" not in obj:
        raise LineProblems(["is not a DyGIE++ prediction: it needs doc_key and sentences"])
    key = "predicted_ner" if "predicted_ner" in obj else "ner"
    if key not in obj:
        raise LineProblems(["has no predicted_ner (nor ner): no mentions to read"])
    problems: list[str] = []
    doc_id = _doc_id(obj["doc_key"], problems)
    tokens, sentences = _sentences(obj["sentences"], problems)
    per_sentence = obj[key]
    if tokens and (not isinstance(per_sentence, list) or len(per_sentence) != len(sentences)):
        problems.append(f"{key} must hold one list per sentence ({len(sentences)})")
        per_sentence = []
    mentions: list[MentionRecord] = []
    for number, entities in enumerate(per_sentence if tokens else [], start=1):
        if not isinstance(entities, list):
            problems.append(f"{key} of sentence {number} must be a list")
            continue
        lo, hi = sentences[number - 1]
        for entity in entities:
            if not isinstance(entity, list) or len(entity) < 3:
                problems.append(
                    f"{key} of sentence {number}: each entry is [start, end, label, ...]"
                )
                continue
            score = entity[4] if len(entity) > 4 else None
            found = _mention(entity[0], entity[1], entity[2], score, tokens, problems)
            if found is None:
                continue
            if not lo <= found.start <= found.end < hi:
                problems.append(
                    f"mention [{found.start}, {found.end}] "
                    f"'{' '.join(tokens[found.start : found.end + 1])}' "
                    f"is not inside sentence {number} (words {lo} to {hi - 1}): DyGIE++ offsets "
                    "count from the document's start"
                )
                continue
            mentions.append(found)
    if problems:
        raise LineProblems(problems)
    metadata = {"dataset": obj["dataset"]} if isinstance(obj.get("dataset"), str) else {}
    return DocumentRecord(doc_id, tokens, sentences, _unique(mentions), metadata, line)
