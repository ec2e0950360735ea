"""ChEMU from raw text: each lever's exact relation F1 on held-out splits of ChEMU-Ref train.

`python -m bench.chemu_levers [--splits 0,1,2] [--work DIR] [--folds 2]` (not part of `make
bench`: about 15 CPU-minutes per split on 2 cores). Per split s, 15 % of the snippets with
links are held out as the pipeline holds them out (`chemu_training.split_topics`, seed s), and
on the rest it trains, each with no held-out part of its own:
- three link models on gold mentions and three taggers, init seeds s, s+10, s+20;
- the jackknife: a tagger per fold of the training share (`--folds`, default 2) finds the
  mentions of the fold it did not see (`chemu_jackknife`), and three more link models (the
  same seeds) learn from the gold snippets and those.
Then every combination is scored end to end from the held-out raw text with the product's
code (`chemu_ensemble.voted_mentions`, `ensemble_links`; boundary correction on) and our
scorer (`score_chemu`): one tagger or three voting, with one link model or three averaged,
gold-trained or jackknifed, and the link threshold around its 0.5. Models and results stay in
`--work` (default /tmp/chemu-levers): a rerun trains only what is missing and prints the
table of every split done, mean and sample sd (what docs/models.md shows). `--singles` trains
the init-s models only (baseline and jackknife rows); `--gold-members` then adds the ensemble's
members without their jackknifed link models (the ensemble rows alone); `--members 5` trains
two more members per split (init seeds s+30, s+40) for the ensemble-of-5 rows.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import sys
import time
from pathlib import Path
from typing import Any

THRESHOLDS = (0.4, 0.45, 0.5, 0.55, 0.6)
COMBINATIONS = {
    # name: (taggers, link models, jackknifed links)
    "baseline: one tagger, one link model": (1, 1, False),
    "ensemble of 3 (mentions voted, links averaged)": (3, 3, False),
    "one tagger, jackknifed link model": (1, 1, True),
    "ensemble of 3, jackknifed link models": (3, 3, True),
    "ensemble of 5 (mentions voted, links averaged)": (5, 5, False),
    "ensemble of 5, jackknifed link models": (5, 5, True),
}
MOST_MEMBERS = 5


def train_split(
    topics: list[Any],
    split: int,
    work: Path,
    folds: int,
    cache_dir: Path,
    epochs: int,
    members: int,
    device_name: str = "cpu",
    jackknifed_members: bool = True,
) -> None:
    """Train what is missing for one split into work/split-<s>/."""

    from modelserve.backends import chemu_model, mention_tagger
    from modelserve.backends.chemu_jackknife import jackknife_topics
    from modelserve.backends.chemu_mentions import HIDDEN, encoded, train_tagger
    from modelserve.backends.chemu_training import split_topics, train_chemu
    from modelserve.backends.mention_features import WordEncoder
    from modelserve.backends.vector_cache import VectorCache
    from modelserve.devices import pick_device

    folder = work / f"split-{split}"
    folder.mkdir(parents=True, exist_ok=True)
    times_file = folder / "seconds.json"
    seconds = json.loads(times_file.read_text()) if times_file.is_file() else {}
    usable = [t for t in topics if t.links and len(t.mentions) >= 2]
    train, _ = split_topics(usable, 0.15, split)
    device = pick_device(device_name)
    encoder = WordEncoder(None, device)
    store = VectorCache(cache_dir, encoder)
    cache: dict[Any, Any] = {}
    started = time.monotonic()
    vectors = encoded(encoder, train, cache, store)
    seconds.setdefault("encoding", round(time.monotonic() - started, 1))

    def timed(name: str, action: Any, *args: Any, **options: Any) -> None:
        begun = time.monotonic()
        action(*args, **options)
        seconds[name] = round(time.monotonic() - begun, 1)
        times_file.write_text(json.dumps(seconds, indent=2))
        print(f"split {split}: {name} in {seconds[name]:.0f} s", flush=True)

    def gold_pair(init: int) -> None:
        links = folder / f"links-{init}"
        if not chemu_model.is_complete(links):
            timed(
                f"links-{init}",
                train_chemu,
                train,
                links,
                seed=init,
                holdout_fraction=0.0,
                device=device_name,
                log=lambda _: None,
            )
        mentions = folder / f"mentions-{init}"
        if not mention_tagger.is_complete(mentions):

            def tagger() -> None:
                trained = train_tagger(
                    train,
                    vectors=vectors,
                    encoder=encoder,
                    seed=init,
                    epochs=epochs,
                    layers=2,
                    hidden=HIDDEN,
                    device=device,
                    encoder_path=None,
                    on_epoch=lambda epoch, loss: None,
                )
                trained.config["correct_boundaries"] = True
                mention_tagger.save(trained, mentions)

            timed(f"mentions-{init}", tagger)

    def jackknifed_links(init: int, predicted: list[Any]) -> None:
        links = folder / f"jackknife-links-{init}"
        if not chemu_model.is_complete(links):
            timed(
                f"jackknife-links-{init}",
                train_chemu,
                train + predicted,
                links,
                seed=init,
                holdout_fraction=0.0,
                device=device_name,
                log=lambda _: None,
            )

    # the single models first, so that a split cut short still compares the baseline
    gold_pair(split)
    predicted_file = folder / "jackknife.pickle"
    if not predicted_file.is_file():

        def jackknife() -> None:
            predicted = jackknife_topics(
                train,
                folds=folds,
                seed=split,
                epochs=epochs,
                encoder=encoder,
                device=device,
                vector_cache=cache,
                store=store,
            )
            predicted_file.write_bytes(pickle.dumps(predicted))

        timed(f"jackknife taggers ({folds} folds)", jackknife)
    predicted = pickle.loads(predicted_file.read_bytes())  # (written above, by this script)
    jackknifed_links(split, predicted)
    for init in (split + 10 * k for k in range(1, members)):
        gold_pair(init)
        if jackknifed_members:
            jackknifed_links(init, predicted)


def score_split(topics: list[Any], split: int, work: Path) -> dict[str, Any]:
    """Every combination's held-out scores for one split (written to work/split-<s>/)."""
    from corefscore.metrics.counts import add_counts
    from corefscore.metrics.mention_detection import mention_detection_counts
    from corefscore.scoring.api import score_chemu
    from modelserve.backends import chemu_model, mention_tagger
    from modelserve.backends.base import MentionSuggestion
    from modelserve.backends.chemu_ensemble import ensemble_links, voted_mentions
    from modelserve.backends.chemu_linking import with_links
    from modelserve.backends.chemu_mentions import with_mentions, without_mentions
    from modelserve.backends.chemu_training import split_topics

    folder = work / f"split-{split}"
    usable = [t for t in topics if t.links and len(t.mentions) >= 2]
    _, holdout = split_topics(usable, 0.15, split)
    inits = [split + 10 * k for k in range(MOST_MEMBERS)]

    def loaded(load: Any, prefix: str) -> list[Any]:
        paths = [folder / f"{prefix}-{i}" for i in inits]
        return [load(path, "cpu") for path in paths if (path / "config.json").is_file()]

    taggers = loaded(mention_tagger.load, "mentions")
    gold_links = loaded(chemu_model.load, "links")
    jk_links = loaded(chemu_model.load, "jackknife-links")
    found = {}
    for count in sorted({n for n, _, _ in COMBINATIONS.values() if n <= len(taggers)}):
        found[count] = [
            voted_mentions(taggers[:count], [d.tokens for d in topic.documents])
            for topic in holdout
        ]
    results: dict[str, Any] = {"snippets": len(holdout)}
    for name, (tagger_count, link_count, jackknifed) in COMBINATIONS.items():
        models = (jk_links if jackknifed else gold_links)[:link_count]
        if len(models) < link_count or tagger_count not in found:
            continue  # not trained (--singles)
        rows = {}
        for threshold in THRESHOLDS:
            systems, exact = [], []
            for topic, per_document in zip(holdout, found[tagger_count], strict=True):
                proposed = [
                    MentionSuggestion(d, [list(s) for s in spans], score)
                    for d, mentions in enumerate(per_document)
                    for spans, score in mentions
                ]
                keys = [(m.document, tuple((s, e) for s, e in m.spans)) for m in proposed]
                exact.append(mention_detection_counts([m.key for m in topic.mentions], keys))
                raw = with_mentions(without_mentions(topic), proposed)
                systems.append(with_links(raw, ensemble_links(models, raw, threshold)))
            scores = score_chemu(holdout, systems)
            rows[str(threshold)] = {
                "relations": scores["exact"]["overall"]["f1"],
                "relaxed": scores["relaxed"]["overall"]["f1"],
                "mentions": add_counts(exact).prf()["f1"],
            }
        results[name] = rows
        print(f"split {split}: {name}: {rows['0.5']}", flush=True)
    (folder / "scores.json").write_text(json.dumps(results, indent=2))
    return results


def table(work: Path) -> list[str]:
    """Exact relation F1 per split at threshold 0.5, mean ± sd, and the threshold rows."""
    done = sorted(work.glob("split-*/scores.json"))
    if not done:
        return ["(no split scored yet)"]
    splits = [json.loads(path.read_text()) for path in done]
    names = [p.parent.name.removeprefix("split-") for p in done]
    lines = [
        "| lever | " + " | ".join(f"split {n}" for n in names) + " | mean ± sd | mentions |",
        "|---|" + "---:|" * (len(names) + 2),
    ]

    def row(label: str, name: str, threshold: str) -> str | None:
        if any(name not in split for split in splits):
            return None
        values = [split[name][threshold]["relations"] for split in splits]
        mentions = statistics.fmean(split[name][threshold]["mentions"] for split in splits)
        sd = statistics.stdev(values) if len(values) > 1 else 0.0
        cells = " | ".join(f"{v:.4f}" for v in values)
        return f"| {label} | {cells} | {statistics.fmean(values):.4f} ± {sd:.4f} | {mentions:.4f} |"

    rows = [row(name, name, "0.5") for name in COMBINATIONS]
    rows += [
        row(f"{name}, link threshold {threshold}", name, str(threshold))
        for name in COMBINATIONS
        for threshold in THRESHOLDS
        if threshold != 0.5
    ]
    return lines + [line for line in rows if line is not None]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", default="0,1,2")
    parser.add_argument("--work", type=Path, default=Path("/tmp/chemu-levers"))
    parser.add_argument("--folds", type=int, default=0, help="0: chemu_jackknife.FOLDS")
    parser.add_argument("--score-only", action="store_true")
    parser.add_argument("--device", default="cpu", help="cpu, cuda or auto (training)")
    parser.add_argument(
        "--singles", action="store_true", help="train the init-s models only (no ensemble)"
    )
    parser.add_argument(
        "--gold-members",
        action="store_true",
        help="the ensemble's two extra members on gold mentions only (no jackknifed ones)",
    )
    parser.add_argument(
        "--members", type=int, default=3, help=f"ensemble members per split (1 to {MOST_MEMBERS})"
    )
    parser.add_argument("--limit", type=int, default=0, help="the first N snippets (a smoke run)")
    parser.add_argument("--epochs", type=int, default=0, help="tagger epochs (0: the default)")
    args = parser.parse_args(argv)

    import torch

    from corefscore.formats.chemu import read_chemu_jsonlines
    from modelserve.backends import vector_cache
    from modelserve.backends.chemu_jackknife import FOLDS
    from modelserve.backends.chemu_mentions import EPOCHS
    from modelserve.command_settings import path_setting

    torch.set_num_threads(min(2, os.cpu_count() or 1))
    topics = read_chemu_jsonlines(path_setting("CHEMU_TRAIN_FILE"), skip_invalid=True).topics
    topics = topics[: args.limit] if args.limit else topics
    epochs = args.epochs or EPOCHS
    cache_dir = path_setting("MODELS_DIR") / vector_cache.FOLDER
    for split in (int(s) for s in args.splits.split(",")):
        if not args.score_only:
            folds = args.folds or FOLDS
            train_split(
                topics,
                split,
                args.work,
                folds,
                cache_dir,
                epochs,
                1 if args.singles else args.members,
                args.device,
                jackknifed_members=not args.gold_members,
            )
        score_split(topics, split, args.work)
    for line in table(args.work):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
