"""The scorer's reading of SciCo lines: straight to :class:`TopicAnnotation`, tokens left undecoded.

The importer (``annotation.domain.formats.scico``) decodes every line fully and checks every
value, so ~11,000 token strings per topic become Python objects (and are checked to be
strings). Scoring needs only the number of tokens of each paragraph. Here a line is parsed by
simdjson (pysimdjson), which builds its document in C and creates Python objects only for
what is read: the id, the paragraphs' lengths, the mentions and relations, and the small
fields the importer checks (doc ids, metadata entries' types, sentence bounds, source).

The fast path only answers "all fine, and here is the topic": it accepts a line when the
importer's parser would accept it without an error or a warning (token contents aside, see
below), and builds the same plain annotation that ``from_topic`` builds from the importer's
topic. On anything else (a line simdjson refuses, any value of an unexpected type or out of
range, a duplicate key, mention or relation, a cycle, a line read as text) it says nothing
and the line is parsed again by the importer's own code (:func:`exact_line`), whose topic
and messages (file, line, field) are then the result. So every error the scorer reports is
the importer's, word for word.

What the fast path does not check is the *contents* of the tokens: a paragraph must be a
list, but its items are counted, not looked at (looking at them is the cost this module
avoids; the importer checks them). A line whose only fault is a token that is not a string
is therefore scored as if the token were one (docs/scoring.md, "Input checks").

JSON: simdjson is stricter than ``json`` (it refuses NaN, integers beyond 64 bits, lone
surrogate escapes, nesting deeper than 1024) and equal where both accept: such lines go to
the importer's reader, which decodes them as it always does. Without pysimdjson installed
every line takes that path.
"""

from __future__ import annotations

from annotation.domain.formats.graph import find_cycles
from annotation.domain.formats.scico_sentences import all_sentence_bounds, ends_look_inclusive
from annotation.domain.scoring.plain import (
    ScoringInputError,
    TopicAnnotation,
    coval_cluster_order,
    from_topic,
)

try:
    import simdjson
except (
    ImportError
):  # pragma: no cover - pysimdjson is a dependency; without it every line is read exactly
    simdjson = None  # type: ignore[assignment]

if simdjson is not None:
    _Array, _Object = simdjson.Array, simdjson.Object

# The tests switch the fast path off to compare with the importer's reading.
enabled = simdjson is not None

_parser = None


def plain_line(line: str | bytes, number: int, file: str):
    """One non-blank line of a SciCo file, for the scorer: ``(number, topic id, annotation)``
    when the line is valid, else what :func:`exact_line` gives. May raise UnicodeDecodeError
    as reading the file as text would."""
    if enabled and type(line) is bytes:
        fast = fast_line(line)
        if fast is not None:
            topic_id, annotation = fast
            return number, topic_id, annotation
    return exact_line(line, number, file)


def exact_line(line: str | bytes, number: int, file: str):
    """``(ScicoLine, conversion error or None)``: the line parsed by the importer's code, its
    topic replaced by the plain annotation (the tokens dropped)."""
    from annotation.domain.formats.scico import parse_scico_line

    parsed = parse_scico_line(line, number, file, flattened=False)
    if parsed.topic is None:
        return parsed, None
    try:
        parsed.topic = from_topic(parsed.topic)
    except ScoringInputError as error:
        parsed.topic = None
        return parsed, str(error)
    return parsed, None


def fast_line(line: bytes) -> tuple[str, TopicAnnotation] | None:
    """(topic id, plain annotation) of a line that the importer would accept as it is (token
    contents aside); None when anything is unusual."""
    global _parser
    if _parser is None:
        _parser = simdjson.Parser()
    try:
        document = _parser.parse(line)
    except RuntimeError as error:
        if "re-use" not in str(error):  # (BIGINT_ERROR, DEPTH_ERROR)
            return None
        _parser = simdjson.Parser()  # a proxy of the last document is still alive somewhere
        try:
            document = _parser.parse(line)
        except Exception:  # noqa: BLE001
            return None
    except Exception:  # noqa: BLE001 (ValueError, UnicodeDecodeError...: the importer's reader says what)
        return None
    try:
        return _annotation(document)
    except Exception:  # noqa: BLE001 (anything unexpected: the importer's reader decides)
        return None


def _annotation(document) -> tuple[str, TopicAnnotation] | None:
    """The checks of ``TopicParser`` (flattened=False) on a simdjson document, in the same
    terms (exact types: a JSON decoder gives no subclasses, and ``bool`` is not an integer);
    None at the first thing the importer would report, or that is merely unusual."""
    if type(document) is not _Object:
        return None
    names = list(document)
    present = set(names)  # (looked up here: simdjson's lookup of a missing key raises, slowly)
    if (
        len(present) != len(names)
        or "id" not in present
        or "tokens" not in present
        or "mentions" not in present
    ):
        return None  # (a repeated key: json keeps the last value, simdjson's lookup the first)

    value = document["id"]
    if type(value) is int:
        topic_id = str(value)
    elif type(value) is str and value:
        topic_id = value
    else:
        return None

    tokens = document["tokens"]
    if type(tokens) is not _Array:
        return None
    sizes = []
    for paragraph in tokens:
        if type(paragraph) is not _Array:
            return None
        sizes.append(len(paragraph))  # (the tokens themselves are never decoded)
    count = len(sizes)

    doc_ids = document["doc_ids"] if "doc_ids" in present else None
    if doc_ids is not None:
        if type(doc_ids) is not _Array or len(doc_ids) != count:
            return None
        for doc_id in doc_ids.as_list():
            if type(doc_id) is not int and type(doc_id) is not str:
                return None

    metadata = document["metadata"] if "metadata" in present else None
    if metadata is not None:
        if type(metadata) is _Array:
            if len(metadata) != count:
                return None
            entries = iter(metadata)
        elif type(metadata) is _Object:
            entries = metadata.values()  # (decoded: dicts)
        else:
            return None
        for entry in entries:
            if type(entry) is not _Object and type(entry) is not dict:
                return None

    sentences = document["sentences"] if "sentences" in present else None
    if sentences is not None:
        if type(sentences) is not _Array or len(sentences) != count:
            return None
        value = sentences.as_list()
        paragraphs = [range(size) for size in sizes]  # (the helpers take only the lengths)
        shift = 1 if ends_look_inclusive(value, paragraphs) else 0
        if all_sentence_bounds(value, paragraphs, shift) is None:
            return None

    if "source" in present and type(document["source"]) is not str:
        return None

    mentions = document["mentions"]
    if type(mentions) is not _Array:
        return None
    keys: dict = {}  # mention key -> None, in file order
    cluster_of: dict = {}
    clusters: set[str] = set()
    for mention in mentions.as_list():
        if type(mention) is not list:
            return None
        if len(mention) == 4:
            paragraph, start, end, cluster = mention
            if type(cluster) is int:
                cluster = str(cluster)
            elif type(cluster) is not str:
                return None
        elif len(mention) == 3:
            paragraph, start, end = mention
            cluster = None
        else:
            return None
        if (
            type(paragraph) is not int
            or type(start) is not int
            or type(end) is not int
            or not 0 <= paragraph < count
            or not 0 <= start <= end < sizes[paragraph]
        ):
            return None
        key = (paragraph, ((start, end),))
        if key in keys:
            return None
        keys[key] = None
        if cluster is not None:
            cluster_of[key] = cluster
            clusters.add(cluster)

    relations: list[tuple[str, str]] = []
    if "relations" in present:
        value = document["relations"]
        if type(value) is not _Array:
            return None
        for relation in value.as_list():
            if type(relation) is not list or len(relation) != 2:
                return None
            parent, child = relation
            if type(parent) is int:
                parent = str(parent)
            elif type(parent) is not str or not parent:
                return None
            if type(child) is int:
                child = str(child)
            elif type(child) is not str or not child:
                return None
            if parent not in clusters or child not in clusters or parent == child:
                return None
            relations.append((parent, child))
        if len(set(relations)) != len(relations) or (relations and find_cycles(relations)):
            return None  # (a repeated relation is a warning of the importer's)

    annotation = TopicAnnotation(
        topic_id=topic_id,
        mentions=tuple(keys),
        cluster_of=cluster_of,
        clusters=coval_cluster_order(cluster_of),
        relations=tuple(relations),
        links=(),
        token_counts=tuple(sizes),
    )
    return topic_id, annotation
