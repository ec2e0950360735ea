"""The layered BIOHD scheme: every mention of ChEMU-Ref train round-trips through the tags."""

import pytest

from corefscore.formats.chemu import read_chemu_jsonlines
from modelserve.backends import biohd
from modelserve.backends.biohd import DB, DI, B, I, O
from tests.paths import CHEMU_TRAIN


@pytest.fixture(scope="module")
def topics():
    if not CHEMU_TRAIN.is_file():
        pytest.fail("../shared/data is not beside the checkout: the tests read the real data there")
    return read_chemu_jsonlines(CHEMU_TRAIN, skip_invalid=True).topics


def test_every_mention_of_the_training_file_round_trips_discontinuous_and_nested_ones_included(
    topics,
):
    discontinuous = nested_topics = 0
    for topic in topics:
        tokens = topic.documents[0].tokens
        mentions = [mention.spans for mention in topic.mentions]
        layers = biohd.encode(mentions, len(tokens))
        assert all(len(layer) == len(tokens) for layer in layers)
        assert biohd.decode(layers) == sorted(set(mentions), key=lambda s: (s[0][0], s))
        discontinuous += sum(1 for spans in mentions if len(spans) > 1)
        nested_topics += len(layers) > 1
    assert discontinuous > 400  # ChEMU-Ref train has ~500 discontinuous mentions
    assert nested_topics > 100  # and nested or interleaved ones that need a second layer


def test_a_discontinuous_mention_continues_the_mention_before_it():
    tags = [B, I, O, O, DB, DI, O, B]
    assert biohd.decode_layer(tags) == [((0, 1), (4, 5)), ((7, 7),)]
    assert biohd.encode_layer([((0, 1), (4, 5)), ((7, 7),)], 8) == tags


def test_a_mention_inside_the_gap_of_a_discontinuous_one_goes_to_a_second_layer():
    outer, inside = ((0, 2), (6, 8)), ((4, 5),)
    layers = biohd.encode([outer, inside], 9)
    assert layers == [[B, I, I, O, O, O, DB, DI, DI], [O, O, O, O, B, I, O, O, O]]
    assert biohd.decode(layers) == [outer, inside]


def test_with_a_layer_limit_what_does_not_fit_is_left_out():
    layers = biohd.encode([((0, 4),), ((1, 2),), ((2, 2),)], 5, max_layers=2)
    assert len(layers) == 2
    assert biohd.decode(layers) == [((0, 4),), ((1, 2),)]


def test_ill_formed_tags_still_decode_to_mentions():
    assert biohd.decode_layer([O, I, I, O, DI]) == [((1, 2), (4, 4))]
    assert biohd.decode_layer([DB, DI]) == [((0, 1),)]


def test_the_allowed_transitions_forbid_what_decoding_would_have_to_repair():
    assert not biohd.ALLOWED[O][I]
    assert not biohd.ALLOWED[O][DI]
    assert not biohd.ALLOWED[B][DI]
    assert not biohd.START_ALLOWED[I]
    assert not biohd.START_ALLOWED[DB]
