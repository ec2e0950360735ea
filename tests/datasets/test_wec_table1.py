"""WEC Table 1's Ambiguity and Diversity and ChEMU Table 1's sentences, counted by hand on
small topics (pure), the same through the database, and the head rule both the statistics
and the same-head-lemma baseline use."""

import pytest

from annotation.domain.heads import head_lemma
from annotation.models import Project
from annotation.services.imports.topics import topics_import
from corefscore.corpus import ClusterData, DocumentData, MentionData, TopicData
from corefscore.formats.scico import read_scico_jsonl
from datasets.selectors import project_statistics
from datasets.statistics import stats_rows, summarize, topic_statistics
from modelserve.backends import same_head_lemma
from tests.paths import SCICO_DEMO


@pytest.mark.parametrize(
    ("words", "lemma"),
    [
        (["the", "2004", "elections"], "election"),
        (["CRFs", "for", "sequence", "labeling"], "crf"),
        (["Hurricane", "Katrina"], "katrina"),
        (["cross-validation"], "validation"),
        (["the", "analysis"], "analysis"),
        (["of", "the", "war"], "war"),  # a leading preposition is no post-modifier
        ([",", "."], None),
    ],
)
def test_the_head_lemma_is_the_last_word_before_a_preposition_plural_folded(words, lemma):
    assert head_lemma(words) == lemma


def test_the_baseline_and_the_statistics_use_one_head_rule():
    assert same_head_lemma.head_lemma is head_lemma


def corpus(clusters: dict[str, list[str]], external_id: str = "t") -> TopicData:
    """One document whose tokens are the mentions' texts, one word per mention: `clusters`
    maps a cluster to its mentions' words."""
    words = [word for members in clusters.values() for word in members]
    mentions = []
    for key, members in clusters.items():
        for _ in members:
            mentions.append(MentionData(0, ((len(mentions), len(mentions)),), key))
    return TopicData(
        external_id,
        [DocumentData("d", words, sentences=[(0, len(words) - 1)])],
        mentions,
        [ClusterData(key) for key in clusters],
    )


def test_ambiguity_and_diversity_by_hand():
    # attack: clusters a, b, c (and the singleton d) -> 4; war: a -> 1; bombing: b -> 1.
    # Ambiguity = (4 + 1 + 1) / 3 = 2. Diversity, singletons out: a {attack, war} 2,
    # b {attack, bombing} 2, c {attack} 1 -> 5 / 3.
    data = corpus(
        {
            "a": ["attacks", "war", "attack"],
            "b": ["attack", "bombing"],
            "c": ["attack", "attacks"],
            "d": ["attack"],
        }
    )
    stats = summarize([topic_statistics(data)])
    assert stats["ambiguity"] == 2.0
    assert stats["diversity"] == round(5 / 3, 4)


def test_a_head_lemma_in_clusters_of_two_topics_counts_both_clusters():
    # Clusters of different topics are different clusters: "attack" is in 2, "war" in 1.
    first = topic_statistics(corpus({"a": ["attack", "war"]}, "t1"))
    second = topic_statistics(corpus({"a": ["attack", "attack"]}, "t2"))
    stats = summarize([first, second])
    assert stats["ambiguity"] == 1.5
    assert stats["diversity"] == 1.5  # {attack, war} 2 and {attack} 1


def test_without_clusters_or_tokens_ambiguity_and_diversity_are_zero():
    data = corpus({"a": ["attack", "war"]})
    data.documents[0].tokens = []  # what a read without tokens gives
    stats = summarize([topic_statistics(data, tokens=2)])
    assert (stats["ambiguity"], stats["diversity"]) == (0.0, 0.0)


def test_sentences_are_the_documents_own_and_tokens_per_sentence_their_ratio():
    three = DocumentData("a", ["w"] * 30, sentences=[(0, 9), (10, 19), (20, 29)])
    unsplit = DocumentData("b", ["w"] * 15)  # imported without boundaries: one sentence
    stats = summarize([topic_statistics(TopicData("t", [three, unsplit]))])
    assert (stats["sentences"], stats["tokens"]) == (4, 45)
    assert stats["tokens_per_sentence"] == 11.25


def test_the_csv_ends_with_the_new_columns():
    stats = summarize([topic_statistics(corpus({"a": ["attack", "war"]}))])
    header, total = stats_rows({"total": stats, "splits": {}})
    # then ChEMU Table 1's link entries, five columns added after these
    assert header[-9:-5] == ["sentences", "tokens_per_sentence", "ambiguity", "diversity"]
    assert total[-9:-5] == ["1", "2.0", "1.0", "2.0"]
    assert header[-5] == "link_entries_COREFERENCE"


@pytest.mark.django_db
def test_the_database_count_equals_the_count_of_the_file():
    """The statistics page reads topics with their tokens for the head lemmas and counts
    sentences in the database: the same figures as the pure count over the file."""
    project = Project.objects.create(name="WEC table", hierarchy=True)
    topics_import(project=project, path=SCICO_DEMO, format="scico")
    expected = summarize(topic_statistics(t) for t in read_scico_jsonl(SCICO_DEMO).topics)

    total = project_statistics(project)["total"]

    keys = ("sentences", "tokens_per_sentence", "ambiguity", "diversity")
    assert {k: total[k] for k in keys} == {k: expected[k] for k in keys}
    assert total["ambiguity"] > 1  # the demo has a head lemma in several clusters
