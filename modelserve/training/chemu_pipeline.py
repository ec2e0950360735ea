"""Both ChEMU steps, mentions then links, trained and scored end to end from raw text.

`train_chemu_pipeline` trains, per seed, the link model (`chemu_training.train_chemu`) and
the mention tagger (`chemu_mentions.train_chemu_mentions`) on the same training share (one
seed holds out the same snippets for both), and scores the held-out snippets from their raw
text: mention detection, anaphor detection and relations, exact and relaxed, with the
ChEMU scorer (`corefscore.scoring.api.score_chemu`). The first seed's models are the
ones saved; the others go to a temporary folder. The figures of every seed, their mean and
standard deviation go to a results JSON (what `python -m bench mentions` prints).
"""

from __future__ import annotations

import json
import multiprocessing
import pickle
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import torch

from corefscore.corpus import TopicData
from modelserve.arrays import FloatArray
from modelserve.backends import chemu_model
from modelserve.backends.chemu_mentions import encoded, train_chemu_mentions
from modelserve.backends.chemu_training import train_chemu
from modelserve.backends.mention_features import WordEncoder
from modelserve.devices import pick_device

RESULTS_FILE = "chemu-heldout.json"


def train_chemu_pipeline(
    topics: list[TopicData],
    *,
    links_out: Path,
    mentions_out: Path,
    seeds: Sequence[int] = (0,),
    holdout_fraction: float = 0.15,
    link_epochs: int = 3,
    mention_epochs: int = 12,
    encoder_path: str | None = None,
    device: str = "auto",
    results_path: Path | None = None,
    jobs: int = 1,
    vector_cache: Path | None = None,
    vector_folder: Path | None = None,
    log: Callable[[str], None] = print,
    mention_options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Train and score both steps for each seed; returns (and writes) the results.

    `mention_options`: more keyword arguments of `train_chemu_mentions` (hidden, context,
    precision, ...), for experiments.

    With `jobs` > 1 the seeds train in that many processes at once (each on one CPU thread),
    after the documents are encoded once here. `vector_cache`: a file that keeps the encoder
    vectors between runs (read if it exists, else written), for repeated experiments.
    """
    cache: dict[tuple[str, int], FloatArray] = {}
    if vector_cache is not None and vector_cache.is_file():
        with vector_cache.open("rb") as stream:
            cache = pickle.load(stream)  # (a file this function wrote)
        log(f"encoder vectors of {len(cache)} documents read from {vector_cache}")
    elif vector_cache is not None:
        encoded(WordEncoder(encoder_path, pick_device(device)), topics, cache)
        with vector_cache.open("wb") as stream:
            pickle.dump(cache, stream)
    options = {
        "holdout_fraction": holdout_fraction,
        "link_epochs": link_epochs,
        "mention_epochs": mention_epochs,
        "encoder_path": encoder_path,
        "device": device,
        "vector_folder": vector_folder,
        "mention_options": dict(mention_options or {}),
    }
    with tempfile.TemporaryDirectory(prefix="chemu-seeds-") as scratch:
        places = [
            (
                links_out if k == 0 else Path(scratch) / f"links-{seed}",
                mentions_out if k == 0 else Path(scratch) / f"mentions-{seed}",
            )
            for k, seed in enumerate(seeds)
        ]
        if jobs > 1 and len(seeds) > 1:
            log(f"encoding the documents once for {len(seeds)} seeds in {jobs} processes")
            # (the vectors of the cache are reused; encoded() adds any missing)
            encoded(WordEncoder(encoder_path, pick_device(device)), topics, cache)
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
                futures = [
                    pool.submit(_seed_in_process, topics, seed, *place, options, cache)
                    for seed, place in zip(seeds, places, strict=True)
                ]
                runs = [future.result() for future in futures]
        else:
            runs = [
                _seed(topics, seed, *place, options, cache, log)
                for seed, place in zip(seeds, places, strict=True)
            ]
    mean = _aggregate([run["scores"] for run in runs], statistics.fmean)
    sd = _aggregate(
        [run["scores"] for run in runs],
        lambda values: statistics.stdev(values) if len(values) > 1 else 0.0,
    )
    results: dict[str, Any] = {
        "seeds": list(seeds),
        "holdout_fraction": holdout_fraction,
        "device": str(pick_device(device)),
        "jobs": jobs,
        "runs": runs,
        "mean": mean,
        "sd": sd,
    }
    for run in runs:
        log(f"--- held out, seed {run['seed']}")
        for line in table_lines(run["scores"]):
            log(line)
    log(f"--- held out, {len(runs)} seeds: mean ± sd")
    for line in table_lines(mean, sd):
        log(line)
    if results_path is not None:
        results_path.parent.mkdir(parents=True, exist_ok=True)
        results_path.write_text(json.dumps(results, indent=2), encoding="utf-8")
        log(f"results written to {results_path}")
    return results


def _seed_in_process(
    topics: list[TopicData],
    seed: int,
    links_dir: Path,
    mentions_dir: Path,
    options: dict[str, Any],
    cache: dict[tuple[str, int], FloatArray],
) -> dict[str, Any]:
    torch.set_num_threads(1)
    return _seed(
        topics,
        seed,
        links_dir,
        mentions_dir,
        options,
        cache,
        lambda line: print(f"[seed {seed}] {line}", flush=True),
    )


def _seed(
    topics: list[TopicData],
    seed: int,
    links_dir: Path,
    mentions_dir: Path,
    options: dict[str, Any],
    cache: dict[tuple[str, int], FloatArray],
    log: Callable[[str], None],
) -> dict[str, Any]:
    """One seed: the link model, then the tagger, scored end to end on the held-out share."""
    log(f"--- seed {seed}: links")
    started = time.monotonic()
    train_chemu(
        topics,
        links_dir,
        seed=seed,
        holdout_fraction=options["holdout_fraction"],
        epochs=options["link_epochs"],
        device=options["device"],
        log=log,
    )
    link_seconds = time.monotonic() - started
    link_model = chemu_model.load(links_dir, options["device"])
    log(f"--- seed {seed}: mentions")
    summary = train_chemu_mentions(
        topics,
        mentions_dir,
        seed=seed,
        holdout_fraction=options["holdout_fraction"],
        epochs=options["mention_epochs"],
        encoder_path=options["encoder_path"],
        device=options["device"],
        link_model=link_model,
        vector_cache=cache,
        vector_folder=options["vector_folder"],
        log=log,
        **options["mention_options"],
    )
    return {
        "seed": seed,
        "scores": summary["scores"],
        "link_train_seconds": round(link_seconds, 1),
        "mention_train_seconds": round(summary["train_seconds"], 1),
        "encode_seconds": round(summary.get("encode_seconds", 0.0), 1),
    }


def _aggregate(scores: list[Any], combine: Callable[[list[float]], float]) -> Any:
    """The same nested dict, each number combined over the runs. What is not a number or a
    dict (the scorer's bootstrap intervals, `f1_ci`: lists) stays in each run only."""
    first = scores[0]
    if isinstance(first, dict):
        return {
            key: _aggregate([s[key] for s in scores], combine)
            for key in first
            if first[key] is None or isinstance(first[key], dict | int | float)
        }
    # An undefined figure (None: nothing to score) is left out; too few left, it stays None.
    defined = [float(s) for s in scores if s is not None]
    try:
        return combine(defined) if defined else None
    except statistics.StatisticsError:
        return None


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
                # undefined: nothing to score on either side (docs/scoring.md)
                value = values.get(key)
                cell = "undef." if value is None else f"{value:.4f}"
                spread: dict[str, Any] = sd_rows[index][part] if sd_rows else {}  # type: ignore[assignment]
                deviation = spread.get(key)
                if value is not None and deviation is not None:
                    cell += f" ± {deviation:.4f}"
                cells.append(f"{cell:>{width}}")
            cells.append("  ")
        lines.append(f"{name:20} " + " ".join(cells).rstrip())
    return lines
