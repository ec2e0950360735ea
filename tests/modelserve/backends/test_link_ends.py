"""A link suggestion names mentions by index: the topic's, then the proposed ones. An index past
both is refused where links are written (such a link once crashed the ChEMU writer)."""

import pytest

from corefscore.formats.chemu import read_chemu_jsonlines
from modelserve.backends.base import LinkSuggestion, check_links
from modelserve.backends.chemu_linking import with_links
from tests.paths import CHEMU_DEMO


def test_links_between_the_mentions_there_are_pass():
    links = [LinkSuggestion("COREFERENCE", 2, 0, 0.9), LinkSuggestion("WORK_UP", 4, 3, 0.8)]
    assert check_links(links, 5) == ""


@pytest.mark.parametrize(("anaphor", "antecedent"), [(5, 0), (1, 5), (-1, 0)])
def test_a_link_past_the_mentions_is_named(anaphor, antecedent):
    links = [
        LinkSuggestion("COREFERENCE", 1, 0, 0.9),
        LinkSuggestion("CONTAINED", anaphor, antecedent, 0.5),
    ]
    assert check_links(links, 5).startswith("link 1 names mention ")


def test_a_topic_takes_no_link_to_a_mention_it_does_not_have():
    topic = read_chemu_jsonlines(CHEMU_DEMO).topics[0]
    past = len(topic.mentions)
    with pytest.raises(ValueError, match=f"names mention {past}, but there are {past} mentions"):
        with_links(topic, [LinkSuggestion("COREFERENCE", past, 0, 0.9)])
    assert with_links(topic, [LinkSuggestion("COREFERENCE", 1, 0, 0.9)]).links[0].anaphor == 1
