"""The diagnosis of disagreement (docs/diagnosis.md): pure diff of annotations of one topic."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reporting.domain.diagnosis import Side, SideCluster, SideMention, diagnose


def key(n):
    return (0, ((n, n),))


def mention(n, id=None):
    return SideMention(id if id is not None else 100 + n, key(n), f"m{n}")


def side(name, groups, *, edges=(), links=(), mentions=None):
    """`groups`: lists of mention numbers, one list per cluster (label: its first member)."""
    numbers = mentions if mentions is not None else sorted({n for g in groups for n in g})
    return Side(
        name,
        tuple(mention(n) for n in numbers),
        tuple(SideCluster(f"m{g[0]}", tuple(key(n) for n in g)) for g in groups),
        tuple(edges),
        tuple((t, key(a), key(b)) for t, a, b in links),
    )


def test_a_moved_mention_is_listed_with_each_annotators_cluster():
    alice = side("alice", [[1, 2, 3], [4]])
    bob = side("bob", [[1, 2], [3, 4]])

    result = diagnose([alice, bob])

    assert [d.text for d in result.mentions] == ["m1", "m2", "m3", "m4"]
    three = result.mentions[2]
    assert three.clusters["alice"].members == ("m1", "m2", "m3")
    assert three.clusters["bob"].members == ("m3", "m4")
    assert three.clusters["bob"].label == "m3"
    assert three.ids == {"alice": 103, "bob": 103}


def test_agreeing_annotations_have_nothing_to_diagnose_labels_aside():
    alice = side("alice", [[1, 2], [3]])
    bob = Side(
        "bob",
        alice.mentions,
        (SideCluster("other name", (key(1), key(2))), SideCluster("x", (key(3),))),
    )
    result = diagnose([alice, bob])
    assert result.mentions == ()
    assert result.edges == ()
    assert result.links == ()


def test_a_mention_one_side_lacks_has_no_cluster_there():
    gold = side("gold", [[1, 2], [3]])
    alice = side("alice", [[1, 2]])
    result = diagnose([gold, alice])
    assert [d.text for d in result.mentions] == ["m3"]
    assert result.mentions[0].clusters["alice"] is None
    assert result.mentions[0].ids["alice"] is None


def test_an_unclustered_mention_is_its_own_singleton():
    alice = side("alice", [[1]], mentions=[1, 2])
    bob = side("bob", [[1], [2]])
    assert diagnose([alice, bob]).mentions == ()


def test_edges_and_links_only_some_sides_have():
    alice = side("alice", [[1, 2], [3]], edges=[(0, 1)], links=[("COREFERENCE", 3, 1)])
    bob = side("bob", [[1, 2], [3]], links=[("COREFERENCE", 3, 1), ("WORK_UP", 2, 1)])
    carol = side("carol", [[1, 2], [3]], edges=[(0, 1)], links=[("COREFERENCE", 3, 1)])

    result = diagnose([alice, bob, carol])

    assert len(result.edges) == 1
    edge = result.edges[0]
    assert (edge.parent.members, edge.child.members) == (("m1", "m2"), ("m3",))
    assert (edge.present, edge.absent) == (("alice", "carol"), ("bob",))
    assert [(d.type, d.anaphor, d.antecedent, d.present) for d in result.links] == [
        ("WORK_UP", "m2", "m1", ("bob",))
    ]
    assert result.links[0].anaphor_ids == {"alice": 102, "bob": 102, "carol": 102}


def test_side_names_must_differ():
    with pytest.raises(ValueError, match="differ"):
        diagnose([side("a", [[1]]), side("a", [[1]])])


partitions = st.lists(st.integers(0, 3), min_size=1, max_size=8).map(
    lambda labels: [[n for n, label in enumerate(labels) if label == g] for g in set(labels)]
)


@given(st.lists(partitions, min_size=2, max_size=4))
def test_a_mention_is_listed_exactly_when_its_cluster_differs(groupings):
    sides = [side(f"s{i}", groups) for i, groups in enumerate(groupings)]

    listed = {d.key for d in diagnose(sides).mentions}

    everything = {key(n) for groups in groupings for g in groups for n in g}
    for k in everything:
        clusters = []
        for groups in groupings:
            found = [frozenset(key(n) for n in g) for g in groups if k in {key(n) for n in g}]
            clusters.append(found[0] if found else None)
        assert (k in listed) == (len(set(clusters)) > 1)


@given(st.lists(partitions, min_size=2, max_size=4), st.randoms())
def test_the_order_of_the_sides_changes_nothing_but_the_order(groupings, rng):
    sides = [
        side(f"s{i}", groups, edges=[(0, len(groups) - 1)]) for i, groups in enumerate(groupings)
    ]
    shuffled = list(sides)
    rng.shuffle(shuffled)
    first, second = diagnose(sides), diagnose(shuffled)
    assert [d.key for d in first.mentions] == [d.key for d in second.mentions]
    assert {(e.parent, e.child, frozenset(e.present)) for e in first.edges} == {
        (e.parent, e.child, frozenset(e.present)) for e in second.edges
    }


@given(partitions)
def test_a_side_against_itself_has_nothing_to_diagnose(groups):
    result = diagnose(
        [
            side("a", groups, edges=[(0, len(groups) - 1)]),
            side("b", groups, edges=[(0, len(groups) - 1)]),
        ]
    )
    assert result.mentions == ()
    assert result.edges == ()
