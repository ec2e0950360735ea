"""Every golden case of fixtures/golden/ (hand-computed values, arithmetic in each file)."""

from __future__ import annotations

import ast
import json
import math
import operator
from fractions import Fraction
from pathlib import Path

import pytest

from corefscore.metrics.alpha import mention_units, nominal_alpha, relation_units
from corefscore.metrics.anaphora import anaphor_counts, overall, relation_counts
from corefscore.metrics.coreference import conll_f1, coreference_counts
from corefscore.metrics.counts import Counts, add_counts
from corefscore.metrics.hierarchy import ClusterGraph, hierarchy_counts, hierarchy_scores
from corefscore.metrics.iaa import MetricSpec, aggregate
from corefscore.metrics.mention_detection import mention_detection_counts
from corefscore.metrics.path_ratio import path_ratio_counts

GOLDEN = Path(__file__).resolve().parents[3] / "fixtures" / "golden"
OPERATORS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


def value(expression: str | None) -> float | None:
    """A fraction expression of the golden files ("7/18", "(1 + 4/5)/3", "sqrt(2/27)")."""
    if expression is None:
        return None

    def evaluate(node):
        if isinstance(node, ast.Expression):
            return evaluate(node.body)
        if isinstance(node, ast.Constant):
            return Fraction(node.value)
        if isinstance(node, ast.BinOp):
            return OPERATORS[type(node.op)](evaluate(node.left), evaluate(node.right))
        if isinstance(node, ast.Call) and node.func.id == "sqrt":
            return math.sqrt(evaluate(node.args[0]))
        raise ValueError(f"unsupported expression {expression!r}")

    return float(evaluate(ast.parse(expression, mode="eval")))


def cases(metric: str) -> list:
    found = []
    for path in sorted(GOLDEN.glob("*.json")):
        document = json.loads(path.read_text())
        if document["metric"] == metric:
            found += [
                pytest.param(document, case, id=f"{path.stem}: {case['name']}")
                for case in document["cases"]
            ]
    return found


def assert_prf(counts: Counts, expected: list[str]) -> None:
    precision, recall = (value(e) for e in expected)
    assert counts.precision == pytest.approx(precision, rel=1e-12, abs=1e-15)
    assert counts.recall == pytest.approx(recall, rel=1e-12, abs=1e-15)


def mention(item) -> tuple:
    document, spans = item
    return (document, tuple(tuple(span) for span in spans))


def relation(item) -> tuple:
    kind, anaphor, antecedent = item
    return (kind, mention(anaphor), mention(antecedent))


def side(item) -> ClusterGraph:
    return ClusterGraph(item["mentions"], [tuple(r) for r in item["relations"]])


@pytest.mark.parametrize(("document", "case"), cases("coreference"))
def test_coreference_golden_case(document, case):
    keep = case.get("keep_singletons", document["keep_singletons"])
    counts = coreference_counts(case["key"], case["response"], keep_singletons=keep)
    for name, expected in case["expected"].items():
        if name == "conll_f1":
            assert conll_f1(counts) == pytest.approx(value(expected), rel=1e-12, abs=1e-15)
        else:
            assert_prf(counts[name], expected)


@pytest.mark.parametrize(("document", "case"), cases("mention_detection"))
def test_mention_detection_golden_case(document, case):
    key, response = [mention(m) for m in case["key"]], [mention(m) for m in case["response"]]
    for kind, expected in case["expected"].items():
        assert_prf(mention_detection_counts(key, response, relaxed=kind == "relaxed"), expected)


@pytest.mark.parametrize(("document", "case"), cases("hierarchy"))
def test_hierarchy_golden_case(document, case):
    key, response = side(case["key"]), side(case["response"])
    any_pair, half = hierarchy_scores(key, response)
    expected = case["expected"]
    assert_prf(any_pair, expected["hierarchy"])
    assert_prf(hierarchy_counts(key, response, counted="raw"), expected["hierarchy_raw"])
    assert_prf(half, expected["hierarchy_50"])
    numerator, denominator = path_ratio_counts(key, response)
    assert (numerator, denominator) == (
        value(expected["path_ratio"][0]),
        value(expected["path_ratio"][1]),
    )


@pytest.mark.parametrize(("document", "case"), cases("anaphora"))
def test_anaphora_golden_case(document, case):
    key, response = [relation(r) for r in case["key"]], [relation(r) for r in case["response"]]
    for name, expected in case["expected"].items():
        if name.startswith("anaphors_"):
            assert_prf(anaphor_counts(key, response, relaxed=name.endswith("relaxed")), expected)
            continue
        per_type = relation_counts(key, response, relaxed=name == "relaxed")
        for kind, prf in expected.items():
            assert_prf(overall(per_type) if kind == "overall" else per_type[kind], prf)


@pytest.mark.parametrize(("document", "case"), cases("alpha"))
def test_alpha_golden_case(document, case):
    if "rows" in case:
        rows = case["rows"]
    elif "links" in case:
        rows = relation_units([[relation(r) for r in links] for links in case["links"]])
    else:
        rows = mention_units(
            [[mention(m) for m in ms] for ms in case["mentions"]], case["token_counts"]
        )
    result = nominal_alpha(rows)
    if case["expected"] is None:
        assert result is None
    else:
        assert result == pytest.approx(value(case["expected"]), rel=1e-12)


@pytest.mark.parametrize(("document", "case"), cases("iaa"))
def test_iaa_aggregation_golden_case(document, case):
    spec = MetricSpec("f1", lambda counts: Counts(*counts), lambda counts: counts.f1, add_counts)
    topics, overall_scores = aggregate(case["counts"], [spec])
    for topic, expected in case["expected"]["topics"].items():
        got = topics[topic]["f1"]
        assert got["avg"] == pytest.approx(value(expected["avg"]), rel=1e-12, abs=1e-15)
        assert got["max"] == pytest.approx(value(expected["max"]), rel=1e-12, abs=1e-15)
        assert got["pairs"] == pytest.approx(
            {p: value(v) for p, v in expected["pairs"].items()}, rel=1e-12
        )
    for name, expected in case["expected"]["overall"].items():
        assert overall_scores["f1"][name] == pytest.approx(value(expected), rel=1e-12, abs=1e-15), (
            name
        )
