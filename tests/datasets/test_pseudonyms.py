"""Pseudonyms of a release without names: letters in name order, every occurrence replaced."""

import pytest

from annotation.models import Assignment
from datasets.facts import anonymized, project_usernames_by_role, pseudonyms
from tests.factories import ProjectFactory, UserFactory, assign, make_topic


def test_names_become_annotator_letters_in_name_order_past_z():
    labels = pseudonyms([f"user{n:02d}" for n in range(28)])

    assert labels["user00"] == "annotator A"
    assert labels["user25"] == "annotator Z"
    assert labels["user26"] == "annotator AA"
    assert labels["user27"] == "annotator AB"


def test_every_username_and_pair_label_is_replaced_in_keys_and_values():
    labels = pseudonyms(["bob", "al-ice"])
    report = {
        "annotators": ["al-ice", "bob"],
        "topics": {"t1": {"conll_f1": {"pairs": {"al-ice-bob": 0.5}}}},
        "vs_gold": {"annotators": [{"annotator": "bob", "topics": 1}]},
        "validation": {"pairs": [{"validators": ["al-ice", "bob"]}]},
    }

    assert anonymized(report, labels) == {
        "annotators": ["annotator A", "annotator B"],
        "topics": {"t1": {"conll_f1": {"pairs": {"annotator A-annotator B": 0.5}}}},
        "vs_gold": {"annotators": [{"annotator": "annotator B", "topics": 1}]},
        "validation": {"pairs": [{"validators": ["annotator A", "annotator B"]}]},
    }


def test_an_adjudicator_takes_no_annotator_letter():
    # "alice" adjudicated only; she sorts first but is in no annotator table.
    labels = pseudonyms(["bob", "carol"], others=["alice"])

    assert labels == {
        "bob": "annotator A",
        "carol": "annotator B",
        "alice": "adjudicator A",
    }


@pytest.mark.django_db
def test_the_release_report_letters_its_annotators_without_a_gap():
    project = ProjectFactory(hierarchy=True)
    topic = make_topic(project=project)
    for name in ("bob", "carol"):
        assign(topic, UserFactory(username=name))
    Assignment.objects.create(
        topic=topic, user=UserFactory(username="alice"), role=Assignment.Role.ADJUDICATOR
    )

    labels = pseudonyms(*project_usernames_by_role(project))

    assert sorted(v for v in labels.values() if v.startswith("annotator")) == [
        "annotator A",
        "annotator B",
    ]
    assert labels["alice"] == "adjudicator A"
