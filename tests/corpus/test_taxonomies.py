"""Seed taxonomies read into concept groups: the four shapes, every problem in words before
anything is written, and an import that is refused writes no group."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from corpus.models import ConceptGroup, Corpus
from corpus.reading.taxonomies import taxonomy_read

PWC = [
    {
        "name": "Methods",
        "children": [
            {"name": "Attention", "children": [{"name": "Self-Attention"}, {"name": "Additive"}]},
            {"name": "Convolutions"},
        ],
    },
    {"name": "Lonely leaf"},
]


def groups(format: str, text: str):
    report = taxonomy_read(format, text.encode(), name="t")
    assert report.ok, report.errors
    return [(g.name, g.kind, g.concepts) for g in report.groups]


def errors(format: str, text: str) -> list[str]:
    report = taxonomy_read(format, text.encode(), name="t")
    assert not report.ok
    assert not report.groups
    return report.errors


def test_a_papers_with_code_hierarchy_makes_a_group_per_parent():
    assert groups("hierarchy-json", json.dumps(PWC)) == [
        ("Methods", "hierarchy", ["Methods", "Attention", "Convolutions"]),
        ("Attention", "hierarchy", ["Attention", "Self-Attention", "Additive"]),
    ]


def test_a_parent_child_csv_gives_the_same_groups():
    text = "parent,child\nMethods,Attention\nMethods,Convolutions\nAttention,Self-Attention\n"
    text += "Attention,Additive\nMethods, attention \n"  # the same child again: once
    assert groups("hierarchy-csv", text) == [
        ("Methods", "hierarchy", ["Methods", "Attention", "Convolutions"]),
        ("Attention", "hierarchy", ["Attention", "Self-Attention", "Additive"]),
    ]


def test_curated_flat_groups_as_json_and_csv():
    expected = [("embeddings", "flat", ["word2vec", "GloVe", "fastText"]), ("x", "flat", ["y"])]
    flat = {"embeddings": ["word2vec", "GloVe", "fastText", "glove"], "x": ["y"]}
    assert groups("groups-json", json.dumps(flat)) == expected
    csv_text = "group,concept\nembeddings,word2vec\nembeddings,GloVe\nx,y\nembeddings,fastText\n"
    assert groups("groups-csv", csv_text) == expected


@pytest.mark.parametrize(
    ("format", "text", "expected"),
    [
        ("hierarchy-json", "[{", "t is not JSON: Expecting property name"),
        (
            "hierarchy-json",
            '[{"name": "A", "children": "B"}]',
            "the children of 'A' are not a list",
        ),
        (
            "hierarchy-json",
            '[{"name": "A", "children": [{"title": "B"}]}]',
            "t: child 1 of 'A' is not a node with a 'name'",
        ),
        ("hierarchy-json", '[{"name": "A"}]', "t has no group"),
        ("hierarchy-csv", "a,b\nc\n", "t line 2: 1 columns; a line is parent,child"),
        ("hierarchy-csv", "a,A\n", "t line 1: 'a' is given as its own child"),
        ("groups-json", '{"g": ["a"], "g": ["b"]}', "t: group 'g' is given twice"),
        ("groups-json", '{"g": []}', "t: group 'g' needs a list of concepts"),
        ("groups-json", '{"g": ["a", 3]}', "t: concept 2 of group 'g': a concept must be"),
        ("groups-csv", "g,\n", "t line 1: a concept must be a non-empty string"),
        ("groups-csv", "", "t is empty"),
        ("tree", "x", "'tree' is not a taxonomy format"),
    ],
)
def test_bad_taxonomies_are_refused_in_words(format, text, expected):
    assert any(expected in e for e in errors(format, text)), errors(format, text)


def test_every_problem_of_a_file_is_listed():
    found = errors("groups-csv", "g,a\nbad\ng,\n,b\n")
    assert len(found) == 3, found
    assert [e.split(":")[0] for e in found] == ["t line 2", "t line 3", "t line 4"]


@pytest.mark.django_db
def test_the_api_imports_groups_and_refuses_a_bad_file_writing_nothing(admin_client):
    corpus = Corpus.objects.create(name="cs")
    url = f"/api/corpora/{corpus.pk}/concept-groups/"
    bad = SimpleUploadedFile("pwc.csv", b"Methods,Attention\nMethods\n")
    answer = admin_client.post(url, {"file": bad, "format": "hierarchy-csv"})
    assert answer.status_code == 400
    assert answer.json()["errors"] == ["pwc.csv line 2: 1 columns; a line is parent,child"]
    assert not ConceptGroup.objects.exists()

    good = SimpleUploadedFile("pwc.json", json.dumps(PWC).encode())
    answer = admin_client.post(url, {"file": good, "format": "hierarchy-json", "name": "pwc"})
    assert answer.status_code == 201, answer.json()
    assert [g["name"] for g in answer.json()] == ["Methods", "Attention"]
    assert [g["name"] for g in admin_client.get(url).json()] == ["Attention", "Methods"]

    again = SimpleUploadedFile("pwc.json", json.dumps(PWC).encode())
    answer = admin_client.post(url, {"file": again, "format": "hierarchy-json", "name": "pwc"})
    assert answer.status_code == 409
    assert "already has a taxonomy named 'pwc'" in answer.json()["message"]
    assert ConceptGroup.objects.count() == 2
