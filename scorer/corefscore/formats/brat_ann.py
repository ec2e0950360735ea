"""Parsing and checking the lines of a brat ``.ann`` file against its text."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from itertools import pairwise

from corefscore.corpus import Spans
from corefscore.formats.errors import Problems

_FRAGMENT = re.compile(r"^(\d+) (\d+)$")

RelationLine = tuple[str, str, str, str, int]  # (id, type, Arg1, Arg2, line number)
Equivalence = tuple[str, list[str], int]  # (type, member ids, line number)


class Entity:
    def __init__(
        self, id_: str, type_: str, fragments: list[tuple[int, int]], text: str | None, line: int
    ):
        self.id, self.type, self.fragments, self.text, self.line = id_, type_, fragments, text, line
        self.spans: Spans = ()


class AnnParser:
    """Parses and checks the ``.ann`` lines against the text; problems name the brat id."""

    def __init__(self, text: str, problems: Problems):
        self.text, self.problems = text, problems

    def parse(
        self, lines: list[str]
    ) -> tuple[dict[str, Entity], list[RelationLine], list[Equivalence], list[str]]:
        """(entities by id, relations, equivalences, other lines)."""
        entities: dict[str, Entity] = {}
        relations: list[RelationLine] = []
        equivalences: list[Equivalence] = []
        other_lines: list[str] = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            fields = line.split("\t")
            id_ = fields[0]
            if id_.startswith("T"):
                entity = self.entity(fields, number)
                if entity is not None:
                    if entity.id in entities:
                        first = entities[entity.id].line
                        self.problems.error(
                            entity.id, None, f"id used twice (lines {first} and {number})"
                        )
                    else:
                        entities[entity.id] = entity
            elif id_.startswith("R"):
                relation = self.relation(fields, number)
                if relation is not None:
                    relations.append(relation)
            elif id_ == "*":
                parts = fields[1].split() if len(fields) > 1 else []
                if len(parts) < 2:
                    self.problems.error(
                        number, None, "an equivalence must be '*<TAB>Type T1 T2 ...'"
                    )
                else:
                    equivalences.append((parts[0], parts[1:], number))
            else:
                other_lines.append(line)
        self.check_references(entities, relations, equivalences)
        return entities, relations, equivalences, other_lines

    def check_references(
        self,
        entities: dict[str, Entity],
        relations: list[RelationLine],
        equivalences: list[Equivalence],
    ) -> None:
        """Every equivalence member and relation argument names an entity of the file."""
        for _type, members, number in equivalences:
            for member in members:
                if member not in entities:
                    self.problems.error(number, "*", f"{member} is not an entity of this file")
        for id_, _, arg1, arg2, _ in relations:
            for role, target in (("Arg1", arg1), ("Arg2", arg2)):
                if target not in entities:
                    self.problems.error(id_, role, f"{target} is not an entity of this file")

    def entity(self, fields: list[str], number: int) -> Entity | None:
        id_ = fields[0]
        if len(fields) < 2 or " " not in fields[1]:
            self.problems.error(
                id_, None, "an entity must be 'T1<TAB>Type start end[;start end...]<TAB>text'"
            )
            return None
        type_, offsets = fields[1].split(" ", 1)
        fragments = []
        for part in offsets.split(";"):
            match = _FRAGMENT.match(part.strip())
            if not match:
                self.problems.error(
                    id_, "offsets", f"{offsets!r} is not 'start end[;start end...]'"
                )
                return None
            start, end = int(match.group(1)), int(match.group(2))
            if end > len(self.text):
                self.problems.error(
                    id_, "offsets", f"offset {end} is beyond the text's {len(self.text)} characters"
                )
                return None
            if start >= end:
                self.problems.error(id_, "offsets", f"fragment {start} {end} is empty or reversed")
                return None
            fragments.append((start, end))
        ordered = sorted(fragments)
        for (a_start, a_end), (b_start, b_end) in pairwise(ordered):
            if a_end > b_start:
                self.problems.error(
                    id_, "offsets", f"fragments {a_start} {a_end} and {b_start} {b_end} overlap"
                )
                return None
        text = fields[2] if len(fields) > 2 else None
        expected = " ".join(self.text[start:end] for start, end in fragments)
        if text is not None and " ".join(text.split()) != " ".join(expected.split()):
            self.problems.warn(
                id_, "text", f"{text!r} differs from the text at its offsets ({expected!r})"
            )
        return Entity(id_, type_, fragments, text, number)

    def relation(self, fields: list[str], number: int) -> tuple[str, str, str, str, int] | None:
        id_ = fields[0]
        parts = fields[1].split() if len(fields) > 1 else []
        args = dict(part.split(":", 1) for part in parts[1:] if ":" in part)
        if len(parts) != 3 or set(args) != {"Arg1", "Arg2"}:
            self.problems.error(id_, None, "a relation must be 'R1<TAB>Type Arg1:T1 Arg2:T2'")
            return None
        return id_, parts[0], args["Arg1"], args["Arg2"], number


def token_spans(entity: Entity, starts: list[int], ends: list[int], problems: Problems) -> Spans:
    spans = []
    for start, end in sorted(entity.fragments):
        first = bisect_left(ends, start + 1)
        last = bisect_right(starts, end - 1) - 1
        if first > last:
            problems.error(
                entity.id, "offsets", f"fragment {start} {end} covers no token (only spaces)"
            )
            return ()
        spans.append((first, last))
    return tuple(spans)
