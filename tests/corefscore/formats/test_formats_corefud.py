"""CorefUD 1.x on real files (tests/data/corefud, see its README): entities, bridges, split
antecedents, discontinuous mentions; documents, sentences and comments survive a round trip."""

import io

import pytest

from corefscore.corpus import LinkData
from corefscore.formats import FormatErrors, read, write
from tests.paths import REPO

DATA = REPO / "tests" / "data" / "corefud"
DEMOCRAT = DATA / "fr_democrat_dev_sample.conllu"
GUM = DATA / "gum_dev_excerpt.conllu"


def words(topic, mention):
    return " ".join(topic.documents[0].tokens[a] for a, b in mention.spans for a in range(a, b + 1))


def round_trip(topics) -> str:
    out = io.StringIO()
    assert write("corefud", topics, out) == []
    return out.getvalue()


@pytest.mark.parametrize("path", [DEMOCRAT, GUM])
def test_real_files_are_written_back_byte_for_byte(path):
    topics = read("corefud", path).topics
    assert round_trip(topics) == path.read_text()


def test_each_document_is_a_topic_and_entities_are_clusters():
    topics = read("corefud", DEMOCRAT).topics
    assert [t.external_id for t in topics] == [
        "ungroupped-estrepublicain-2-066",
        "ungroupped-estrepublicain-2-005",
    ]
    first = topics[0]
    assert first.documents[0].sentences == [(0, 6), (6, 40)]
    by_entity = {
        c.key: [words(first, first.mentions[i]) for i in first.cluster_members()[c.key]]
        for c in first.clusters
    }
    # "ses" (e36773) refers back to La Caisse ... de Belfort; nested mentions are kept.
    assert by_entity["e36773"] == [
        "La Caisse d' Allocations familiales de le Territoire de Belfort",
        "ses",
    ]
    assert by_entity["e36775"] == ["le Territoire de Belfort"]
    # The multiword token "du" (6-7) is not a token; its words are.
    assert "du" not in first.documents[0].tokens


def test_bridges_become_typed_links_and_split_antecedents_are_kept():
    byron, emperor = read("corefud", GUM).topics
    (link,) = byron.links
    assert link.type == "BRIDGE"
    assert byron.mentions[link.anaphor].cluster == "57"
    assert byron.mentions[link.antecedent].cluster == "54"
    assert byron.metadata["corefud"]["split_antecedents"] == ["4<19,8<19"]
    assert [link.type for link in emperor.links] == ["BRIDGE"]


def test_a_changed_annotation_is_written_and_read_back():
    byron = read("corefud", GUM).topics[0]
    # Drop the bridge and merge two entities: the Entity and Bridge values are recomputed.
    byron.links = []
    moved = [m for m in byron.mentions if m.cluster == "8"]
    for mention in moved:
        mention.cluster = "4"
        mention.metadata = {}
    back = read("corefud", io.StringIO(round_trip([byron]))).topics[0]
    assert back.links == []
    assert [(m.spans, m.cluster) for m in back.mentions] == [
        (m.spans, m.cluster) for m in byron.mentions
    ]


DISCONTINUOUS = """# newdoc id = d1
# global.Entity = eid-etype-head-other
# sent_id = d1-1
# text = Peter and Mary met him .
1\tPeter\t_\t_\t_\t_\t_\t_\t_\tEntity=(e1[1/2]-person-1)
2\tand\t_\t_\t_\t_\t_\t_\t_\t_
3\tMary\t_\t_\t_\t_\t_\t_\t_\tEntity=(e1[2/2])|SplitAnte=e2<e1
4\tmet\t_\t_\t_\t_\t_\t_\t_\t_
5\thim\t_\t_\t_\t_\t_\t_\t_\tBridge=e1<e3:part|Entity=(e3-person-1)
6\t.\t_\t_\t_\t_\t_\t_\t_\t_

"""


def test_a_discontinuous_mention_is_one_mention_with_two_spans_and_writes_back():
    (topic,) = read("corefud", io.StringIO(DISCONTINUOUS)).topics
    (peter_mary, _him) = topic.mentions
    assert peter_mary.spans == ((0, 0), (2, 2))
    assert peter_mary.cluster == "e1"
    assert topic.links == [LinkData("BRIDGE:part", 1, 0)]
    assert round_trip([topic]) == DISCONTINUOUS


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (DISCONTINUOUS.replace("(e3-person-1)", "(e3-person-1"), "never closed"),
        (DISCONTINUOUS.replace("Bridge=e1<e3", "Bridge=e9<e3"), "no mention of e9"),
        (
            DISCONTINUOUS.replace(
                "1\tPeter", "1-2\tPeter-and\t_\t_\t_\t_\t_\t_\t_\tEntity=(e7)\n1\tPeter"
            ),
            "a multiword token",
        ),
    ],
)
def test_what_cannot_be_carried_is_refused_with_its_line(text, message):
    with pytest.raises(FormatErrors, match=message):
        read("corefud", io.StringIO(text))


def test_a_scico_topic_is_written_as_corefud_and_read_back(fixtures_dir):
    topic = read("scico", fixtures_dir / "scico_small.jsonl").topics[0]
    topic.documents = topic.documents[:1]
    topic.mentions = [m for m in topic.mentions if m.document == 0]
    topic.relations = []
    back = read("corefud", io.StringIO(round_trip([topic]))).topics[0]
    assert back.documents[0].tokens == topic.documents[0].tokens
    assert sorted((m.spans, m.cluster) for m in back.mentions) == sorted(
        (m.spans, m.cluster) for m in topic.mentions
    )


NESTED_SAME_ENTITY = """# newdoc id = d2
# global.Entity = eid-etype-head-other
# sent_id = d2-1
# text = Americans themselves
1\tAmericans\t_\t_\t_\t_\t_\t_\t_\tEntity=(e34-person-2(e34-person-1)
2\tthemselves\t_\t_\t_\t_\t_\t_\t_\tEntity=e34)

"""


def test_two_mentions_of_one_entity_starting_at_one_word_are_both_kept():
    # As in GUM's dev file (GUM_speech_impeachment): "(34-...(34-...)" on one word.
    (topic,) = read("corefud", io.StringIO(NESTED_SAME_ENTITY)).topics
    assert [(m.spans, m.cluster) for m in topic.mentions] == [
        (((0, 0),), "e34"),
        (((0, 1),), "e34"),
    ]
    assert round_trip([topic]) == NESTED_SAME_ENTITY


def test_cluster_keys_corefud_cannot_carry_are_renamed_and_the_clusters_kept():
    from tests.paths import COREFI_DATA

    topic = read("corefi", min(COREFI_DATA.glob("*.json"))).topics[0]
    assert any("-" in key for key in topic.cluster_members())  # CoRefi's keys: "0-2"...
    back = read("corefud", io.StringIO(round_trip([topic]))).topics

    def groups(mentions, document, keep):
        members = {}
        for m in mentions:
            if m.cluster is not None and m.document == document and m.spans in keep:
                members.setdefault(m.cluster, []).append(m.spans)
        return sorted(sorted(v) for v in members.values())

    # Each document is a CorefUD document; a mention without a cluster comes back as an
    # entity of its own, so compare the mentions that had one.
    for index, document in enumerate(back):
        clustered = {m.spans for m in topic.mentions if m.document == index and m.cluster}
        assert groups(document.mentions, 0, clustered) == groups(topic.mentions, index, clustered)


@pytest.mark.parametrize("word_id", ["x", "4a", "-1", "2-"])
def test_a_row_whose_id_is_no_word_id_is_refused_naming_line_and_column(word_id):
    """Read as a non-word row, the word `met` disappeared from the text, unsaid."""
    text = DISCONTINUOUS.replace("4\tmet", f"{word_id}\tmet")
    with pytest.raises(FormatErrors) as refusal:
        read("corefud", io.StringIO(text))
    (error,) = refusal.value.errors
    assert (error.record, error.field) == (8, "ID")
    assert f"{word_id!r} ('met') is not a word id" in error.message
