"""The ChEMU-Ref link rules are decided in one place (corefscore.link_rules): a file's
links are checked as the workspace would add them, and the readers of formats with links warn
about the links it would refuse, or (link_rules=True, the importer) refuse them."""

from __future__ import annotations

import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from annotation.domain.effects import apply_effects
from annotation.domain.errors import LinkRuleError
from annotation.domain.operations.links import add_link
from annotation.domain.state import AnnotationState, Mention, Settings
from corefscore.corpus import LINK_TYPES, LinkData, MentionData
from corefscore.formats.brat import read_brat
from corefscore.formats.chemu import read_chemu_jsonlines
from corefscore.link_rules import (
    ORDER,
    SAME_DOCUMENT,
    SELF_LINK,
    TRANSFORMED_ONE_TO_ONE,
    LinkViolation,
    link_violations,
)

MENTIONS = [MentionData(0, ((0, 1),)), MentionData(0, ((3, 3),)), MentionData(0, ((6, 7),))]


def test_each_rule_is_named_for_the_link_that_breaks_it():
    mentions = [*MENTIONS, MentionData(1, ((9, 9),))]
    links = [
        LinkData("COREFERENCE", 1, 1),
        LinkData("COREFERENCE", 0, 1),
        LinkData("COREFERENCE", 3, 0),
        LinkData("TRANSFORMED", 2, 0),
        LinkData("TRANSFORMED", 2, 1),
        LinkData("TRANSFORMED", 1, 0),
    ]

    assert link_violations(links, mentions) == [
        LinkViolation(0, SELF_LINK),
        LinkViolation(1, ORDER),
        LinkViolation(2, SAME_DOCUMENT),
        LinkViolation(4, TRANSFORMED_ONE_TO_ONE, "anaphor", 3),
        LinkViolation(5, TRANSFORMED_ONE_TO_ONE, "antecedent", 3),
    ]


def test_a_refused_link_takes_no_slot_from_the_links_after_it():
    links = [LinkData("TRANSFORMED", 0, 1), LinkData("TRANSFORMED", 1, 0)]

    assert link_violations(links, MENTIONS) == [LinkViolation(0, ORDER)]


def test_the_other_types_are_one_to_many():
    links = [LinkData(type, 2, 0) for type in LINK_TYPES if type != "TRANSFORMED"]
    links += [LinkData("COREFERENCE", 2, 1)]

    assert link_violations(links, MENTIONS) == []


@settings(max_examples=200, deadline=None)
@given(
    starts=st.lists(st.integers(0, 6), min_size=2, max_size=5),
    links=st.lists(
        st.tuples(
            st.sampled_from(["TRANSFORMED", "COREFERENCE"]), st.integers(0, 4), st.integers(0, 4)
        ),
        max_size=8,
    ),
)
def test_a_file_is_refused_exactly_the_links_the_workspace_refuses_one_by_one(starts, links):
    mentions = [MentionData(0, ((2 * s + i % 2, 2 * s + i % 2),)) for i, s in enumerate(starts)]
    links = [LinkData(t, a % len(mentions), b % len(mentions)) for t, a, b in links]
    links = list(dict.fromkeys((link.type, link.anaphor, link.antecedent) for link in links))
    links = [LinkData(*link) for link in links]
    state = AnnotationState(
        settings=Settings(anaphora=True),
        documents={0: 20},
        mentions={i: Mention(i, 0, m.spans) for i, m in enumerate(mentions)},
    )
    refused = []
    for index, link in enumerate(links):
        try:
            result = add_link(
                state, type=link.type, anaphor=link.anaphor, antecedent=link.antecedent
            )
        except LinkRuleError:
            refused.append(index)
            continue
        apply_effects(state, result.effects)

    assert [v.index for v in link_violations(links, mentions)] == refused


def chemu(**links) -> io.StringIO:
    tokens = ["The", "oil", "was", "heated", ";", "the", "oil", "gave", "the", "product", "."]
    stream = io.StringIO(json.dumps({"doc_key": "s1", "sentences": [tokens], **links}) + "\n")
    stream.name = "s.jsonlines"
    return stream


TWO_TRANSFORMED = {"Transformed": [[[[5, 6]], [[0, 1]]], [[[5, 6]], [[3, 3]]]]}


def test_by_default_chemu_keeps_a_link_the_workspace_refuses_as_gold_data_with_a_warning():
    report = read_chemu_jsonlines(chemu(**TWO_TRANSFORMED))

    assert len(report.topics[0].links) == 2
    assert [w.field for w in report.warnings] == ["Transformed[1]"]
    assert report.warnings[0].message.endswith("; kept as gold data")


def test_with_link_rules_chemu_keeps_it_as_released_and_marks_it():
    report = read_chemu_jsonlines(chemu(**TWO_TRANSFORMED), link_rules=True)

    assert report.errors == report.skipped == []
    (warning,) = report.warnings
    assert (warning.file, warning.record, warning.field) == ("s.jsonlines", 1, "Transformed[1]")
    assert warning.message.endswith(
        "imported as released, but the workspace refuses such a link (rule transformed_one_to_one)"
    )
    topic = report.topics[0]
    assert len(topic.links) == 2
    assert topic.metadata["chemu"]["marks"] == [
        {"field": "Transformed[1]", "message": warning.message}
    ]


def brat_folder(tmp_path):
    (tmp_path / "d.txt").write_text("The oil was heated ; the oil gave the product .\n")
    (tmp_path / "d.ann").write_text(
        "T1\tMention 0 7\tThe oil\nT2\tMention 21 28\tthe oil\n"
        "R1\tCoreference Arg1:T1 Arg2:T2\nR2\tCoreference Arg1:T2 Arg2:T1\n"
    )
    return tmp_path


def test_brat_keeps_a_relation_the_workspace_refuses_unless_asked_for_the_link_rules(tmp_path):
    folder = brat_folder(tmp_path)

    kept = read_brat(folder)
    skipped = read_brat(folder, link_rules=True, skip_invalid=True)

    assert len(kept.topics[0].links) == 2
    assert [(w.record, w.field) for w in kept.warnings] == [("R1", "Arg2")]
    assert [(s.record, s.scope) for s in skipped.skipped] == [("R1", "link R1")]
    assert skipped.topics[0].metadata["brat"]["relation_ids"] == ["R2"]
    assert "(rule order)" in str(skipped.errors[0])
