"""What one cached model of each kind weighs to the model caches (modelserve/loaded_models.py),
for docs/models.md's "Model caches". Not timed, and no database: builds each kind as its
loader or trainer does, at the size it has in use, and prints `model_bytes` of it.

    python -m bench.model_cache_weights [--chemu-train FILE]

The ChEMU link model and mention tagger are sized from the ChEMU-Ref training file (their
vocabularies are the features and word forms seen twice there), untrained: training changes
their values, not their size.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

MB = 2**20


def main() -> None:
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_train = Path(__file__).resolve().parents[2] / "shared/data/chemu-ref"
    parser.add_argument("--chemu-train", default=str(default_train / "train.english.jsonlines"))
    args = parser.parse_args()

    import torch
    from transformers import AutoModelForSequenceClassification

    from corefscore.formats.chemu import read_chemu_jsonlines
    from modelserve.backends.chemu_model import PairScorer
    from modelserve.backends.chemu_training import pair_examples
    from modelserve.backends.mention_features import WordVocabulary
    from modelserve.backends.mention_tagger import TaggerNet
    from modelserve.backends.pair_classifier import PairClassifier
    from modelserve.encoders import default_encoder_path, load_encoder
    from modelserve.loaded_models import model_bytes

    torch.set_num_threads(1)
    rows: list[tuple[str, int]] = []
    encoder = load_encoder(None, "cpu")
    # its weights as such: in the caches it is pinned, and counts in no entry
    rows.append(("packaged encoder (all-MiniLM-L6-v2), pinned", model_bytes(encoder.model)))
    dim = int(encoder.model.config.hidden_size)
    cross = AutoModelForSequenceClassification.from_pretrained(
        default_encoder_path(), local_files_only=True, num_labels=4
    )
    rows.append(("cross-encoder version fine-tuned from MiniLM", model_bytes(cross)))
    head = PairClassifier(dim)  # a `trained` version's own weights: its encoder is the pinned one
    rows.append(("`trained` version (its pair head)", model_bytes(head)))

    topics = read_chemu_jsonlines(args.chemu_train, skip_invalid=True).topics
    vocabulary, table = pair_examples(topics, min_count=2)
    link = PairScorer(len(vocabulary), table.numbers.shape[1], hidden=128)
    rows.append((f"ChEMU link model ({len(vocabulary):,} features)", model_bytes(link)))
    words = WordVocabulary.build([d.tokens for t in topics for d in t.documents])
    tagger = TaggerNet(dim, len(words.forms), len(words.chars))
    rows.append((f"ChEMU mention tagger ({len(words.forms):,} forms)", model_bytes(tagger)))

    width = max(len(name) for name, _ in rows)
    for name, size in rows:
        print(f"{name:<{width}}  {size / MB:8.1f} MB")


if __name__ == "__main__":
    main()
