"""`python -m modelserve.decode IN OUT`: SciCo jsonl with pair scores in, predicted clusters and
relations out, as the released code decodes them."""

from __future__ import annotations

import json

import numpy as np

from corefscore.formats.scico import read_scico_jsonl, topic_to_scico
from modelserve import decode as decode_command
from tests.modelserve.backends.test_scico_decoding import as_rows, random_scores
from tests.modelserve.scico_reference import multiclass_inference
from tests.modelserve.scico_topics import build_topic


def write_input(path, seeds):
    lines, tensors = [], []
    for seed in seeds:
        topic = build_topic(external_id=f"t{seed}")
        n = len(topic.mentions)
        scores = random_scores(np.random.default_rng(seed), n, "dyadic")
        line = topic_to_scico(topic)
        line["pair_scores"] = [
            [i, j, *map(float, scores[i, j])] for i in range(n) for j in range(n) if i != j
        ]
        lines.append(json.dumps(line))
        tensors.append(scores)
    path.write_text("\n".join(lines) + "\n")
    return tensors


def partition(labels):
    groups: dict = {}
    for mention, label in enumerate(labels):
        groups.setdefault(label, set()).add(mention)
    return {frozenset(g) for g in groups.values()}


def test_decode_writes_the_released_codes_clusters_and_relations(tmp_path):
    tensors = write_input(tmp_path / "in.jsonl", range(12))
    assert decode_command.main([str(tmp_path / "in.jsonl"), str(tmp_path / "out.jsonl")]) == 0
    out_lines = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    topics = read_scico_jsonl(tmp_path / "out.jsonl").topics
    assert len(topics) == 12
    for line, topic, scores in zip(out_lines, topics, tensors, strict=True):
        assert "pair_scores" not in line
        labels, relations = multiclass_inference(len(scores), as_rows(scores))
        got = [int(row[3]) for row in line["mentions"]]
        assert partition(got) == partition(labels)
        members = {c: frozenset(m for m, x in enumerate(got) if x == c) for c in set(got)}
        expected_members = {
            c: frozenset(m for m, x in enumerate(labels) if x == c) for c in set(labels)
        }
        assert {(members[p], members[c]) for p, c in line["relations"]} == {
            (expected_members[p], expected_members[c]) for p, c in relations
        }
        assert [row[:3] for row in line["mentions"]] == [
            [m.document, m.spans[0][0], m.spans[-1][1]] for m in topic.mentions
        ]


def test_decode_refuses_a_topic_without_pair_scores(tmp_path, capsys):
    (tmp_path / "in.jsonl").write_text(json.dumps(topic_to_scico(build_topic())) + "\n")
    assert decode_command.main([str(tmp_path / "in.jsonl"), str(tmp_path / "out.jsonl")]) == 2
    assert "has no pair_scores" in capsys.readouterr().err
    assert not (tmp_path / "out.jsonl").exists()


def test_decode_refuses_missing_pairs(tmp_path, capsys):
    write_input(tmp_path / "in.jsonl", [0])
    line = json.loads((tmp_path / "in.jsonl").read_text())
    line["pair_scores"] = line["pair_scores"][1:]
    (tmp_path / "in.jsonl").write_text(json.dumps(line) + "\n")
    assert decode_command.main([str(tmp_path / "in.jsonl"), str(tmp_path / "out.jsonl")]) == 2
    assert "ordered pairs missing" in capsys.readouterr().err
