"""Both ChEMU steps, mentions then links, trained and scored end to end from raw text.

`train_chemu_pipeline` trains, per seed, the link model (`chemu_training.train_chemu`) and
the mention tagger (`chemu_mentions.train_chemu_mentions`) on the same training share (one
seed holds out the same snippets for both), and scores the held-out snippets from their raw
text: mention detection, anaphor detection and relations, exact and relaxed, with the
ChEMU scorer (`annotation.domain.scoring.api.score_chemu`). The first seed's models are the
ones saved; the others go to a temporary folder. The figures of every seed, their mean and
standard deviation go to a results JSON (what `python -m bench mentions` prints).
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from annotation.domain.corpus import TopicData
from modelserve.arrays import FloatArray
from modelserve.backends import chemu_model
from modelserve.backends.chemu_mentions import train_chemu_mentions
from modelserve.backends.chemu_training import train_chemu

RESULTS_FILE = "chemu-heldout.json"


def train_chemu_pipeline(
    topics: list[TopicData],
    *,
    links_out: Path,
    mentions_out: Path,
    seeds: Sequence[int] = (0,),
    holdout_fraction: float = 0.15,
    link_epochs: int = 3,
    mention_epochs: int = 20,
    encoder_path: str | None = None,
    device: str = "auto",
    results_path: Path | None = None,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Train and score both steps for each seed; returns (and writes) the results."""
    cache: dict[tuple[str, int], FloatArray] = {}
    runs = []
    with tempfile.TemporaryDirectory(prefix="chemu-seeds-") as scratch:
        for k, seed in enumerate(seeds):
            links_dir = links_out if k == 0 else Path(scratch) / f"links-{seed}"
            mentions_dir = mentions_out if k == 0 else Path(scratch) / f"mentions-{seed}"
            log(f"--- seed {seed}: links")
            started = time.monotonic()
            train_chemu(
                topics,
                links_dir,
                seed=seed,
                holdout_fraction=holdout_fraction,
                epochs=link_epochs,
                device=device,
                log=log,
            )
            link_seconds = time.monotonic() - started
            link_model = chemu_model.load(links_dir, device)
            log(f"--- seed {seed}: mentions")
            summary = train_chemu_mentions(
                topics,
                mentions_dir,
                seed=seed,
                holdout_fraction=holdout_fraction,
                epochs=mention_epochs,
                encoder_path=encoder_path,
                device=device,
                link_model=link_model,
                vector_cache=cache,
                log=log,
            )
            runs.append(
                {
                    "seed": seed,
                    "scores": summary["scores"],
                    "link_train_seconds": round(link_seconds, 1),
                    "mention_train_seconds": round(summary["train_seconds"], 1),
                }
            )
            for line in table_lines(summary["scores"]):
                log(line)
    mean = _aggregate([run["scores"] for run in runs], statistics.fmean)
    sd = _aggregate(
        [run["scores"] for run in runs],
        lambda values: statistics.stdev(values) if len(values) > 1 else 0.0,
    )
    results: dict[str, Any] = {
        "seeds": list(seeds),
        "holdout_fraction": holdout_fraction,
        "device": str(link_model.device),
        "runs": runs,
        "mean": mean,
        "sd": sd,
    }
    log(f"--- held out, {len(runs)} seeds: mean ± sd")
    for line in table_lines(mean, sd):
        log(line)
    if results_path is not None:
        results_path.parent.mkdir(parents=True, exist_ok=True)
        results_path.write_text(json.dumps(results, indent=2), encoding="utf-8")
        log(f"results written to {results_path}")
    return results


def _aggregate(scores: list[Any], combine: Callable[[list[float]], float]) -> Any:
    """The same nested dict, each number combined over the runs."""
    first = scores[0]
    if isinstance(first, dict):
        return {key: _aggregate([s[key] for s in scores], combine) for key in first}
    return combine([float(s) for s in scores])


def table_rows(scores: dict[str, Any]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(row name, exact P/R/F1, relaxed P/R/F1) in the ChEMU overview's order."""
    rows = [
        ("mentions", scores["mentions"]["exact"], scores["mentions"]["relaxed"]),
        ("anaphors", scores["anaphors"]["exact"], scores["anaphors"]["relaxed"]),
        ("relations (all)", scores["exact"]["overall"], scores["relaxed"]["overall"]),
    ]
    rows += [
        (name, scores["exact"]["per_type"][name], scores["relaxed"]["per_type"][name])
        for name in scores["exact"]["per_type"]
    ]
    return rows


def table_lines(scores: dict[str, Any], sd: dict[str, Any] | None = None) -> list[str]:
    """A plain-text table; with `sd`, each figure is `mean ± sd`."""
    width = 15 if sd is not None else 7
    heads = ("P", "R", "F1")
    lines = [
        f"{'':20} "
        + " ".join(f"{'exact ' + h:>{width}}" for h in heads)
        + "   "
        + " ".join(f"{'relaxed ' + h:>{width}}" for h in heads)
    ]
    sd_rows = table_rows(sd) if sd is not None else None
    for index, (name, exact, relaxed) in enumerate(table_rows(scores)):
        cells = []
        for part, values in ((1, exact), (2, relaxed)):
            for key in ("precision", "recall", "f1"):
                cell = f"{values[key]:.4f}"
                if sd_rows is not None:
                    deviation: dict[str, float] = sd_rows[index][part]  # type: ignore[assignment]
                    cell += f" ± {deviation[key]:.4f}"
                cells.append(f"{cell:>{width}}")
            cells.append("  ")
        lines.append(f"{name:20} " + " ".join(cells).rstrip())
    return lines
