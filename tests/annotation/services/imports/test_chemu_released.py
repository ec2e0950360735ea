"""The official ChEMU-Ref training file goes in and comes out as released.

Every link entry is kept: the 52 with an empty side and the 2 repeats as released (held
with the gold annotation, written back in their place), the 5 the workspace would refuse
(3 antecedents after their anaphor, 2 second TRANSFORMED links) as links, marked where the
workspace shows them; the import report lists all 59. The gold's export equals the file,
and the statistics give the overview's Table 1 bridging counts, from the file and from the
project. The rules still refuse a new link that breaks them.
"""

from __future__ import annotations

import json
from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command

from annotation.domain.errors import LinkRuleError
from annotation.domain.invariants import invariant_violations
from annotation.domain.operations.links import add_link
from annotation.models import Annotation, RelationLink, Topic
from annotation.selectors.state import annotation_state_load
from corefscore.formats import read
from corefscore.formats.chemu import link_entries
from tests.factories import ProjectFactory
from tests.paths import CHEMU_TRAIN

pytestmark = pytest.mark.django_db

# The ChEMU-Ref overview (Table 1, training): the four bridging types' counts.
TABLE_1_BRIDGING = {
    "TRANSFORMED": 493,
    "REACTION_ASSOCIATED": 3308,
    "WORK_UP": 6230,
    "CONTAINED": 346,
}


def command(name: str, *args: str) -> str:
    out = StringIO()
    call_command(name, *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_the_training_file_imports_whole_exports_as_released_and_gives_table_1(
    tmp_path, client, admin_user
):
    ProjectFactory(name="ChEMU", hierarchy=False, anaphora=True)

    lines = command("import_topics", "--project", "ChEMU", "--format", "chemu", str(CHEMU_TRAIN))

    report = lines.splitlines()
    assert report[0].startswith("train.english.jsonlines: imported 900 topic(s)")
    assert not [line for line in report if line.startswith("skipped ")]
    warnings = [line for line in report if line.startswith("warning: ")]
    assert sum("not a link of the workspace" in w for w in warnings) == 52
    assert sum("one link, written back twice" in w for w in warnings) == 2
    assert sum("(rule order)" in w for w in warnings) == 3
    assert sum("(rule transformed_one_to_one)" in w for w in warnings) == 2
    assert warnings[0] == (
        "warning: train.english.jsonlines: line 4, field Coreference[0][0]: the anaphor is empty "
        "(antecedent [[2, 3]] 'compound 38-g'); kept as released, not a link of the workspace"
    )
    assert Annotation.objects.filter(kind="gold").count() == 900
    assert RelationLink.objects.count() == 12947  # every link entry but held ones

    out = tmp_path / "gold.jsonlines"
    command("export_annotations", "--project", "ChEMU", "--format", "chemu", str(out))
    assert out.read_bytes() == CHEMU_TRAIN.read_bytes()

    total = json.loads(command("dataset_stats", "--project", "ChEMU", "--json"))["total"]
    from_file: Counter[str] = Counter()
    for read_topic in read("chemu", CHEMU_TRAIN).topics:
        from_file.update(link_entries(read_topic))
    assert {t: total["link_entries"][t] for t in TABLE_1_BRIDGING} == TABLE_1_BRIDGING
    assert {t: from_file[t] for t in TABLE_1_BRIDGING} == TABLE_1_BRIDGING
    assert total["link_entries"] == dict(from_file)

    # Line 292's second TRANSFORMED link: imported as it is, marked for the workspace.
    topic = Topic.objects.get(
        external_id=json.loads(CHEMU_TRAIN.read_text().splitlines()[291])["doc_key"]
    )
    gold = topic.annotations.get(kind="gold")
    client.force_login(admin_user)
    assert "chemu" not in client.get(f"/api/topics/{topic.pk}/").json()["metadata"]
    payload = client.get(f"/api/annotations/{gold.pk}/").json()
    (mark,) = payload["import_marks"]
    assert mark["field"] == "Transformed[1]"
    assert mark["message"].startswith(
        "TRANSFORMED is one-to-one: the antecedent (tokens 45-47 'The reaction mixture') "
        "already has the TRANSFORMED anaphor (tokens 58-58 'gas') of Transformed[0]"
    )
    assert Topic.objects.filter(metadata__chemu__has_key="held").count() == 0

    # The gold holds the link the rules refuse; a new one like it is still refused.
    state = annotation_state_load(gold)
    assert invariant_violations(state)
    antecedents = Counter(link.antecedent for link in state.links if link.type == "TRANSFORMED")
    ((shared, _),) = [(m, n) for m, n in antecedents.items() if n == 2]
    linked = {link.anaphor for link in state.links if link.antecedent == shared}
    later = next(
        m
        for m in sorted(state.mentions)
        if state.mentions[m].start > state.mentions[shared].start and m not in linked
    )
    with pytest.raises(LinkRuleError, match="one-to-one"):
        add_link(state, type="TRANSFORMED", anaphor=later, antecedent=shared)
