"""Label Studio JSON export, import only: labels become mentions, relations marked as
coreference become clusters, the others links."""

import io
import json

import pytest

from corefscore.corpus import LinkData
from corefscore.formats import FormatErrors, read
from corefscore.formats.guess import guess_format
from tests.paths import REPO

DATA = REPO / "tests" / "data" / "label_studio"
REAL = DATA / "named_entity_annotation.json"

TEXT = "Mary met John. She thanked him. The meeting was long."


def region(id_, start, end, label="PER"):
    return {
        "id": id_,
        "from_name": "label",
        "to_name": "text",
        "type": "labels",
        "value": {"start": start, "end": end, "text": TEXT[start:end], "labels": [label]},
    }


def relation(source, target, labels, direction="right"):
    return {
        "from_id": source,
        "to_id": target,
        "type": "relation",
        "direction": direction,
        "labels": labels,
    }


def export(results, **task):
    return io.StringIO(
        json.dumps(
            [{"id": 7, "data": {"text": TEXT}, "annotations": [{"result": results}], **task}]
        )
    )


def test_a_real_label_studio_task_reads_its_regions_as_mentions():
    (topic,) = read("label-studio", REAL).topics
    assert topic.external_id == "1"
    (mention,) = topic.mentions
    tokens = topic.documents[0].tokens
    ((a, b),) = mention.spans
    assert tokens[a : b + 1] == ["February", "22"]
    assert mention.metadata["label-studio"]["labels"] == ["Date"]
    assert mention.cluster is None
    assert topic.clusters == []
    assert guess_format(REAL.read_bytes()).format == "label-studio"


def test_coreference_relations_are_clusters_and_the_others_links():
    results = [
        region("m", 0, 4),
        region("j", 9, 13),
        region("s", 15, 18),
        region("h", 27, 30),
        region("e", 32, 43, "EVENT"),
        relation("s", "m", ["coref"]),
        relation("h", "j", ["Coreference"]),
        relation("e", "m", ["Transformed"]),
        relation("j", "e", ["part-of"], direction="left"),
    ]
    (topic,) = read("label-studio", export(results)).topics
    tokens = topic.documents[0].tokens

    def text(i):
        ((a, b),) = topic.mentions[i].spans
        return " ".join(tokens[a : b + 1])

    clusters = {
        key: sorted(text(i) for i in members) for key, members in topic.cluster_members().items()
    }
    assert sorted(clusters.values()) == [["John", "him"], ["Mary", "She"]]
    index = {text(i): i for i in range(len(topic.mentions))}
    assert topic.links == [
        LinkData("TRANSFORMED", index["The meeting"], index["Mary"]),
        LinkData("part-of", index["The meeting"], index["John"]),
    ]


def test_only_the_first_annotation_is_read_with_a_warning():
    results = [region("m", 0, 4)]
    report = read(
        "label-studio",
        io.StringIO(
            json.dumps(
                [
                    {
                        "id": 1,
                        "data": {"text": TEXT},
                        "annotations": [{"result": results}, {"result": []}],
                    }
                ]
            )
        ),
    )
    assert any("1 more annotation(s) left out" in w.message for w in report.warnings)


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ([region("m", 0, 4), relation("m", "x", ["coref"])], "not in the task"),
        ([{**region("m", 0, 4), "value": {"start": 4, "end": 2, "labels": []}}], "not a span"),
        ([{**region("m", 0, 4), "value": {"start": 50, "end": 99, "labels": []}}], "beyond"),
    ],
)
def test_bad_tasks_are_refused_naming_the_result(results, message):
    with pytest.raises(FormatErrors, match=message):
        read("label-studio", export(results))


def task_export(task) -> io.StringIO:
    return io.StringIO(json.dumps(task))


def labelled(start: int, end: int, labels) -> dict:
    return {**region("m", 0, 4), "value": {"start": start, "end": end, "labels": labels}}


@pytest.mark.parametrize(
    ("export_text", "where", "message"),
    [
        # Read as a list, "PER" was three labels: P, E, R.
        (export([labelled(0, 4, "PER")]), "result[0].value.labels", "not a list of texts"),
        (
            export([region("m", 0, 4), region("j", 9, 13), relation("m", "j", "coref")]),
            "result[2].labels",
            "not a list of texts",
        ),
        # Read as no annotation: the task's text imported alone.
        (export([], annotations=None), "field annotations", "not a list of annotation objects"),
        (export([region("m", 0, 4)], id={"a": 1}), "field id", "a number or a text"),
        (export([region("m", 0, 4), relation("m", "m", ["coref"])]), "result[1]", "itself"),
        (export([labelled(-3, 4, ["PER"])]), "result[0]", "offsets -3-4 are not a span"),
    ],
)
def test_malformed_label_studio_values_are_refused_naming_task_and_field(
    export_text, where, message
):
    with pytest.raises(FormatErrors) as refusal:
        read("label-studio", export_text)
    (error,) = refusal.value.errors
    assert error.record == "task[0]"
    assert where in str(error)
    assert message in error.message


def test_one_task_object_instead_of_a_list_is_read_with_a_warning():
    task = {"id": 7, "data": {"text": TEXT}, "annotations": [{"result": [region("m", 0, 4)]}]}
    report = read("label-studio", task_export(task))
    assert [t.external_id for t in report.topics] == ["7"]
    assert any("not a list of tasks" in w.message for w in report.warnings)
