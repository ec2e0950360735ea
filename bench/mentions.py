"""ChEMU anaphora from raw text: training time and inference speed measured now, and the
held-out table.

Training time (issue 27.1: under 3 minutes on 2 idle cores): the link model and the mention
tagger trained once, as the model worker does (seed 0, the default settings, 15 % held out and
scored end to end), into a temporary folder, with the frozen encoder's vectors read from
<MODELS_DIR>/encoder-cache (the first run on a machine encodes them and says so: that is a
one-off step, timed apart). The machine's load is printed with it.

The table is what `python -m modelserve.train --backend chemu --seeds 0,1,2` wrote to
var/models/chemu-heldout.json (15 % of ChEMU-Ref train held out per seed; mean ± sd over the
seeds; mention detection, anaphor detection and relations, exact and relaxed, scored with
our ChEMU scorer end to end from raw text). Training is minutes per seed on a CPU, so the
bench reads the figures rather than training again. The speed is measured live: the saved
models (var/models/chemu, var/models/chemu-mentions) on the CPU over held-out snippets,
given as text alone, one snippet at a time as the suggestion worker sees them.
"""

from __future__ import annotations

import json
import sys
import time

from bench.smoke import size, verdict

SPEED_SNIPPETS = 40
TRAIN_GOAL_S = 180.0


def training_time(folder, train_file) -> bool:
    """Train both steps once (timed); True when under the goal."""
    import os
    import tempfile
    from pathlib import Path

    import torch

    from annotation.domain.formats.chemu import read_chemu_jsonlines
    from modelserve.backends import vector_cache
    from modelserve.train import MENTION_EPOCHS
    from modelserve.training.chemu_pipeline import train_chemu_pipeline

    topics = read_chemu_jsonlines(train_file, skip_invalid=True).topics
    topics = size(topics, topics[:12])
    torch.set_num_threads(min(2, os.cpu_count() or 1))
    with tempfile.TemporaryDirectory(prefix="bench-chemu-") as scratch:
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
        seconds = time.monotonic() - started
    run = results["runs"][0]
    encoding = run.get("encode_seconds", 0.0)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"training both steps on the CPU ({torch.get_num_threads()} threads, load average "
        f"{load}): {seconds:.0f} s = {run['link_train_seconds']:.0f} s (links) + "
        f"{run['mention_train_seconds']:.0f} s (mentions, of which {encoding:.0f} s encoding "
        f"documents not in {cache}); exact relation F1 on the held-out snippets "
        f"{run['scores']['exact']['overall']['f1']:.4f}; goal < {TRAIN_GOAL_S:.0f} s"
    )
    return seconds - encoding < TRAIN_GOAL_S


def main() -> int:
    from modelserve.command_settings import path_setting
    from modelserve.training.chemu_pipeline import RESULTS_FILE, table_lines

    folder = path_setting("MODELS_DIR")
    trained_in_time = training_time(folder, path_setting("CHEMU_TRAIN_FILE"))
    results_path = folder / RESULTS_FILE
    if not results_path.is_file():
        print(
            f"no held-out results in {results_path}: run "
            "`python -m modelserve.train --backend chemu --seeds 0,1,2` first"
        )
        return verdict(False)
    results = json.loads(results_path.read_text(encoding="utf-8"))
    if not trained_in_time:
        print(f"FAILED: training took over {TRAIN_GOAL_S:.0f} s")
    runs = results["runs"]
    print(
        f"held out: {results['holdout_fraction']:.0%} of ChEMU-Ref train, seeds "
        f"{results['seeds']}, trained on {results['device']}; mean ± sd"
    )
    for line in table_lines(results["mean"], results["sd"]):
        print(line)
    for run in runs:
        print(
            f"seed {run['seed']}: exact relation F1 {run['scores']['exact']['overall']['f1']:.4f}"
            f", training {run['link_train_seconds']:.0f} s (links) + "
            f"{run['mention_train_seconds']:.0f} s (mentions)"
        )
    return speed(folder, results) or verdict(trained_in_time)


def speed(folder, results) -> int:
    import torch

    from annotation.domain.formats.chemu import read_chemu_jsonlines
    from modelserve.backends import chemu_mentions, chemu_model
    from modelserve.backends.chemu_model import limit_cpu_threads
    from modelserve.command_settings import path_setting

    mentions_dir = folder / chemu_mentions.DIRECTORY
    if not (
        chemu_mentions.mentions_trained(mentions_dir) and chemu_model.is_complete(folder / "chemu")
    ):
        print("no saved models to time: train them first")
        return verdict(False)
    limit_cpu_threads()
    tagger = chemu_mentions.load_mentions(mentions_dir, device="cpu")
    train_file = path_setting("CHEMU_TRAIN_FILE")
    link_model = chemu_model.load(folder / "chemu", "cpu")
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
