"""The statistics of the real ChEMU-Ref training file equal a count made here, from the
jsonlines themselves, of what the import keeps."""

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command

from annotation.domain.corpus import LINK_TYPES
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
SKIPPED = re.compile(r"^skipped link (\S+)\[(\d+)\]: .*: line (\d+), field ")


def independent_count(dropped: set[tuple[int, str, int]]) -> dict:
    """Topics with a link, their mentions (distinct span sets the kept links use),
    discontinuous mentions, distinct links per type and anaphors, read from the file; the
    links the import left out (`dropped`: line, relation, index, as it listed them) are not
    counted."""
    totals = {
        "topics": 0,
        "mentions": 0,
        "discontinuous_mentions": 0,
        "anaphors": 0,
        "sentences": 0,
        "tokens": 0,
    }
    links = dict.fromkeys(LINK_TYPES, 0)
    with open(CHEMU_TRAIN, encoding="utf-8") as stream:
        for line_number, line in enumerate(stream, start=1):
            snippet = json.loads(line)
            kept = set()
            for relation, type in FILE_NAMES.items():
                for index, (anaphor, antecedent) in enumerate(snippet[relation]):
                    if (line_number, relation, index) in dropped:
                        continue
                    assert anaphor
                    assert antecedent
                    kept.add((type, tuple(map(tuple, anaphor)), tuple(map(tuple, antecedent))))
            if not kept:
                continue
            mentions = {m for _, anaphor, antecedent in kept for m in (anaphor, antecedent)}
            totals["topics"] += 1
            totals["sentences"] += len(snippet["sentences"])
            totals["tokens"] += sum(len(sentence) for sentence in snippet["sentences"])
            totals["mentions"] += len(mentions)
            totals["discontinuous_mentions"] += sum(1 for m in mentions if len(m) > 1)
            totals["anaphors"] += len({anaphor for _, anaphor, _ in kept})
            for type, _, _ in kept:
                links[type] += 1
    return {**totals, "links": links}


@pytest.fixture
def chemu():
    project = ProjectFactory(name="ChEMU", hierarchy=False, anaphora=True)
    out = StringIO()
    call_command(
        "import_topics",
        "--project",
        "ChEMU",
        "--format",
        "chemu",
        "--skip-invalid",
        str(CHEMU_TRAIN),
        stdout=out,
    )
    dropped = set()
    for line in out.getvalue().splitlines():
        match = SKIPPED.match(line)
        if match:
            dropped.add((int(match[3]), match[1], int(match[2])))
    return project, dropped


def stats_json(*args) -> dict:
    out = StringIO()
    call_command("dataset_stats", "--project", "ChEMU", "--json", *args, stdout=out)
    return json.loads(out.getvalue())


def test_the_chemu_train_statistics_equal_an_independent_count_of_the_file(chemu):
    _, dropped = chemu
    assert len(dropped) == 57  # what the import listed

    expected = independent_count(dropped)
    result = stats_json()

    total = result["total"]
    assert {key: total[key] for key in expected} == expected
    assert result["splits"] == {}
    # A ChEMU file has no clusters or hierarchy: those keys are there, as 0.
    assert total["clusters"] == total["singletons"] == total["relations"] == 0
    assert total["mean_components"] == total["mean_max_depth"] == 0
    # ChEMU Table 1's Tokens/Sentences over the file's own sentences (docs/datasets.md)
    assert total["tokens_per_sentence"] == round(expected["tokens"] / expected["sentences"], 4)
    print(json.dumps(total))


def test_a_split_of_chemu_balances_every_link_type_within_half_a_point(chemu):
    # 346 CONTAINED links make 1/346 = 0.29 points the finest step; the search reaches 0.14.
    project, _ = chemu

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
