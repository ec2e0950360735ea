"""ChEMU anaphora from raw text: training time and inference speed measured now, and the
held-out table.

Training time: the link model and the mention tagger trained once, as the default model's
single members are (seed 0, the default settings, 15 % held out and scored end to end), into a
temporary folder, with the frozen encoder's vectors read from <MODELS_DIR>/encoder-cache (the
first run on a machine encodes them and says so: a one-off step, timed apart). The default
model trains once, in the background, at the first `make up`; its time is printed, not judged.

The learning loop's retraining (goal: under 3 minutes on 2 idle cores, encoder cache warm) is
timed apart, through the loop's own training function (`learning_fit`) on what a ChEMU
project's retraining trains on: the ChEMU-Ref training snippets beside a team's first
LOOP_TEAM topics counted LEARN_TEAM_WEIGHT times, the tagger's epochs cut to
LEARN_MENTION_BUDGET document passes. The machine's load is printed with each figure.

Held out: the run just timed prints its own table (seed 0, end to end from raw text), so the
benchmark needs no file written by another command. The 3-seed table (mean ± sd over seeds
0, 1, 2; mention detection, anaphor detection and relations, exact and relaxed, scored with
our ChEMU scorer) is printed where `python -m modelserve.train --backend chemu --seeds 0,1,2`
wrote <MODELS_DIR>/chemu-heldout.json; otherwise the bench says how to write it. The speed is
measured live with the models just trained, on the CPU over held-out snippets given as text
alone, one snippet at a time as the suggestion worker sees them. Exit 1 only for a real
failure: training over its goal (a real run), or an error.
"""

from __future__ import annotations

import json
import sys
import time

from bench.smoke import SMOKE, size, verdict

SPEED_SNIPPETS = 40
TRAIN_GOAL_S = 180.0
LOOP_TEAM = 30  # a project's submitted topics at the retraining timed


def training_time(folder, train_file, scratch):
    """Train both steps once (timed) into `scratch`; (run summary, seconds, cache folder)."""
    import os
    from pathlib import Path

    import torch

    from corefscore.formats.chemu import read_chemu_jsonlines
    from modelserve.backends import vector_cache
    from modelserve.train import MENTION_EPOCHS
    from modelserve.training.chemu_pipeline import train_chemu_pipeline

    topics = read_chemu_jsonlines(train_file, skip_invalid=True).topics
    topics = size(topics, topics[:12])
    torch.set_num_threads(min(2, os.cpu_count() or 1))
    cache = size(folder / vector_cache.FOLDER, Path(scratch) / vector_cache.FOLDER)
    started = time.monotonic()
    results = train_chemu_pipeline(
        topics,
        links_out=Path(scratch) / "links",
        mentions_out=Path(scratch) / "mentions",
        mention_epochs=size(MENTION_EPOCHS, 1),
        device="cpu",
        vector_folder=cache,
        log=lambda line: None,
    )
    return results["runs"][0], time.monotonic() - started, cache


def main() -> int:
    """Train once and time it, print that seed's held-out table, the 3-seed table where
    `modelserve.train --seeds` wrote one (else how to write it), and time inference with the
    models just trained. Exit 1 only when training misses its goal (a real run)."""
    import tempfile
    from pathlib import Path

    import torch

    from modelserve.command_settings import path_setting
    from modelserve.training.chemu_pipeline import RESULTS_FILE, table_lines

    folder = path_setting("MODELS_DIR")
    train_file = path_setting("CHEMU_TRAIN_FILE")
    with tempfile.TemporaryDirectory(prefix="bench-chemu-") as scratch:
        run, seconds, cache = training_time(folder, train_file, scratch)
        encoding = run.get("encode_seconds", 0.0)
        print(
            f"the default model's single members, trained once on the CPU "
            f"({torch.get_num_threads()} threads, load average {load_average()}): "
            f"{seconds:.0f} s = {run['link_train_seconds']:.0f} s (links) + "
            f"{run['mention_train_seconds']:.0f} s (mentions, of which {encoding:.0f} s "
            f"encoding documents not in {cache}) + the held-out scoring"
        )
        loop_seconds = loop_retraining(train_file, Path(scratch) / "loop")
        trained_in_time = loop_seconds < TRAIN_GOAL_S
        print(f"held out, seed {run['seed']} (the run just timed):")
        for line in table_lines(run["scores"]):
            print(line)
        seeds_table(folder / RESULTS_FILE)
        speed(Path(scratch) / "mentions", Path(scratch) / "links", train_file)
    return verdict(trained_in_time)


def load_average() -> str:
    import os

    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def loop_retraining(train_file, folder) -> float:
    """Time retrainings of a ChEMU project as the model worker runs them (`learning_fit`) on
    the ChEMU-Ref snippets less the team's, beside the team's first LOOP_TEAM topics counted
    LEARN_TEAM_WEIGHT times (encoder cache warm): the default (the link model; the shared
    tagger stays), then with the tagger retrained too (LEARN_MENTION_EPOCHS as a deployment
    may set it, within LEARN_MENTION_BUDGET). Returns the slower one's seconds."""
    from pathlib import Path

    import django
    from django.conf import settings

    django.setup()
    if SMOKE:  # a tiny run: nothing written in the real models folder
        settings.MODELS_DIR = str(Path(folder).parent / "models")
    from corefscore.formats.chemu import read_chemu_jsonlines
    from modelserve.learning_selectors import chemu_base_topics
    from modelserve.services.learning import learning_fit
    from modelserve.training.learning import CHEMU, with_base

    snippets = [t for t in read_chemu_jsonlines(train_file, skip_invalid=True).topics if t.links]
    team = size(snippets[:LOOP_TEAM], snippets[:2])
    base = size(chemu_base_topics(team), snippets[2:10])
    train = with_base(team, base, weight=settings.LEARN_TEAM_WEIGHT)
    sizes = (
        f"{len(train)} snippets = {len(base)} of ChEMU-Ref + {len(team)} team topics x "
        f"{settings.LEARN_TEAM_WEIGHT}"
    )
    slowest = 0.0
    for epochs in (settings.LEARN_MENTION_EPOCHS, size(14, 1)):
        settings.LEARN_MENTION_EPOCHS = epochs
        started = time.monotonic()
        params = learning_fit(
            CHEMU,
            train=train,
            folder=Path(folder) / f"epochs-{epochs}",
            progress=lambda fraction, message: None,
        )
        seconds = time.monotonic() - started
        slowest = max(slowest, seconds)
        if "mentions_dir" in params:
            tagger = json.loads((Path(params["mentions_dir"]) / "config.json").read_text())
            what = (
                f"with LEARN_MENTION_EPOCHS={epochs}: one link model and one tagger of "
                f"{tagger['epochs']} epochs (LEARN_MENTION_BUDGET {settings.LEARN_MENTION_BUDGET})"
            )
        else:
            what = "the default: one link model, the shared tagger kept"
        print(
            f"learning-loop retraining ({what}; as the model worker trains it, load average "
            f"{load_average()}): {sizes}: {seconds:.0f} s, encoder cache warm; goal < "
            f"{TRAIN_GOAL_S:.0f} s" + ("" if seconds < TRAIN_GOAL_S else ": FAILED")
        )
    return slowest


def seeds_table(results_path) -> None:
    """The mean ± sd table of `modelserve.train --seeds`, or how to make it."""
    if not results_path.is_file():
        print(
            f"(no 3-seed table: {results_path} is written by "
            "`python -m modelserve.train --backend chemu --seeds 0,1,2`)"
        )
        return
    results = json.loads(results_path.read_text(encoding="utf-8"))
    print(
        f"held out: {results['holdout_fraction']:.0%} of ChEMU-Ref train, seeds "
        f"{results['seeds']}, trained on {results['device']}; mean ± sd ({results_path})"
    )
    from modelserve.training.chemu_pipeline import table_lines

    for line in table_lines(results["mean"], results["sd"]):
        print(line)
    for run in results["runs"]:
        print(
            f"seed {run['seed']}: exact relation F1 {run['scores']['exact']['overall']['f1']:.4f}"
            f", training {run['link_train_seconds']:.0f} s (links) + "
            f"{run['mention_train_seconds']:.0f} s (mentions)"
        )


def speed(mentions_dir, links_dir, train_file) -> None:
    """Suggestions from raw text, one held-out snippet at a time, with the models given."""
    import torch

    from corefscore.formats.chemu import read_chemu_jsonlines
    from modelserve.backends import chemu_mentions, chemu_model
    from modelserve.backends.chemu_model import limit_cpu_threads

    limit_cpu_threads()
    tagger = chemu_mentions.load_mentions(mentions_dir, device="cpu")
    link_model = chemu_model.load(links_dir, "cpu")
    held = set(tagger.config["holdout_topics"])
    topics = [
        chemu_mentions.without_mentions(topic)
        for topic in read_chemu_jsonlines(train_file, skip_invalid=True).topics
        if topic.external_id in held
    ][:SPEED_SNIPPETS]
    chemu_mentions.suggest_from_text(tagger, link_model, topics[0])  # warm-up
    started = time.perf_counter()
    mentions = links = 0
    for topic in topics:
        found = chemu_mentions.suggest_from_text(tagger, link_model, topic)
        mentions += len(found.mentions)
        links += len(found.links)
    seconds = time.perf_counter() - started
    print(
        f"inference on the CPU ({torch.get_num_threads()} threads): {len(topics)} held-out "
        f"snippets from raw text in {seconds:.1f} s = {len(topics) / seconds:.2f} snippets/s "
        f"({mentions} mentions, {links} links)"
    )


if __name__ == "__main__":
    sys.exit(main())
