from modelserve.backends.lexical import (
    acronym_pairs,
    cluster_specificity,
    phrase_words,
    specificity_cue,
)


def acronym_match(first: list[str], second: list[str]) -> bool:
    """Whether one mention is the other with a run of words written as their initials (the
    product asks `acronym_pairs` about a whole topic's mentions at once)."""
    return bool(acronym_pairs([first, second]))


def words(text: str) -> tuple[str, ...]:
    return phrase_words(text.split())


def test_a_head_with_modifiers_in_front_is_a_kind_of_the_head():
    assert specificity_cue(words("machine translation"), words("neural machine translation")) > 0.5
    assert specificity_cue(words("tagger"), words("CRF tagger")) > 0.5
    assert specificity_cue(words("neural machine translation"), words("machine translation")) == 0.0


def test_the_nearer_ancestor_gets_the_stronger_cue():
    child = words("neural machine translation")
    assert specificity_cue(words("machine translation"), child) > specificity_cue(
        words("translation"), child
    )


def test_the_same_words_in_front_name_something_else():
    assert (
        specificity_cue(words("sentiment analysis"), words("sentiment analysis data sets")) == 0.0
    )


def test_a_post_modifier_does_not_change_the_head():
    assert words("CRFs for sequence labeling") == ("crf",)
    assert words("part-of-speech tagging") == ("part", "of", "speech", "tagging")
    assert specificity_cue(words("sequence labeling"), words("CRFs for sequence labeling")) == 0.0


def test_a_shared_head_stem_is_weaker_evidence_than_a_suffix():
    weak = specificity_cue(words("tagging"), words("CRF tagger"))
    assert 0.0 < weak < specificity_cue(words("tagger"), words("CRF tagger"))


def test_clusters_whose_phrases_point_both_ways_give_no_direction():
    mixed = {words("translation"), words("neural machine translation")}
    assert cluster_specificity({words("machine translation")}, mixed) == 0.0
    assert (
        cluster_specificity({words("machine translation")}, {words("neural machine translation")})
        > 0.5
    )


def test_acronyms_match_their_expansions_and_nothing_else():
    assert acronym_match(["NER"], ["named", "entity", "recognition"])
    assert acronym_match(["POS", "tagging"], ["part-of-speech", "tagging"])
    assert acronym_match(["GCNs"], ["graph", "convolutional", "networks"])
    assert not acronym_match(["CNN"], ["recurrent", "neural", "network"])
    assert not acronym_match(["HMM", "tagger"], ["hidden", "Markov", "models"])
    assert not acronym_match(["the"], ["the", "end"])
