"""Fill in the Python side's answers to the twins' golden cases (fixtures/golden/twins/*.json).

The effects, state, question ranking and cluster support exist in Python and in TypeScript;
pytest and Vitest read the same JSON cases, so a change on one side that the other does not
follow fails. The committed JSON is the source: the tests compare against it and never run
this. A new case is written into the JSON by hand (its inputs, and its expectation or a
placeholder); this script then recomputes every expectation from the Python implementation
(`state_after` / `refused`, `snapshot` / `refused`, `order`, `clusters` / `links`) and
rewrites the files. Review the diff: a changed expectation is a behaviour change, and the
TypeScript side must follow it.

    PYTHONPATH=scorer .venv/bin/python tools/twin_goldens.py
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adjudication.domain.consensus import KeyLink, Version, VersionCluster, consensus
from annotation.domain.effects import apply_effects
from annotation.domain.errors import CorruptEffects
from modelserve.questions import Candidate, rank
from tests.domain.twins import TWINS, picture, state_from

Case = dict[str, Any]


def effects(case: Case, golden: dict[str, Any]) -> None:
    case.pop("state_after", None)
    case.pop("refused", None)
    state = state_from(golden["states"][case["state"]])
    try:
        apply_effects(state, copy.deepcopy(case["effects"]))
    except CorruptEffects as error:
        # A malformed effect's message ends in the language's own error text.
        message = str(error)
        case["refused"] = message.split(":")[0] if message.startswith("malformed") else message
    else:
        case["state_after"] = picture(state)


def states(case: Case, golden: dict[str, Any]) -> None:
    case.pop("snapshot", None)
    case.pop("refused", None)
    try:
        case["snapshot"] = picture(state_from(case["state"]))
    except ValueError:
        case["refused"] = True


def ranking(case: Case, golden: dict[str, Any]) -> None:
    case["order"] = [c.suggestion for c in rank(Candidate(**c) for c in case["candidates"])]


def _key(mention: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    return (10, ((mention, mention),))


def support(case: Case, golden: dict[str, Any]) -> None:
    versions = [
        Version(
            mentions=frozenset(
                _key(m) for m in range(1, case["mentions"] + 1) if m not in v["rejected"]
            ),
            clusters={
                i: VersionCluster(frozenset(_key(m) for m in members))
                for i, members in enumerate(v["clusters"])
            },
            links=frozenset(KeyLink(t, _key(a), _key(b)) for t, a, b in v["links"]),
        )
        for v in case["versions"]
    ]
    result = consensus(versions)
    case["clusters"] = [
        {"members": [spans[0][0] for _, spans in c.members], "support": c.support}
        for c in result.clusters
    ]
    case["links"] = [
        {
            "link": [link.type, link.anaphor[1][0][0], link.antecedent[1][0][0]],
            "support": result.link_support[link],
        }
        for link in result.links
    ]


def dump(value: Any, indent: str = "") -> str:
    """JSON with what fits in 96 characters on one line (a state's row, a short effect)."""
    flat = json.dumps(value)
    if len(indent) + len(flat) <= 96 or not isinstance(value, dict | list) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {dump(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    return "[\n" + ",\n".join(inner + dump(v, inner) for v in value) + "\n" + indent + "]"


FILL: dict[str, Callable[[Case, dict[str, Any]], None]] = {
    "effects": effects,
    "states": states,
    "ranking": ranking,
    "support": support,
}


def main() -> None:
    for name, fill in FILL.items():
        path = TWINS / f"{name}.json"
        golden = json.loads(path.read_text())
        if "states" in golden:  # the named start states, in canonical form
            golden["states"] = {k: picture(state_from(v)) for k, v in golden["states"].items()}
        for case in golden["cases"]:
            fill(case, golden)
        path.write_text(dump(golden) + "\n")
        print(path.relative_to(TWINS.parents[2]), len(golden["cases"]), "cases")


if __name__ == "__main__":
    main()
