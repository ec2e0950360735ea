"""Pseudonyms of a release without names: letters in name order, every occurrence replaced."""

from datasets.facts import anonymized, pseudonyms


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
