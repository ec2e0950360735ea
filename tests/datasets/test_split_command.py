"""`manage.py dataset_split`: every topic assigned, the same seed the same split, an existing
split kept unless --force, the run recorded, bad ratios refused."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from annotation.models import Topic
from datasets.models import SplitRecord

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.project(name="chemu", format="chemu", hierarchy=False, anaphora=True),
]


def split(*args) -> str:
    out = StringIO()
    call_command("dataset_split", "--project", "chemu", *args, stdout=out)
    return out.getvalue()


def assignment(project) -> dict[str, str]:
    return dict(Topic.objects.filter(project=project).values_list("external_id", "split"))


def test_every_topic_gets_a_split_and_the_run_is_recorded(project):
    out = split("--ratios", "0.5,0.25,0.25", "--seed", "5")

    assert out.startswith("split 8 topics: train 4, dev 2, test 2 (seed 5, balance links)")
    assert sorted(assignment(project).values()) == ["dev"] * 2 + ["test"] * 2 + ["train"] * 4
    record = SplitRecord.objects.get(project=project)
    assert (record.seed, record.names, record.ratios, record.balance) == (
        5,
        ["train", "dev", "test"],
        [0.5, 0.25, 0.25],
        "links",
    )
    assert record.assignment == assignment(project)


def test_the_same_seed_gives_the_same_split_after_force(project):
    split("--ratios", "0.5,0.5", "--seed", "2")
    first = assignment(project)
    split("--ratios", "0.5,0.5", "--seed", "3", "--force")
    split("--ratios", "0.5,0.5", "--seed", "2", "--force")

    assert assignment(project) == first
    assert SplitRecord.objects.filter(project=project).count() == 3


def test_an_existing_split_is_kept_without_force(project):
    split("--ratios", "0.5,0.5", "--seed", "2")
    first = assignment(project)

    out = split("--ratios", "0.6,0.15,0.25", "--names", "a,b,c")

    assert out.strip() == "kept the existing split (test 4, train 4); pass --force to replace it"
    assert assignment(project) == first
    assert SplitRecord.objects.filter(project=project).count() == 1


def test_names_and_balance_can_be_chosen(project):
    split("--ratios", "0.75,0.25", "--names", "fit,held-out", "--balance", "mentions")

    assert set(assignment(project).values()) == {"fit", "held-out"}
    assert SplitRecord.objects.get(project=project).balance == "mentions"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ratios", "0.6,0.3"], "add up to 0.9, not 1"),
        (["--ratios", "1"], "at least two ratios"),
        (["--ratios", "0.5,x"], "is not a list of numbers"),
        (["--ratios", "0.5,0.5", "--names", "a,a"], "distinct"),
        (["--ratios", "0.2,0.2,0.2,0.4"], "give --names for 4 splits"),
    ],
)
def test_bad_ratios_or_names_are_refused_and_nothing_is_split(project, args, message):
    with pytest.raises(CommandError, match=message):
        split(*args)

    assert set(assignment(project).values()) == {""}
