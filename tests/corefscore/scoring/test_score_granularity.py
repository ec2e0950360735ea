"""`score --per-topic`, a topic subset (`--topics FILE`, `--subset FIELD`) and `--level corpus`."""

from __future__ import annotations

import json

import pytest

from tests.corefscore.scoring.test_cli import SCORE_KEYS, clustered_line, run


def flagged(line: str, **fields) -> str:
    return json.dumps({**json.loads(line), **fields})


@pytest.fixture
def files(tmp_path):
    gold = [
        flagged(clustered_line(1, [0, 0, 1, 1, 2], [[0, 1]]), hard_10=True),
        flagged(clustered_line(2, [0, 1, 1, 2, 2], [[1, 2]]), hard_10=False),
        flagged(clustered_line(3, [0, 0, 0, 1, 2], []), hard_10=True),
    ]
    system = [
        clustered_line(1, [0, 0, 1, 1, 2], [[0, 1]]),  # perfect
        clustered_line(2, [0, 1, 2, 3, 4], []),  # all singletons
        clustered_line(3, [0, 0, 1, 1, 2], [[0, 1]]),
    ]
    paths = {"gold": tmp_path / "gold.jsonl", "system": tmp_path / "system.jsonl"}
    paths["gold"].write_text("\n".join(gold) + "\n")
    paths["system"].write_text("\n".join(system) + "\n")
    return paths


def score(files, *options):
    completed = run(
        "score", str(files["gold"]), str(files["system"]), "--format", "scico", "--intervals",
        *options,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    return completed


def test_per_topic_rows_are_each_topic_scored_alone(files, tmp_path):
    result = json.loads(score(files, "--json", "--per-topic").stdout)
    assert SCORE_KEYS <= set(result)
    rows = result["per_topic"]
    assert [row["topic"] for row in rows] == ["1", "2", "3"]
    assert rows[0]["conll_f1"] == pytest.approx(1.0)
    assert rows[0]["hierarchy"]["f1"] == 1.0
    assert rows[1]["conll_f1"] < 0.5
    # a row is the topic scored alone: the same as a subset of that one topic
    (tmp_path / "one.txt").write_text("2\n")
    alone = json.loads(score(files, "--json", "--topics", str(tmp_path / "one.txt")).stdout)
    same = SCORE_KEYS - {"f1_ci"}  # a row has no bootstrap interval (one topic)
    assert {k: alone[k] for k in same} == {k: rows[1][k] for k in same}
    table = score(files, "--per-topic").stdout
    assert "CoNLL F1" in table
    assert "\n1 " in table
    assert "100.00" in table


def test_subset_by_flag_scores_the_flagged_topics_as_scicos_evaluate_py(files, tmp_path):
    flagged_result = json.loads(score(files, "--json", "--subset", "hard_10").stdout)
    (tmp_path / "ids.txt").write_text("1\n3\n")
    by_ids = json.loads(score(files, "--json", "--topics", str(tmp_path / "ids.txt")).stdout)
    assert flagged_result["scope"] == {"level": "topic", "topics": 2, "subset": ["1", "3"]}
    assert {k: flagged_result[k] for k in SCORE_KEYS} == {k: by_ids[k] for k in SCORE_KEYS}
    everything = json.loads(score(files, "--json").stdout)
    assert flagged_result["conll_f1"] > everything["conll_f1"]  # topic 2 left out


def test_a_subset_naming_an_unknown_topic_or_a_missing_flag_is_refused(files, tmp_path):
    (tmp_path / "ids.txt").write_text("9\n")
    bad = run(
        "score",
        str(files["gold"]),
        str(files["system"]),
        "--format",
        "scico",
        "--topics",
        str(tmp_path / "ids.txt"),
    )
    assert bad.returncode == 1
    assert "does not hold" in bad.stderr
    bad = run(
        "score",
        str(files["gold"]),
        str(files["system"]),
        "--format",
        "scico",
        "--subset",
        "curated",
    )
    assert bad.returncode == 1
    assert "no boolean field 'curated'" in bad.stderr


def test_corpus_level_reads_cluster_ids_across_topics(tmp_path):
    # gold: cluster 7 spans topics 1 and 2; the system splits it per topic
    gold = [clustered_line(1, [7, 7, 1, 2, 3], []), clustered_line(2, [7, 4, 5, 6, 8], [])]
    system = [clustered_line(1, [7, 7, 1, 2, 3], []), clustered_line(2, [9, 4, 5, 6, 8], [])]
    (tmp_path / "g.jsonl").write_text("\n".join(gold) + "\n")
    (tmp_path / "s.jsonl").write_text("\n".join(system) + "\n")
    files = {"gold": tmp_path / "g.jsonl", "system": tmp_path / "s.jsonl"}
    per_topic = json.loads(score(files, "--json").stdout)
    corpus = json.loads(
        score(files, "--json", "--level", "corpus", "--cluster-ids", "global", "--per-topic").stdout
    )
    assert per_topic["muc"]["recall"] == 1.0  # within each topic nothing is missed
    assert corpus["muc"]["recall"] < 1.0  # the cross-topic link is missed
    assert corpus["scope"] == {"level": "corpus", "topics": 2, "cluster_ids": "global"}
    assert [row["topic"] for row in corpus["per_topic"]] == ["corpus"]


def write_files(tmp_path, gold, system):
    (tmp_path / "g.jsonl").write_text("\n".join(gold) + "\n")
    (tmp_path / "s.jsonl").write_text("\n".join(system) + "\n")
    return {"gold": tmp_path / "g.jsonl", "system": tmp_path / "s.jsonl"}


def test_corpus_level_keeps_clusters_of_per_topic_ids_apart(tmp_path):
    # SciCo's numbering restarts in every topic; the system differs from the gold only by
    # renaming topic 2's clusters (0 <-> 1, with its relation renamed alike). Read across
    # topics, the renaming would merge topic 1's cluster 0 with topic 2's other cluster
    # (CoNLL 66.0 here before the fix): per topic, nothing differs.
    gold = [
        clustered_line(1, [0, 0, 1, 1, 2], [[0, 1]]),
        clustered_line(2, [0, 0, 1, 1, 2], [[0, 1]]),
    ]
    system = [
        clustered_line(1, [0, 0, 1, 1, 2], [[0, 1]]),
        clustered_line(2, [1, 1, 0, 0, 2], [[1, 0]]),
    ]
    files = write_files(tmp_path, gold, system)
    corpus = json.loads(score(files, "--json", "--level", "corpus").stdout)
    assert corpus["scope"] == {"level": "corpus", "topics": 2, "cluster_ids": "per-topic"}
    assert corpus["conll_f1"] == 1.0
    assert corpus["hierarchy"]["f1"] == 1.0
    assert corpus["path_ratio"]["micro"] == 1.0
    # the same files read with global ids do merge them: the option is what decides
    merged = json.loads(
        score(files, "--json", "--level", "corpus", "--cluster-ids", "global").stdout
    )
    assert merged["conll_f1"] < 0.7  # 0.660
    table = score(files, "--level", "corpus").stdout
    assert "cluster ids read per-topic" in table
