"""predict_scico: any SciCo backend over a list of topics, the output's clusters those the
backend suggests (numbered by first mention) and its relations between them."""

from __future__ import annotations

from pathlib import Path

from modelserve.backends import get_backend
from modelserve.scico_prediction import predict_scico, scico_params
from tests.modelserve.scico_topics import build_topic


def partition(topic):
    groups: dict = {}
    for index, mention in enumerate(topic.mentions):
        groups.setdefault(mention.cluster, set()).add(index)
    return {frozenset(g) for g in groups.values()}


def test_each_model_free_backend_predicts_its_own_clusters():
    topic = build_topic()
    for name in ("edit-distance", "same-head-lemma", "singleton"):
        (predicted,) = predict_scico(name, [topic], {})
        expected = {frozenset(c.mentions) for c in get_backend(name).suggest(topic).clusters}
        assert partition(predicted) == expected, name
        assert predicted.relations == []
        first_mention = [min(g) for g in sorted(partition(predicted), key=min)]
        keys = [predicted.mentions[m].cluster for m in first_mention]
        assert keys == [str(k) for k in range(len(keys))]  # numbered by first mention


def test_model_paths_default_to_the_models_folder_where_the_backend_has_one():
    models = Path("/m")
    assert scico_params("cross-encoder", models_dir=models) == {
        "model_path": "/m/cross-encoder",
        "device": "auto",
    }
    assert scico_params("entailment", models_dir=models, model=Path("/nli"), device="cpu") == {
        "nli_model": "/nli",
        "device": "cpu",
    }
    assert scico_params("singleton", models_dir=models, params={"x": 1}) == {"x": 1}


def test_the_predict_command_line_runs_a_scico_backend(tmp_path):
    import json

    from corefscore.formats.scico import read_scico_jsonl, topic_to_scico
    from modelserve import predict

    topic = build_topic()
    (tmp_path / "in.jsonl").write_text(json.dumps(topic_to_scico(topic)) + "\n")
    argv = ["--backend", "same-head-lemma", "--format", "scico", "--models-dir", str(tmp_path)]
    assert predict.main([*argv, str(tmp_path / "in.jsonl"), str(tmp_path / "out.jsonl")]) == 0
    (predicted,) = read_scico_jsonl(tmp_path / "out.jsonl").topics
    expected = get_backend("same-head-lemma").suggest(topic).clusters
    assert partition(predicted) == {frozenset(c.mentions) for c in expected}
    wrong = ["--backend", "singleton", "--format", "chemu", "--models-dir", str(tmp_path)]
    assert predict.main([*wrong, str(tmp_path / "in.jsonl"), str(tmp_path / "x.jsonl")]) == 2
