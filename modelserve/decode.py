"""Clusters and hierarchy from SciCo pair scores: `python -m modelserve.decode IN OUT`.

IN is SciCo jsonl whose topics also carry `pair_scores`: rows [i, j, p_unrelated, p_coref,
p_parent, p_child] for every ordered mention pair i != j (p_parent: mention i is a parent of
mention j; p_child: i is a child of j), SciCo's class order. OUT is the same topics as SciCo
jsonl with the predicted cluster ids (numbered from 0 in order of first mention) and
relations, without `pair_scores`. `--decoding scico-released` (the default) decodes exactly as
SciCo's released predict.py, `paper` walks the hierarchy candidates highest first (see
modelserve/backends/scico_decoding.py). No Django: this runs without settings.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from corefscore.corpus import ClusterData, MentionData, TopicData
from corefscore.formats.errors import FormatErrors
from corefscore.formats.scico import read_scico_jsonl, write_scico_jsonl
from corefscore.formats.scico_parser import FORMAT
from modelserve.backends.scico_decoding import (
    AGG_THRESHOLD,
    DECODINGS,
    DEFAULT_DECODING,
    HYPERNYM_THRESHOLD,
    Decoded,
    decode,
    pair_tensor,
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m modelserve.decode", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("input", type=Path, help="SciCo jsonl with pair_scores per topic")
    parser.add_argument("output", type=Path, help="SciCo jsonl with the predicted clusters")
    parser.add_argument("--decoding", choices=DECODINGS, default=DEFAULT_DECODING)
    parser.add_argument(
        "--agg-threshold",
        type=float,
        default=AGG_THRESHOLD,
        help=f"clustering distance threshold (default {AGG_THRESHOLD}, SciCo's)",
    )
    parser.add_argument(
        "--hypernym-threshold",
        type=float,
        default=HYPERNYM_THRESHOLD,
        help=f"least cluster-pair child score (default {HYPERNYM_THRESHOLD}, SciCo's)",
    )
    args = parser.parse_args(argv)
    try:
        topics = read_scico_jsonl(args.input).topics
    except FormatErrors as errors:
        for error in errors.errors[:20]:
            print(f"error: {error}", file=sys.stderr)
        return 2
    out = []
    for topic in topics:
        rows = topic.metadata.get(FORMAT, {}).get("extra", {}).get("pair_scores")
        if rows is None:
            print(f"error: topic {topic.external_id} has no pair_scores", file=sys.stderr)
            return 2
        try:
            scores = pair_tensor(len(topic.mentions), rows)
        except ValueError as error:
            print(f"error: topic {topic.external_id}: {error}", file=sys.stderr)
            return 2
        decoded = decode(
            scores,
            decoding=args.decoding,
            agg_threshold=args.agg_threshold,
            hypernym_threshold=args.hypernym_threshold,
        )
        out.append(with_prediction(topic, decoded))
    write_scico_jsonl(out, args.output)
    relations = sum(len(t.relations) for t in out)
    print(
        f"wrote {len(out)} topics ({relations} relations, decoding {args.decoding}) "
        f"to {args.output}",
        file=sys.stderr,
    )
    return 0


def with_prediction(topic: TopicData, decoded: Decoded) -> TopicData:
    """`topic` with the decoded clusters ("0", "1", ... by first mention) and relations, its
    pair_scores dropped; a mention no cluster holds is alone."""
    covered = {m for members in decoded.clusters for m in members}
    clusters = [
        *decoded.clusters,
        *([m] for m in range(len(topic.mentions)) if m not in covered),
    ]
    order = sorted(range(len(clusters)), key=lambda k: min(clusters[k]))
    number = {k: rank for rank, k in enumerate(order)}
    cluster_of = {m: str(number[k]) for k, members in enumerate(clusters) for m in members}
    scico = dict(topic.metadata.get(FORMAT, {}))
    scico["extra"] = {k: v for k, v in scico.get("extra", {}).items() if k != "pair_scores"}
    scico.pop("string_cluster_ids", None)
    scico.pop("flatten_mentions", None)  # it carries the input's cluster ids
    return TopicData(
        external_id=topic.external_id,
        documents=topic.documents,
        mentions=[
            MentionData(m.document, m.spans, cluster_of[index], dict(m.metadata))
            for index, m in enumerate(topic.mentions)
        ],
        clusters=[ClusterData(str(k)) for k in range(len(clusters))],
        relations=[(str(number[p]), str(number[c])) for p, c, _ in decoded.relations],
        source=topic.source,
        metadata={**topic.metadata, FORMAT: scico},
    )


if __name__ == "__main__":
    raise SystemExit(main())
