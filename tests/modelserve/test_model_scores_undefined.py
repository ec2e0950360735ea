"""The Models page's scores carry an undefined figure as None with its reason: a gold topic
and a model that both leave every mention alone have nothing to score, not a 0.0 that
would pull the model's average down."""

from corefscore.metrics.undefined import NO_CLUSTER, NO_HIERARCHY
from corefscore.scoring.plain import from_topic
from modelserve.model_scores import scores
from tests.corefscore.scoring.builders import scico_topic


def singletons(topic_id):
    return from_topic(scico_topic(topic_id, [[0, i, i, f"c{i}"] for i in range(4)]))


def clustered(topic_id, split=False):
    last = "d" if split else "b"
    mentions = [[0, 0, 0, "a"], [0, 2, 2, "a"], [0, 4, 4, "b"], [0, 6, 6, last]]
    return from_topic(scico_topic(topic_id, mentions, [("a", "b")]))


def test_an_undefined_topic_is_none_with_the_reason_and_left_out_of_the_model_score():
    gold = {"s": singletons("s"), "c": clustered("c")}
    model = {"s": singletons("s"), "c": clustered("c", split=True)}

    result = scores("scico", gold, model, {})
    alone = scores("scico", {"c": gold["c"]}, {"c": model["c"]}, {})

    same = next(row for row in result["topics"] if row["topic"] == "s")
    assert same["model"]["conll_f1"] is None  # it was 0.0
    assert same["model"]["hierarchy_f1"] is None
    assert result["undefined_reasons"]["conll_f1"] == NO_CLUSTER
    assert result["undefined_reasons"]["path_ratio"] == NO_HIERARCHY
    for metric in ("conll_f1", "hierarchy_f1", "path_ratio"):
        assert (
            result["overall"]["model"][metric]["score"]
            == (alone["overall"]["model"][metric]["score"])
        )
