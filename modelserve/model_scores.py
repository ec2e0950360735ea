"""A backend scored on gold topics, next to the annotators on the same topics (the admin
Models page, modelserve/services/evaluations.py). Pure: no Django, no settings.

The model sees each gold topic's mentions (clusters, relations and links taken away), as
`python -m modelserve.predict` does: SciCo's evaluation is on gold mentions. The scores are
the agreement report's: `evaluate.pair` for every (gold, system) pair of a topic and
`metrics.iaa.aggregate` over the topics, so the metrics, their micro averaging and the 95%
bootstrap intervals over topics (`avg_ci`) are those of the report, digit for digit. The model
is one "pair" (gold-model); the annotators are one pair each (gold-annotator) on the topics
they submitted, and their AVG is the report's AVG: the mean over annotators of each one's
micro score against the gold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from corefscore.corpus import MentionData, TopicData
from corefscore.metrics.iaa import aggregate
from corefscore.metrics.undefined import reasons
from corefscore.scoring import evaluate
from corefscore.scoring.plain import TopicAnnotation
from modelserve.backends.base import Backend, Progress, no_progress

MODEL = "model"
# the parameter that names each backend's model folder (what a "model version" sets)
MODEL_PARAMETER = {
    "minilm": "encoder_path",
    "trained": "model_dir",
    "cross-encoder": "model_path",
    "entailment": "nli_model",
    "chemu": "model_dir",
}
ON_A_DEVICE = {"minilm", "trained", "cross-encoder", "entailment", "chemu"}


def scheme_of(backend: str) -> str:
    """Which scheme a backend predicts: chemu's anaphora links, or SciCo's clusters."""
    return "chemu" if backend == "chemu" else "scico"


def metric_names(scheme: str) -> list[str]:
    return [metric.name for metric in evaluate.IAA_METRICS[scheme]]


def without_annotation(topic: TopicData) -> TopicData:
    """The topic's documents and mentions, no cluster, relation or link: the model's input."""
    return replace(
        topic,
        mentions=[MentionData(m.document, m.spans, None, dict(m.metadata)) for m in topic.mentions],
        clusters=[],
        relations=[],
        links=[],
    )


def predict(
    backend: Backend,
    scheme: str,
    topics: Sequence[TopicData],
    *,
    progress: Progress = no_progress,
) -> list[TopicData]:
    """Each topic as the backend annotates it, given its mentions."""
    from modelserve.backends.chemu_linking import with_links
    from modelserve.decode import with_prediction
    from modelserve.scico_prediction import as_decoded

    predicted = []
    for number, topic in enumerate(topics):
        bare = without_annotation(topic)

        def step(fraction: float, message: str, number: int = number) -> None:
            progress((number + fraction) / len(topics), f"topic {number + 1}/{len(topics)}")

        suggestions = backend.suggest(bare, progress=step)
        if scheme == "chemu":
            # links between the given mentions only: a proposed mention is not in the gold's
            # mention set, so the scorer could not place it (as `predict` given mentions)
            known = len(bare.mentions)
            links = [s for s in suggestions.links if max(s.anaphor, s.antecedent) < known]
            predicted.append(with_links(bare, links))
        else:
            predicted.append(with_prediction(bare, as_decoded(suggestions)))
        progress((number + 1) / len(topics), f"topic {number + 1}/{len(topics)} predicted")
    return predicted


def scores(
    scheme: str,
    gold: Mapping[str, TopicAnnotation],
    model: Mapping[str, TopicAnnotation],
    annotators: Mapping[str, Mapping[str, TopicAnnotation]],
    *,
    hierarchy_count: str = "closure",
    keep_singletons: bool = False,
) -> dict[str, Any]:
    """`{"scheme", "metrics", "topics": [{"topic", "model": {metric: score}, "annotators":
    {metric: AVG} | None, "annotator_count"}], "overall": {"topics", "model": {metric:
    {"score", "ci"}}}, "shared": {"topics", "annotators": [names], "model": ..., "annotators_avg":
    ...}, "undefined_reasons": {metric: why}}`. `gold` and `model` are by topic id in the
    gold's order; `annotators` is name -> topic id -> their submitted annotation (only topics
    with gold count). `shared` is the comparison: the model and the annotators' AVG on the
    topics some annotator submitted. A score is None where it is undefined (nothing to score
    in the gold or the response, corefscore.metrics.undefined), left out of the averages."""

    def pair(key: TopicAnnotation, response: TopicAnnotation) -> dict[str, Any]:
        return evaluate.pair(scheme, key, response, keep_singletons, hierarchy_count)

    metrics = evaluate.IAA_METRICS[scheme]
    by_model = {topic: {MODEL: pair(gold[topic], model[topic])} for topic in gold}
    by_annotators: dict[str, dict[str, Any]] = {}
    for topic in gold:
        pairs = {
            name: pair(gold[topic], work[topic])
            for name, work in sorted(annotators.items())
            if topic in work
        }
        if pairs:
            by_annotators[topic] = pairs
    model_topics, model_overall = aggregate(by_model, metrics)
    human_topics, human_overall = aggregate(by_annotators, metrics)
    shared_model = aggregate({t: by_model[t] for t in by_annotators}, metrics)[1]
    names = [metric.name for metric in metrics]
    return {
        "scheme": scheme,
        "metrics": names,
        "topics": [
            {
                "topic": topic,
                "model": {m: model_topics[topic][m]["avg"] for m in names},
                "annotators": (
                    {m: human_topics[topic][m]["avg"] for m in names}
                    if topic in human_topics
                    else None
                ),
                "annotator_count": len(by_annotators.get(topic, {})),
            }
            for topic in gold
        ],
        "overall": {"topics": len(gold), "model": _summary(model_overall, names)},
        "shared": {
            "topics": len(by_annotators),
            "annotators": sorted({name for pairs in by_annotators.values() for name in pairs}),
            "model": _summary(shared_model, names),
            "annotators_avg": _summary(human_overall, names),
        },
        "undefined_reasons": reasons(names, keep_singletons=keep_singletons),
    }


def _summary(overall: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    return {
        name: {"score": overall[name]["avg"], "ci": overall[name]["avg_ci"]}
        if name in overall
        else {"score": None, "ci": None}
        for name in names
    }
