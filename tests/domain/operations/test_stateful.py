"""Random operation sequences, valid and invalid, with undo and redo, checked after every step.

A topic of 12 mentions in 3 documents (two discontinuous mentions, two that start at the same
token), random project flags (single or multi parent, each mention edit and scheme on or
off), a random initial clustering and hierarchy, so even short sequences start from an
interesting state. Budget: the Hypothesis profile's example count (tests/hypothesis_profiles.py)
of sequences of up to 12 steps each, every step followed by the invariant and replay checks:
100 sequences in `ci` (~5 s idle), 2,000 in `deep` (93 s idle; HYPOTHESIS_PROFILE=deep).
"""

from __future__ import annotations

import json

import networkx as nx
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from annotation.domain.errors import DomainError, NothingToRedo, NothingToUndo
from annotation.domain.history import replay
from annotation.domain.invariants import invariant_violations
from annotation.domain.operations import EDIT_OPERATIONS
from annotation.domain.state import AnnotationState, Cluster, Mention, Settings
from corefscore.corpus import LINK_TYPES

from .factories import Session

STEPS = 12
TOKENS = 20
MISSING = 999
SPANS = {
    1: ((0, 1),),
    2: ((5, 5),),
    3: ((10, 12),),
    4: ((15, 15), (17, 18)),
    5: ((0, 1),),
    6: ((5, 6),),
    7: ((5, 5),),
    8: ((9, 9), (12, 13)),
    9: ((2, 3),),
    10: ((6, 6),),
    11: ((10, 11),),
    12: ((16, 19),),
}
FLAG = st.sampled_from([True, True, True, False])
SIMPLE_OPS = [*EDIT_OPERATIONS, "malformed"]  # what a suggestion may carry


def initial_state(
    single_parent: bool, flags: list[bool], placement: list[int], parent_picks: list[list[int]]
):
    mentions = {id: Mention(id, (id - 1) // 4 + 1, spans) for id, spans in SPANS.items()}
    clusters: dict[int, Cluster] = {}
    for mention, slot in zip(mentions, placement, strict=True):
        if slot:
            clusters.setdefault(slot, Cluster(slot, f"c{slot}")).members.add(mention)
    edges = set()
    for child in clusters:
        candidates = [id for id in clusters if id < child]
        picks = parent_picks[child - 1][: 1 if single_parent else 2]
        edges |= {(candidates[pick % len(candidates)], child) for pick in picks if candidates}
    add, fix, reject, hierarchy, anaphora = flags
    return AnnotationState(
        settings=Settings(single_parent, add, fix, reject, hierarchy, anaphora),
        documents={1: TOKENS, 2: TOKENS, 3: TOKENS},
        mentions=mentions,
        clusters=clusters,
        edges=edges,
        mention_text=lambda mention: f"text of {mention.id}",
    )


def check_independently(state: AnnotationState) -> None:
    """The invariants again, written differently from annotation.domain.invariants."""
    members = [m for cluster in state.clusters.values() for m in cluster.members]
    assert len(members) == len(set(members)), "a mention is in two clusters"
    assert all(state.clusters.values()), "a cluster disappeared"
    assert all(cluster.members for cluster in state.clusters.values()), "an empty cluster survived"
    assert all(not state.mentions[m].rejected for m in members), (
        "a rejected mention is in a cluster"
    )
    graph = nx.DiGraph(list(state.edges))
    assert nx.is_directed_acyclic_graph(graph), "the hierarchy has a cycle"
    assert set(graph.nodes) <= set(state.clusters), "an edge touches a deleted cluster"
    if state.settings.single_parent:
        assert all(degree <= 1 for _, degree in graph.in_degree()), "a cluster has two parents"
    for link in state.links:
        for mention in (link.anaphor, link.antecedent):
            assert mention in state.mentions, link
            assert not state.mentions[mention].rejected, link


class AnnotationMachine(RuleBasedStateMachine):
    @initialize(
        single_parent=st.booleans(),
        flags=st.lists(FLAG, min_size=5, max_size=5),
        placement=st.lists(st.integers(0, 5), min_size=12, max_size=12),
        parent_picks=st.lists(st.lists(st.integers(0, 4), max_size=2), min_size=5, max_size=5),
    )
    def start(self, single_parent, flags, placement, parent_picks):
        self.session = Session(initial_state(single_parent, flags, placement, parent_picks))
        self.done = [self.session.state.snapshot()]  # snapshot after each step still in effect
        self.undone: list[dict] = []  # snapshots undo took away, latest last

    @property
    def state(self) -> AnnotationState:
        return self.session.state

    # -- drawing operations ---------------------------------------------------------------

    def draw_cluster(self, data, nullable=False):
        choices = sorted(self.state.clusters) + [MISSING] + ([None] if nullable else [])
        return data.draw(st.sampled_from(choices))

    def draw_mention(self, data):
        return data.draw(st.sampled_from(sorted(self.state.mentions) + [MISSING]))

    def draw_spans(self, data):
        first = data.draw(st.integers(-1, TOKENS - 1))
        spans = [[first, first + data.draw(st.integers(-1, 2))]]
        if data.draw(st.booleans()):
            gap = data.draw(st.integers(-1, 3))
            spans.append([spans[0][1] + gap, spans[0][1] + gap + data.draw(st.integers(0, 1))])
        return spans

    def draw_link_op(self, data, kind):
        if kind == "retype_links":  # some links there, maybe one that is not
            pool = [
                *sorted(self.state.links),
                tuple(self.draw_link_op(data, "add_link").values())[1:],
            ]
            chosen = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3))
            return {
                "op": "retype_links",
                "type": data.draw(st.sampled_from(LINK_TYPES)),
                "links": [{"type": t, "anaphor": a, "antecedent": b} for t, a, b in chosen],
            }
        type = data.draw(st.sampled_from(LINK_TYPES))
        anaphor = self.draw_mention(data)
        same_document = sorted(
            m.id
            for m in self.state.mentions.values()
            if anaphor in self.state.mentions
            and m.document == self.state.mentions[anaphor].document
        )
        antecedent = data.draw(
            st.sampled_from(same_document + [MISSING] + sorted(self.state.mentions))
        )
        mentions = self.state.mentions.values()
        plausible = [  # same document, antecedent first: what an annotator would try
            (type, a.id, b.id)
            for a in mentions
            for b in mentions
            if a.document == b.document and b.start < a.start and not (a.rejected or b.rejected)
        ]
        pool = sorted(self.state.links) if kind == "remove_link" else plausible
        if pool and data.draw(st.booleans()):
            type, anaphor, antecedent = data.draw(st.sampled_from(pool))
        return {"op": kind, "type": type, "anaphor": anaphor, "antecedent": antecedent}

    def draw_op(self, data, kinds):
        kind = data.draw(st.sampled_from(kinds))
        if kind == "assign":
            return {
                "op": "assign",
                "mention": self.draw_mention(data),
                "cluster": self.draw_cluster(data, True),
            }
        if kind == "merge":
            return {
                "op": "merge",
                "source": self.draw_cluster(data),
                "target": self.draw_cluster(data),
            }
        if kind == "split":
            size = data.draw(st.integers(1, 4))
            return {"op": "split", "mentions": [self.draw_mention(data) for _ in range(size)]}
        if kind == "set_parent":
            return {
                "op": "set_parent",
                "child": self.draw_cluster(data),
                "parent": self.draw_cluster(data, True),
            }
        if kind == "add_edge":
            return {
                "op": "add_edge",
                "parent": self.draw_cluster(data),
                "child": self.draw_cluster(data),
            }
        if kind == "remove_edge":
            pairs = sorted(self.state.edges) + [(self.draw_cluster(data), self.draw_cluster(data))]
            parent, child = data.draw(st.sampled_from(pairs))
            return {"op": "remove_edge", "parent": parent, "child": child}
        if kind == "rename":
            label = data.draw(st.sampled_from(["alpha", "beta", " ", "text of 1"]))
            return {"op": "rename", "cluster": self.draw_cluster(data), "label": label}
        if kind == "set_note":
            note = data.draw(st.sampled_from(["", "one", "two"]))
            return {"op": "set_note", "cluster": self.draw_cluster(data), "note": note}
        if kind == "add_mention":
            document = data.draw(st.sampled_from([1, 2, 3, MISSING]))
            return {"op": "add_mention", "document": document, "spans": self.draw_spans(data)}
        if kind == "fix_span":
            return {
                "op": "fix_span",
                "mention": self.draw_mention(data),
                "spans": self.draw_spans(data),
            }
        if kind == "reject_mention":
            return {"op": "reject_mention", "mention": self.draw_mention(data)}
        if kind in ("add_link", "remove_link", "retype_links"):
            return self.draw_link_op(data, kind)
        if kind == "accept_suggestion":
            inner = self.draw_op(data, SIMPLE_OPS)
            return {
                "op": "accept_suggestion",
                "suggestion": data.draw(st.integers(1, 3)),
                "operation": inner,
            }
        if kind == "reject_suggestion":
            return {"op": "reject_suggestion", "suggestion": data.draw(st.integers(1, 3))}
        return data.draw(
            st.sampled_from([{"op": "merge", "source": "1"}, {"op": "nope"}, {"op": "split"}])
        )

    # -- rules ----------------------------------------------------------------------------

    # Five `do` rules against three undo/redo rules: hypothesis picks rules uniformly, and
    # most steps should change something.
    @rule(data=st.data())
    def do_cluster_operation(self, data):
        self.do(data, ["assign", "assign", "merge", "split", "rename", "set_note"])

    @rule(data=st.data())
    def do_hierarchy_operation(self, data):
        self.do(data, ["set_parent", "add_edge", "remove_edge", "merge", "assign"])

    @rule(data=st.data())
    def do_mention_operation(self, data):
        self.do(data, ["add_mention", "fix_span", "reject_mention", "assign", "split"])

    @rule(data=st.data())
    def do_link_operation(self, data):
        self.do(data, ["add_link", "add_link", "remove_link", "retype_links", "fix_span"])

    @rule(data=st.data())
    def do_suggestion_or_malformed_operation(self, data):
        self.do(data, ["accept_suggestion", "accept_suggestion", "reject_suggestion", "malformed"])

    def do(self, data, kinds):
        op = self.draw_op(data, kinds)
        before, logged = self.state.snapshot(), len(self.session.log)
        try:
            result, refusal = self.session.do(op), None
        except DomainError as error:
            result, refusal = None, error
        if refusal is not None:
            event(f"{op['op']}: refused ({refusal.code})")
            assert isinstance(refusal.to_dict()["message"], str)
            assert self.state.snapshot() == before, f"refused {op} changed the state"
            assert len(self.session.log) == logged
            return
        assert result is not None
        event(f"{op['op']}: applied")
        assert result.effects, f"{op} planned no effect"
        assert json.loads(json.dumps(result.effects)) == result.effects
        assert all(isinstance(warning, str) for warning in result.warnings)
        self.done.append(self.state.snapshot())
        self.undone.clear()

    @rule()
    def undo(self):
        if len(self.done) == 1:
            try:
                self.session.undo()
            except NothingToUndo:
                return
            raise AssertionError("undo past the first step")
        self.session.undo()
        self.undone.append(self.done.pop())
        assert self.state.snapshot() == self.done[-1]

    @rule(steps=st.integers(2, 6))
    def undo_several(self, steps):
        steps = min(steps, len(self.done) - 1)
        target = self.done[-1 - steps]
        for _ in range(steps):
            self.session.undo()
            self.undone.append(self.done.pop())
        assert self.state.snapshot() == target

    @rule()
    def redo(self):
        if not self.undone:
            try:
                self.session.redo()
            except NothingToRedo:
                return
            raise AssertionError("redo with nothing undone")
        self.session.redo()
        self.done.append(self.undone.pop())
        assert self.state.snapshot() == self.done[-1]

    # -- after every step -----------------------------------------------------------------

    @invariant()
    def state_is_sound(self):
        assert invariant_violations(self.state) == []
        check_independently(self.state)

    @invariant()
    def replaying_the_log_reproduces_the_state(self):
        assert replay(self.session.initial, self.session.log).snapshot() == self.state.snapshot()


AnnotationMachine.TestCase.settings = settings(
    stateful_step_count=STEPS,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_random_operation_sequences_keep_every_invariant = AnnotationMachine.TestCase
