"""The statistics of the real ChEMU-Ref training file equal a count made here, from the
jsonlines themselves, of what the import keeps."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from corefscore.corpus import LINK_TYPES
from datasets.services.splits import dataset_split
from tests.factories import ProjectFactory
from tests.paths import CHEMU_TRAIN

pytestmark = pytest.mark.django_db

FILE_NAMES = {
    "Coreference": "COREFERENCE",
    "Transformed": "TRANSFORMED",
    "Reaction-associated": "REACTION_ASSOCIATED",
    "Work-up": "WORK_UP",
    "Contained": "CONTAINED",
}


def independent_count() -> dict:
    """Topics (every snippet), their mentions (distinct span sets the links use), discontinuous
    mentions, distinct links per type (both sides non-empty), anaphors, and every link entry
    per type as listed (ChEMU Table 1's rows), read from the file."""
    totals = {
        "topics": 0,
        "mentions": 0,
        "discontinuous_mentions": 0,
        "anaphors": 0,
        "sentences": 0,
        "tokens": 0,
    }
    links = dict.fromkeys(LINK_TYPES, 0)
    entries = dict.fromkeys(LINK_TYPES, 0)
    with open(CHEMU_TRAIN, encoding="utf-8") as stream:
        for line in stream:
            snippet = json.loads(line)
            kept = set()
            for relation, type in FILE_NAMES.items():
                for anaphor, antecedent in snippet[relation]:
                    entries[type] += 1
                    if anaphor and antecedent:
                        kept.add((type, spans(anaphor), spans(antecedent)))
            mentions = {m for _, anaphor, antecedent in kept for m in (anaphor, antecedent)}
            totals["topics"] += 1
            totals["sentences"] += len(snippet["sentences"])
            totals["tokens"] += sum(len(sentence) for sentence in snippet["sentences"])
            totals["mentions"] += len(mentions)
            totals["discontinuous_mentions"] += sum(1 for m in mentions if len(m) > 1)
            totals["anaphors"] += len({anaphor for _, anaphor, _ in kept})
            for type, _, _ in kept:
                links[type] += 1
    return {**totals, "links": links, "link_entries": entries}


def spans(mention) -> tuple:
    return tuple(sorted(map(tuple, mention)))


@pytest.fixture
def chemu():
    project = ProjectFactory(name="ChEMU", hierarchy=False, anaphora=True)
    call_command(
        "import_topics",
        "--project",
        "ChEMU",
        "--format",
        "chemu",
        str(CHEMU_TRAIN),
        stdout=StringIO(),
    )
    return project


def stats_json(*args) -> dict:
    out = StringIO()
    call_command("dataset_stats", "--project", "ChEMU", "--json", *args, stdout=out)
    return json.loads(out.getvalue())


def test_the_chemu_train_statistics_equal_an_independent_count_of_the_file(chemu):
    expected = independent_count()
    result = stats_json()

    total = result["total"]
    assert {key: total[key] for key in expected} == expected
    # ChEMU Table 1's bridging rows are the file's link entries (the overview, training).
    assert {t: total["link_entries"][t] for t in LINK_TYPES if t != "COREFERENCE"} == {
        "TRANSFORMED": 493,
        "REACTION_ASSOCIATED": 3308,
        "WORK_UP": 6230,
        "CONTAINED": 346,
    }
    assert result["splits"] == {}
    # A ChEMU file has no clusters or hierarchy: those keys are there, as 0.
    assert total["clusters"] == total["singletons"] == total["relations"] == 0
    assert total["mean_components"] == total["mean_max_depth"] == 0
    # ChEMU Table 1's Tokens/Sentences over the file's own sentences (docs/datasets.md)
    assert total["tokens_per_sentence"] == round(expected["tokens"] / expected["sentences"], 4)
    print(json.dumps(total))


def test_a_split_of_chemu_balances_every_link_type_within_half_a_point(chemu):
    # 346 CONTAINED links make 1/346 = 0.29 points the finest step; the search reaches 0.14.
    project = chemu

    outcome = dataset_split(project=project, ratios=[0.6, 0.15, 0.25], seed=7)

    assert outcome.sizes == {"train": 540, "dev": 135, "test": 225}
    assert outcome.record is not None
    assert outcome.record.deviation <= 0.005
    split = stats_json()["splits"]
    total = stats_json()["total"]
    for name, share in (("train", 0.6), ("dev", 0.15), ("test", 0.25)):
        for type in LINK_TYPES:
            assert abs(split[name]["links"][type] / total["links"][type] - share) <= 0.005
    assert sum(split[name]["topics"] for name in split) == total["topics"]
