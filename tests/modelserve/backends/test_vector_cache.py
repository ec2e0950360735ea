"""The frozen encoder's vectors kept on disk per document (docs/mentions.md): a document seen before
with the same encoder is read back, a changed one is encoded again, another encoder never
reads them. The real packaged MiniLM encodes; the spy only counts what it is asked."""

import copy

import numpy as np
import pytest

from corefscore.corpus import DocumentData
from corefscore.formats.chemu import read_chemu_jsonlines
from modelserve.backends.chemu_mentions import encoded
from modelserve.backends.mention_features import WordEncoder
from modelserve.backends.vector_cache import VectorCache
from tests.paths import CHEMU_DEMO


class CountingEncoder(WordEncoder):
    """The real encoder, recording the documents it encodes."""

    def __init__(self):
        super().__init__(None, "cpu")
        self.asked: list[list[str]] = []

    def vectors(self, documents):
        self.asked += documents
        return super().vectors(documents)


@pytest.fixture(scope="module")
def encoder():
    return CountingEncoder()


@pytest.fixture
def topics():
    return read_chemu_jsonlines(CHEMU_DEMO).topics[:2]


def changed(topic):
    """The topic with one word of its document replaced."""
    result = copy.copy(topic)
    document = topic.documents[0]
    tokens = ["solution", *document.tokens[1:]]
    result.documents = [DocumentData(**{**vars(document), "tokens": tokens})]
    return result


def test_a_changed_document_is_encoded_again_and_an_unchanged_one_is_not(encoder, topics, tmp_path):
    store = VectorCache(tmp_path, encoder)
    first = encoded(encoder, topics, {}, store)
    assert encoder.asked == [t.documents[0].tokens for t in topics]

    encoder.asked = []
    edited = [topics[0], changed(topics[1])]
    second = encoded(encoder, edited, {}, store)  # a new training: nothing in memory

    assert encoder.asked == [edited[1].documents[0].tokens]
    np.testing.assert_array_equal(second[0], first[0])
    np.testing.assert_array_equal(second[1], encoder.vectors([edited[1].documents[0].tokens])[0])

    encoder.asked = []
    encoded(encoder, edited, {}, store)
    assert encoder.asked == []


def test_another_encoder_does_not_read_the_vectors(encoder, topics, tmp_path):
    encoded(encoder, topics, {}, VectorCache(tmp_path, encoder))
    other = copy.copy(encoder)
    other.middle += 1  # another layer: other vectors
    assert VectorCache(tmp_path, other).get(topics[0].documents[0].tokens) is None
    assert VectorCache(tmp_path, encoder).get(topics[0].documents[0].tokens) is not None


def test_a_damaged_file_reads_as_missing_and_is_written_again(encoder, topics, tmp_path):
    store = VectorCache(tmp_path, encoder)
    tokens = topics[0].documents[0].tokens
    encoded(encoder, topics[:1], {}, store)
    store.path(tokens).write_bytes(b"not an array")
    assert store.get(tokens) is None
    encoder.asked = []
    encoded(encoder, topics[:1], {}, store)
    assert encoder.asked == [tokens]
    assert store.get(tokens) is not None
