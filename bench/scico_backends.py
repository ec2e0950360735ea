"""Seconds per topic of every SciCo backend, on the CPU and on CUDA where present.

    python -m bench.scico_backends [--topics 3] [--devices cpu,cuda] [--json OUT]

Topics are the scorer benchmark's generated SciCo-test-sized topics (bench/scoring/generate.py:
~52 mentions in ~40 paragraphs of ~150 tokens, so ~2,650 ordered pairs per topic for the pair
models). No SciCo checkpoint can be downloaded here, so the model backends run on the packaged
MiniLM with a fresh head: a 4-class cross-encoder head (`cross-encoder`) and a 3-class NLI
head (`entailment`, over `edit-distance` clusters); the times are those of the pair encoding
and the decoding, and the scores (against the generated gold, random text) mean nothing for
them. Model-free backends run once (on the CPU). A warm-up on six mentions of the first
topic (loading, kernels) is not counted. No Django.
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

CPU_ONLY = ("edit-distance", "same-head-lemma", "singleton")
ON_A_DEVICE = ("minilm", "cross-encoder", "entailment")


def topics(count: int, seed: int = 13) -> list[Any]:
    from annotation.domain.formats.scico import parse_scico_line
    from bench.scoring.generate import topic

    rng = random.Random(seed)
    out = []
    for number in range(count):
        parsed = parse_scico_line(json.dumps(topic(rng, number)), number + 1, "generated")
        assert parsed.topic is not None, parsed.errors
        out.append(parsed.topic)
    return out


def checkpoints(folder: Path) -> dict[str, Path]:
    """MiniLM with a fresh 4-class SciCo head, and with a fresh 3-class NLI head."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from modelserve.encoders import default_encoder_path
    from modelserve.training.cross_encoder import load_for_training

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
    return {"cross-encoder": folder / "cross-encoder", "nli": folder / "nli"}


def params(name: str, device: str, models: dict[str, Path]) -> dict[str, Any]:
    if name == "cross-encoder":
        return {"model_path": str(models["cross-encoder"]), "device": device, "batch_size": 64}
    if name == "entailment":
        return {"nli_model": str(models["nli"]), "device": device}
    if name == "minilm":
        return {"device": device}
    return {}


def measure(name: str, device: str, data: list[Any], models: dict[str, Path]) -> dict[str, Any]:
    from annotation.domain.scoring.api import score_scico
    from modelserve.backends import backend_class
    from modelserve.scico_prediction import predict_scico

    backend_class(name)  # import outside the timing
    # warm-up (loading, kernels) on a few mentions of the first topic
    warm = dataclasses.replace(data[0], mentions=copy.deepcopy(data[0].mentions[:6]), relations=[])
    for mention in warm.mentions:
        mention.cluster = None
    predict_scico(name, [warm], params(name, device, models))
    started = time.perf_counter()
    predicted = predict_scico(name, data, params(name, device, models))
    seconds = time.perf_counter() - started
    scores = score_scico(data, predicted)
    return {
        "backend": name,
        "device": device,
        "topics": len(data),
        "seconds_per_topic": seconds / max(1, len(data)),
        "conll_f1": scores["conll_f1"],
        "hierarchy_f1": scores["hierarchy"]["f1"],
        "path_ratio": scores["path_ratio"]["micro"],
    }


def line(row: dict[str, Any]) -> str:
    seconds = f"{row['seconds_per_topic']:9.3f} s/topic"
    scores = (
        f"CoNLL F1 {100 * row['conll_f1']:6.2f}  hierarchy F1 {100 * row['hierarchy_f1']:6.2f}  "
        f"path ratio {100 * (row['path_ratio'] or 0):6.2f}"
    )
    return f"{row['backend']:16} {row['device']:5} {row['topics']} topics {seconds}  {scores}"


def main(argv: list[str] | None = None) -> int:
    import torch

    parser = argparse.ArgumentParser(prog="python -m bench.scico_backends")
    parser.add_argument("--topics", type=int, default=3, help="topics timed per backend")
    parser.add_argument(
        "--devices", default=None, help="comma-separated (default: cpu, and cuda where present)"
    )
    parser.add_argument("--backends", default=None, help="comma-separated (default: all)")
    parser.add_argument("--json", type=Path, default=None, help="also write the rows here")
    args = parser.parse_args(argv)
    devices = (
        args.devices.split(",")
        if args.devices
        else ["cpu", *(["cuda"] if torch.cuda.is_available() else [])]
    )
    chosen = args.backends.split(",") if args.backends else [*CPU_ONLY, *ON_A_DEVICE]
    data = topics(args.topics)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        models = checkpoints(Path(folder))
        for name in chosen:
            for device in devices if name in ON_A_DEVICE else ["cpu"]:
                row = measure(name, device, data, models)
                rows.append(row)
                print(line(row), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
