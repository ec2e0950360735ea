"""Every SciCo backend on generated SciCo-sized topics and on the demo gold: CoNLL F1,
hierarchy F1, path ratio and seconds per topic, on the CPU and on CUDA where present.

    python -m bench.scico_backends [--topics 5] [--slow-topics 1] [--devices cpu,cuda]
                                   [--backends a,b] [--json OUT]

(`make bench` runs it as `python -m bench scico-backends`; BENCH_SMOKE=1: one topic of each
data set cut to eight mentions.)

Data: `generated`: the scorer benchmark's SciCo-test-sized topics (bench/scoring/generate.py:
~52 mentions in ~40 paragraphs of ~150 tokens, so ~2,650 ordered pairs per topic for the pair
models; random text); `demo`: the six topics of fixtures/demo/scico_demo.jsonl (~45 mentions,
short paragraphs) with their gold. Each backend sees the gold mentions, as SciCo's evaluation.

Models: no SciCo checkpoint can be downloaded here, so the model backends run on the packaged
MiniLM: `cross-encoder` with a fresh (untrained) 4-class head, `entailment` with a fresh
3-class NLI head over `edit-distance` clusters, `trained` trained here for a few epochs on
three generated topics of another seed. Their times are real (pair encoding and decoding);
their scores measure nothing but the untrained heads and say so in the table's last column.
`minilm` (the packaged encoder, no training) and the baselines' scores are real.

The slow pair models (`cross-encoder`, `entailment`) time `--slow-topics` topics of each data
set on the CPU (default 1). A generated topic's ~2,650 ordered pairs of two ~150-token
paragraphs are ~20 GFLOP each through MiniLM: minutes per topic on 2 cores (SciCo ran its
cross-encoder on GPUs); on CUDA they take every topic. The table names the topics each row
scored. A warm-up on six mentions of the first topic (kernels, caches) and the model's
loading are not counted. No Django.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.smoke import SMOKE, size

CPU_ONLY = ("edit-distance", "same-head-lemma", "singleton")
ON_A_DEVICE = ("minilm", "trained", "cross-encoder", "entailment")
SLOW = ("cross-encoder", "entailment")
UNTRAINED = {
    "cross-encoder": "fresh 4-class head: times only",
    "entailment": "fresh NLI head: times only",
    "trained": "trained on 3 random-text topics: times only",
}
DEMO = Path(__file__).resolve().parents[1] / "fixtures" / "demo" / "scico_demo.jsonl"


def topics(count: int, seed: int = 13) -> list[Any]:
    from bench.scoring.generate import topic
    from corefscore.formats.scico import parse_scico_line

    rng = random.Random(seed)
    out = []
    for number in range(count):
        parsed = parse_scico_line(json.dumps(topic(rng, number)), number + 1, "generated")
        assert parsed.topic is not None, parsed.errors
        out.append(parsed.topic)
    return out


def demo_topics() -> list[Any]:
    from corefscore.formats import read

    return read("scico", DEMO).topics


def shrink(topic: Any, mentions: int) -> Any:
    """The topic's first `mentions` mentions, the documents they are in, and the relations
    between the clusters they keep (the smoke run's topics)."""
    kept = copy.deepcopy(topic.mentions[:mentions])
    documents = sorted({m.document for m in kept})
    place = {old: new for new, old in enumerate(documents)}
    for mention in kept:
        mention.document = place[mention.document]
    clusters = {m.cluster for m in kept}
    return dataclasses.replace(
        topic,
        documents=[topic.documents[d] for d in documents],
        mentions=kept,
        clusters=[c for c in topic.clusters if c.key in clusters],
        relations=[(p, c) for p, c in topic.relations if p in clusters and c in clusters],
    )


def checkpoints(folder: Path, train: list[Any]) -> dict[str, Path]:
    """MiniLM with a fresh 4-class SciCo head, with a fresh 3-class NLI head, and the
    `trained` pair model fitted on `train`."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from modelserve.encoders import default_encoder_path
    from modelserve.training.cross_encoder import load_for_training
    from modelserve.training.suggester import train_suggester

    torch.manual_seed(0)
    tokenizer, model = load_for_training(default_encoder_path(), torch.device("cpu"))
    tokenizer.save_pretrained(folder / "cross-encoder")
    model.save_pretrained(folder / "cross-encoder")
    labels = {0: "contradiction", 1: "neutral", 2: "entailment"}
    nli = AutoModelForSequenceClassification.from_pretrained(
        default_encoder_path(),
        local_files_only=True,
        num_labels=3,
        id2label=labels,
        label2id={v: k for k, v in labels.items()},
    )
    AutoTokenizer.from_pretrained(default_encoder_path()).save_pretrained(folder / "nli")
    nli.save_pretrained(folder / "nli")
    train_suggester(
        train, folder / "trained", epochs=size(5, 1), log=lambda line: None, device="auto"
    )
    return {
        "cross-encoder": folder / "cross-encoder",
        "nli": folder / "nli",
        "trained": folder / "trained",
    }


def params(name: str, device: str, models: dict[str, Path]) -> dict[str, Any]:
    if name == "cross-encoder":
        return {"model_path": str(models["cross-encoder"]), "device": device, "batch_size": 64}
    if name == "entailment":
        return {"nli_model": str(models["nli"]), "device": device}
    if name == "trained":
        return {"model_dir": str(models["trained"]), "device": device}
    if name == "minilm":
        return {"device": device}
    return {}


def measure(name: str, device: str, data: list[Any], backend: Any) -> dict[str, Any]:
    from corefscore.scoring.api import score_scico
    from modelserve.decode import with_prediction
    from modelserve.scico_prediction import as_decoded

    # warm-up (kernels, caches) on a few mentions of the first topic
    warm = dataclasses.replace(data[0], mentions=copy.deepcopy(data[0].mentions[:6]), relations=[])
    for mention in warm.mentions:
        mention.cluster = None
    backend.suggest(warm)
    started = time.perf_counter()
    predicted = [with_prediction(topic, as_decoded(backend.suggest(topic))) for topic in data]
    seconds = time.perf_counter() - started
    scores = score_scico(data, predicted, intervals=False)
    return {
        "backend": name,
        "device": device,
        "topics": len(data),
        "seconds_per_topic": seconds / max(1, len(data)),
        "conll_f1": scores["conll_f1"],
        "hierarchy_f1": scores["hierarchy"]["f1"],
        "path_ratio": scores["path_ratio"]["micro"],
        "note": UNTRAINED.get(name, ""),
    }


HEADER = (
    f"{'data':9} {'backend':16} {'device':6} {'topics':>6} {'s/topic':>9} "
    f"{'CoNLL F1':>8} {'hier. F1':>8} {'path':>6}  note"
)


def percent(value: float | None, width: int) -> str:
    """A figure in percent; "undef." where nothing was there to score (docs/scoring.md)."""
    return f"{'undef.':>{width}}" if value is None else f"{100 * value:{width}.1f}"


def line(row: dict[str, Any]) -> str:
    return (
        f"{row.get('data', ''):9} {row['backend']:16} {row['device']:6} {row['topics']:>6} "
        f"{row['seconds_per_topic']:9.3f} {percent(row['conll_f1'], 8)} "
        f"{percent(row['hierarchy_f1'], 8)} {percent(row['path_ratio'], 6)}  {row['note']}"
    )


def main(argv: list[str] | None = None) -> int:
    import torch

    from modelserve.backends import backend_class

    parser = argparse.ArgumentParser(prog="python -m bench.scico_backends")
    parser.add_argument("--topics", type=int, default=5, help="generated topics per backend")
    parser.add_argument(
        "--slow-topics",
        type=int,
        default=1,
        help="topics of each data set for cross-encoder and entailment on the CPU",
    )
    parser.add_argument(
        "--devices", default=None, help="comma-separated (default: cpu, and cuda where present)"
    )
    parser.add_argument("--backends", default=None, help="comma-separated (default: all)")
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    args = parser.parse_args(argv)
    torch.manual_seed(0)
    devices = (
        args.devices.split(",")
        if args.devices
        else ["cpu", *(["cuda"] if torch.cuda.is_available() else [])]
    )
    chosen = args.backends.split(",") if args.backends else [*CPU_ONLY, *ON_A_DEVICE]
    datasets = {"generated": topics(args.topics), "demo": demo_topics()}
    train = topics(3, seed=99)
    if SMOKE:  # one topic of each, a few mentions: the whole run in seconds
        datasets = {name: [shrink(data[0], 5)] for name, data in datasets.items()}
        train = [shrink(t, 5) for t in train]
    print(f"torch {torch.__version__}, {torch.get_num_threads()} CPU threads, devices: {devices}")
    print(HEADER, flush=True)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        models = checkpoints(Path(folder), train)
        for name in chosen:
            for device in devices if name in ON_A_DEVICE else ["cpu"]:
                # loaded once for both data sets; the loading is not timed
                backend = backend_class(name)(params(name, device, models))
                for data_name, data in datasets.items():
                    timed = data[: args.slow_topics] if name in SLOW and device == "cpu" else data
                    row = {"data": data_name, **measure(name, device, timed, backend)}
                    rows.append(row)
                    print(line(row), flush=True)
    print(
        f"(cross-encoder and entailment: {args.slow_topics} topics of each data set on the CPU, "
        "all on CUDA; the scores of untrained heads measure nothing)"
    )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
