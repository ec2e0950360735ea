import shutil

from corefscore.formats import read, write
from corefscore.formats.brat import read_brat, write_brat
from corefscore.formats.chartokens import tokenize
from tests.formats import errors_of

TEXT = (
    "Compound 5 (1.5 g) was dissolved in THF.\n"
    "The mixture was stirred to give compound 6 as a white solid.\n"
)


def pair(tmp_path, ann, text=TEXT, stem="doc"):
    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    (folder / f"{stem}.txt").write_text(text)
    (folder / f"{stem}.ann").write_text(ann)
    return folder


def span_of(words, text=TEXT):
    start = text.index(words)
    return f"{start} {start + len(words)}"


def words(topic, mention):
    tokens = topic.documents[mention.document].tokens
    return [" ".join(tokens[start : end + 1]) for start, end in mention.spans]


def test_the_fixture_reads_discontinuous_entities_relations_and_equivalences(fixtures_dir):
    report = read("brat", fixtures_dir / "brat")
    topic = report.topics[0]
    assert report.warnings == []
    assert topic.external_id == "snippet1"
    assert words(topic, topic.mentions[4]) == ["compound 6", "yellow oil"]
    assert [(link.type, link.anaphor, link.antecedent) for link in topic.links] == [
        ("REACTION_ASSOCIATED", 2, 0),
        ("REACTION_ASSOCIATED", 2, 1),
        ("WORK_UP", 4, 3),
        ("COREFERENCE", 3, 2),
    ]
    assert [m.cluster for m in topic.mentions] == [None, None, "1", "1", None]
    assert topic.documents[0].sentences == [(0, 18), (18, 51)]


def test_the_fixture_round_trips_through_brat_twice(fixtures_dir, tmp_path):
    first = read("brat", fixtures_dir / "brat").topics
    write("brat", first, tmp_path / "one")
    second = read("brat", tmp_path / "one").topics
    assert second == first
    write("brat", second, tmp_path / "two")
    assert read("brat", tmp_path / "two").topics == second
    assert (tmp_path / "one" / "snippet1.ann").read_text() == (
        tmp_path / "two" / "snippet1.ann"
    ).read_text()


def test_notes_and_attributes_are_kept_verbatim(fixtures_dir, tmp_path):
    write("brat", read("brat", fixtures_dir / "brat").topics, tmp_path)
    ann = (tmp_path / "snippet1.ann").read_text()
    assert "#1\tAnnotatorNotes T3\tmixture of compound 5 and THF\n" in ann
    assert "A1\tConfidence T6 High\n" in ann


def test_written_text_is_tokens_joined_by_spaces_one_sentence_per_line(fixtures_dir, tmp_path):
    write("brat", read("brat", fixtures_dir / "brat").topics, tmp_path)
    lines = (tmp_path / "snippet1.txt").read_text().splitlines()
    assert lines[0] == "Compound 5 ( 1.5 g , 4.47 mmol ) was dissolved in THF ( 80 mL ) ."


def test_a_single_pair_can_be_read_by_its_ann_path(fixtures_dir):
    assert [t.external_id for t in read_brat(fixtures_dir / "brat" / "snippet1.ann").topics] == [
        "snippet1"
    ]


def test_relation_type_names_are_matched_without_case(tmp_path):
    ann = (
        f"T1\tMention {span_of('The mixture')}\tThe mixture\nT2\tMention {span_of('THF')}\tTHF\n"
        "R1\tREACTION_ASSOCIATED Arg1:T1 Arg2:T2\n"
    )
    topic = read_brat(pair(tmp_path, ann)).topics[0]
    assert topic.links[0].type == "REACTION_ASSOCIATED"


def test_entity_offsets_cut_tokens_where_they_fall(tmp_path):
    topic = read_brat(pair(tmp_path, f"T1\tMention {span_of('mix')}\tmix\n")).topics[0]
    assert words(topic, topic.mentions[0]) == ["mix"]
    assert topic.documents[0].tokens[11:14] == ["The", "mix", "ture"]


def test_entity_text_that_differs_from_the_offsets_is_a_warning(tmp_path):
    report = read_brat(pair(tmp_path, f"T1\tMention {span_of('THF')}\tDMF\n"))
    assert (
        str(report.warnings[0])
        == "doc.ann: T1, field text: 'DMF' differs from the text at its offsets ('THF')"
    )


def test_offsets_beyond_the_text_are_an_error(tmp_path):
    errors = errors_of(read_brat, pair(tmp_path, "T1\tMention 95 140\tx\n"))
    assert (
        str(errors[0])
        == f"doc.ann: T1, field offsets: offset 140 is beyond the text's {len(TEXT)} characters"
    )


def test_relation_naming_an_unknown_entity_is_an_error(tmp_path):
    errors = errors_of(
        read_brat,
        pair(tmp_path, f"T1\tMention {span_of('THF')}\tTHF\nR1\tCoreference Arg1:T1 Arg2:T9\n"),
    )
    assert str(errors[0]) == "doc.ann: R1, field Arg2: T9 is not an entity of this file"


def test_equivalence_naming_an_unknown_entity_is_an_error(tmp_path):
    errors = errors_of(
        read_brat, pair(tmp_path, f"T1\tMention {span_of('THF')}\tTHF\n*\tCoreference T1 T4\n")
    )
    assert (errors[0].record, errors[0].field) == (2, "*")


def test_an_unknown_relation_type_is_kept_but_not_read_as_a_link(tmp_path):
    ann = (
        f"T1\tMention {span_of('The mixture')}\tThe mixture\nT2\tMention {span_of('THF')}\tTHF\n"
        "R1\tPart-of Arg1:T1 Arg2:T2\n"
    )
    report = read_brat(pair(tmp_path, ann))
    assert report.topics[0].links == []
    assert "Part-of is not one of" in report.warnings[0].message
    write_brat(report.topics, tmp_path / "out")
    assert "R1\tPart-of Arg1:T1 Arg2:T2\n" in (tmp_path / "out" / "doc.ann").read_text()


def test_with_skip_invalid_a_bad_pair_is_skipped_and_the_others_read(tmp_path, fixtures_dir):
    folder = pair(tmp_path, "T1\tMention 1 999\tx\n", stem="bad")
    shutil.copy(fixtures_dir / "brat" / "snippet1.txt", folder)
    shutil.copy(fixtures_dir / "brat" / "snippet1.ann", folder)
    report = read_brat(folder, skip_invalid=True)
    assert [t.external_id for t in report.topics] == ["snippet1"]
    assert [s.file for s in report.skipped] == ["bad.ann"]


def test_tokenising_tokens_joined_by_spaces_gives_them_back():
    text = (
        "Isopropanol (25.00 g) containing (R)-3-aminoquinuclidine (5.01 g: 39.7 mmol), "
        "2 eq. at 60° C."
    )
    tokens = [text[a:b] for a, b in tokenize(text)]
    assert tokens[:5] == ["Isopropanol", "(", "25.00", "g", ")"]
    assert "(R)-3-aminoquinuclidine" in tokens
    assert "eq." in tokens
    assert tokens[-2:] == ["C", "."]
    joined = " ".join(tokens)
    assert [joined[a:b] for a, b in tokenize(joined)] == tokens


def test_chemu_snippets_survive_a_trip_through_brat(shared_data, tmp_path):
    chemu = read(
        "chemu", shared_data / "chemu-ref" / "train.english.jsonlines", skip_invalid=True
    ).topics[:150]
    write("brat", chemu, tmp_path)
    back = {t.external_id: t for t in read("brat", tmp_path).topics}
    for topic in chemu:
        other = back[topic.external_id]
        assert other.documents[0].tokens == topic.documents[0].tokens
        assert other.documents[0].sentences == topic.documents[0].sentences
        assert [m.spans for m in other.mentions] == [m.spans for m in topic.mentions]
        assert other.links == topic.links
