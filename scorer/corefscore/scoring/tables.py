"""Readable tables of the scorer's results (percentages with two decimals, as SciCo prints)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def render(command: str, format: str, result: Mapping[str, Any]) -> str:
    if command == "iaa":
        return _iaa(result)
    text = _scico(result) if format == "scico" else _chemu(result)
    scope = result.get("scope")
    if scope:
        subset = " (a subset)" if "subset" in scope else ""
        level = (
            f", as one corpus-level document (cluster ids read {scope['cluster_ids']})"
            if scope["level"] == "corpus"
            else ""
        )
        text += f"\n{scope['topics']} topic(s) scored{subset}{level}\n"
    if "per_topic" in result:
        text += "\n" + _per_topic(format, result["per_topic"])
    return text


def _per_topic(format: str, rows: list[Mapping[str, Any]]) -> str:
    """A row per topic: its F1s (and path ratio), the scores of that topic alone."""
    if format == "scico":
        header = ["topic", "CoNLL F1", "hierarchy F1", "hierarchy 50% F1", "path ratio"]
        body = [
            [
                str(row["topic"]),
                _pct(row["conll_f1"]),
                _pct(row["hierarchy"]["f1"]),
                _pct(row["hierarchy_50"]["f1"]),
                _pct(row["path_ratio"]["micro"]),
            ]
            for row in rows
        ]
    else:
        header = ["topic", "exact F1", "relaxed F1", "anaphors (exact) F1"]
        body = [
            [
                str(row["topic"]),
                _pct(row["exact"]["overall"]["f1"]),
                _pct(row["relaxed"]["overall"]["f1"]),
                _pct(row["anaphors"]["exact"]["f1"]),
            ]
            for row in rows
        ]
    return _table(header, body)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.2f}"


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [header, ["-" * width for width in widths], *rows]
    return "".join(
        "  ".join(
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        + "\n"
        for line in lines
    )


def _prf_row(name: str, prf: Mapping[str, float]) -> list[str]:
    return [name, _pct(prf["precision"]), _pct(prf["recall"]), _pct(prf["f1"])]


def _scico(result: Mapping[str, Any]) -> str:
    rows = [
        _prf_row("mention detection (exact)", result["mention_detection"]["exact"]),
        _prf_row("mention detection (relaxed)", result["mention_detection"]["relaxed"]),
        _prf_row("mentions (coval)", result["mentions"]),
        _prf_row("MUC", result["muc"]),
        _prf_row("B3", result["bcub"]),
        _prf_row("CEAF-e", result["ceafe"]),
        _prf_row("LEA", result["lea"]),
        ["CoNLL F1", "", "", _pct(result["conll_f1"])],
        # "hierarchy" is counted as --hierarchy-count says (default: SciCo's closure count)
        _prf_row("hierarchy", result["hierarchy"]),
        _prf_row("hierarchy, raw edges (not SciCo's)", result["hierarchy_f1_raw"]),
        _prf_row("hierarchy 50%", result["hierarchy_50"]),
    ]
    text = _table(["metric", "precision", "recall", "F1"], rows)
    path = result["path_ratio"]
    return text + f"\npath ratio: micro {_pct(path['micro'])}, macro {_pct(path['macro'])}\n"


def _chemu(result: Mapping[str, Any]) -> str:
    rows = []
    for kind in ("exact", "relaxed"):
        rows.append(_prf_row(f"{kind}: overall", result[kind]["overall"]))
        rows += [_prf_row(f"{kind}: {name}", prf) for name, prf in result[kind]["per_type"].items()]
    rows += [
        _prf_row(f"anaphors ({kind})", result["anaphors"][kind]) for kind in ("exact", "relaxed")
    ]
    rows += [
        _prf_row(f"mention detection ({kind})", result["mention_detection"][kind])
        for kind in ("exact", "relaxed")
    ]
    return _table(["relations", "precision", "recall", "F1"], rows)


def _iaa(result: Mapping[str, Any]) -> str:
    rows = []
    for metric, s in result["overall"].items():
        show = _alpha if metric.startswith("alpha") else _pct  # alpha is no percentage
        rows.append(
            [metric, show(s["avg"]), show(s["std"]), show(s["max_micro"]), show(s["max_macro"])]
        )
    text = _table(["metric", "AVG", "std", "MAX-micro", "MAX-macro"], rows)
    text += f"\n{len(result['topics'])} topic(s) scored"
    unscored = result["unscored_topics"]
    if unscored:
        text += (
            f"; {len(unscored)} with fewer than two annotations, not scored: {', '.join(unscored)}"
        )
    pooled = result.get("all_annotators")
    if pooled:
        text += (
            f"\nKrippendorff's alpha of all annotators (units pooled over topics): relations "
            f"{_alpha(pooled['alpha_relations'])}, mentions {_alpha(pooled['alpha_mentions'])}"
        )
    return text + "\n"


def _alpha(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"
