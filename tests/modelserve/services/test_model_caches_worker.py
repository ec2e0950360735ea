"""One real Celery model worker serves one learnt version after another, as a project that
retrains does (docs/models.md, "Model caches"): its model caches hold at most their bound and
its memory stops growing once the bound is reached. With the bound set very large (the old
unbounded caches) every version stays loaded and this test fails: checked with
MODEL_CACHE_ENTRIES=1000, seven versions, the worker's RSS went 715, 780, 858, 946, 1008, 1089,
1155 MB (about 75 MB a version); bounded at two, 709, 782, 783, 783, 783, 790, 784 MB."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import psutil
import pytest

from annotation.models import Project
from modelserve.models import ModelVersion
from modelserve.services.runs import suggestion_run_request
from modelserve.services.settings import suggestion_settings_set
from tests.factories import UserFactory, make_topic
from tests.workers import start_worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

BOUND = 2
VERSIONS = 5
SCICO_LABELS = {0: "not related", 1: "coref", 2: "parent", 3: "child"}
HELD = re.compile(r"(backends|cross-encoders): (?:loaded|evicted) .*; (\d+) held, ([\d.]+) MB")


def cross_encoder_checkpoint(folder: Path) -> tuple[Path, int]:
    """The packaged MiniLM with a SciCo head and the mention markers, saved as a learnt
    cross-encoder version is; and its weights' bytes."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from modelserve.backends.scico_pairs import END, START
    from modelserve.encoders import default_encoder_path
    from modelserve.loaded_models import model_bytes

    tokenizer = AutoTokenizer.from_pretrained(default_encoder_path(), local_files_only=True)
    tokenizer.add_special_tokens({"additional_special_tokens": [START, END]})
    model = AutoModelForSequenceClassification.from_pretrained(
        default_encoder_path(),
        local_files_only=True,
        num_labels=4,
        id2label=SCICO_LABELS,
        label2id={v: k for k, v in SCICO_LABELS.items()},
    )
    model.resize_token_embeddings(len(tokenizer))
    tokenizer.save_pretrained(folder)
    model.save_pretrained(folder)
    return folder, model_bytes(model)


def version_folders(checkpoint: Path, root: Path, count: int) -> list[Path]:
    """`count` learnt versions' folders: hard links of one checkpoint (no disk to speak of;
    each folder is a model of its own to the caches, which key on the folder)."""
    folders = []
    for number in range(1, count + 1):
        folder = root / "learned" / "project" / f"v{number}" / "model"
        folder.mkdir(parents=True)
        for file in checkpoint.iterdir():
            try:
                os.link(file, folder / file.name)
            except OSError:  # another file system
                shutil.copy(file, folder / file.name)
        folders.append(folder)
    return folders


def worker_rss(worker) -> int:
    """Resident bytes of the worker and its pool process (the one that loads models)."""
    parent = psutil.Process(worker.process.pid)
    return sum(p.memory_info().rss for p in [parent, *parent.children(recursive=True)])


def test_a_worker_serving_one_learnt_version_after_another_stays_within_its_cache_bound(
    services, settings, tmp_path
):
    settings.MODELS_DIR = tmp_path
    checkpoint, weights = cross_encoder_checkpoint(tmp_path / "checkpoint")
    folders = version_folders(checkpoint, tmp_path, VERSIONS)
    project = Project.objects.create(name="retrains")
    suggestion_settings_set(project=project, learn=True)
    topic = make_topic(project)
    user = UserFactory()
    worker = start_worker(
        services,
        MODELS_DIR=str(tmp_path),
        SUGGEST_DEVICE="cpu",
        MODEL_CACHE_ENTRIES=str(BOUND),
        COREFAPP_TORCH_THREADS="1",
    )
    rss = []
    try:
        for number, folder in enumerate(folders, start=1):
            # a new version, newest and eligible: the project's runs use it from now on
            ModelVersion.objects.create(
                project=project,
                backend="cross-encoder",
                number=number,
                path=str(folder.parent),
                params={"model_path": str(folder)},
                topics_used=1,
                eligible=True,
            )
            run = wait_for(suggestion_run_request(topic=topic, user=user), {"succeeded", "failed"})
            assert run.status == "succeeded", run.message
            assert run.backend == "cross-encoder"
            assert run.params["model_path"] == str(folder)
            rss.append(worker_rss(worker))
        log = worker.log()
    finally:
        worker.stop()

    held = [(cache, int(count)) for cache, count, _ in HELD.findall(log)]
    assert {cache for cache, _ in held} == {"backends", "cross-encoders"}, log[-3000:]
    assert max(count for _, count in held) == BOUND
    # the bound was first reached with version BOUND; every later version evicted one
    assert log.count("cross-encoders: evicted") == VERSIONS - BOUND
    growth = rss[-1] - rss[BOUND - 1]
    # Unbounded, the three versions after the bound add about 3 x 75 MB (the weights a run
    # touches, its tokenizer); bounded, a few MB of allocator noise. The margin, one version's
    # whole weights (87 MB), lies well between the two.
    mb = [round(value / 2**20) for value in rss]
    assert growth < weights, f"worker RSS by version (MB): {mb}; weights {weights / 2**20:.0f} MB"
