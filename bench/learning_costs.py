"""What reaching gold costs an annotator who follows it, by strategy: the counting rules of
`python -m bench learning` (docs/questions.md, "Counting the saving").

Pure: no Django, no model. Mentions are named by their position in reading order (what J / K
step through), so a move from mention i to mention j costs |i - j| keystrokes.

Three counts:
- decisions: the annotator's choices that change the annotation (add, remove, assign, accept,
  reject, one bulk acceptance, one answer to a question);
- operations: the logged operations they make (a bulk acceptance logs one per suggestion);
- keystrokes: every key, navigation included (a click counts as one key).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# (type, anaphor, antecedent), the ends as reading positions.
Link = tuple[str, int, int]

# Keys of the workspace (frontend/src/keyboard/keymap.ts).
MARK_ANAPHOR = 1  # A
LINK_TYPE = 1  # 1-5
REMOVE_CLICK = 1  # the ✕ of a link in the anaphora panel
BULK_ACCEPT = 2  # Shift+Y, then Enter at the threshold offered
REVIEW_STEP = 1  # G: to the next accepted suggestion, to check it
ENTER_QUESTIONS = 2  # Q, and Escape at the end
ANSWER = 1  # Y, N or 1-5
PICK_CLUSTER = 3  # "/", a letter or two of the label, Enter
ASSIGN = 1  # Space, or Ctrl+Space for a new cluster
SET_PARENT = 1  # P (then the cluster is picked: PICK_CLUSTER)
REMOVE_EDGE = 1  # Delete in the tree


@dataclass(frozen=True)
class Cost:
    decisions: int = 0
    operations: int = 0
    keystrokes: int = 0

    def __add__(self, other: Cost) -> Cost:
        return Cost(
            self.decisions + other.decisions,
            self.operations + other.operations,
            self.keystrokes + other.keystrokes,
        )


def total(costs: Iterable[Cost]) -> Cost:
    out = Cost()
    for cost in costs:
        out = out + cost
    return out


@dataclass(frozen=True)
class Suggested:
    """A suggestion as the simulation sees it: what accepting it makes, and how unsure the
    model was (modelserve/questions.py)."""

    link: Link
    uncertainty: float


# Links (ChEMU) ---------------------------------------------------------------------------


def _walk(links: Iterable[Link]) -> list[Link]:
    return sorted(links, key=lambda link: (link[1], link[2], link[0]))


def add_links(links: Iterable[Link], start: int = 0) -> Cost:
    """Draw links by hand, anaphors in reading order: go to the anaphor, A, go to the
    antecedent, the type's digit. One decision and one operation each."""
    cost, at = Cost(), start
    for _, anaphor, antecedent in _walk(links):
        keys = abs(anaphor - at) + MARK_ANAPHOR + abs(antecedent - anaphor) + LINK_TYPE
        cost = cost + Cost(1, 1, keys)
        at = antecedent
    return cost


def remove_links(links: Iterable[Link], start: int = 0) -> Cost:
    """Remove wrong links: go to the anaphor, click its ✕."""
    cost, at = Cost(), start
    for _, anaphor, _ in _walk(links):
        cost = cost + Cost(1, 1, abs(anaphor - at) + REMOVE_CLICK)
        at = anaphor
    return cost


def links_by_hand(gold: Iterable[Link]) -> Cost:
    """(a) No suggestions."""
    return add_links(gold)


def bulk_then_fix(gold: set[Link], accepted: Sequence[Link]) -> Cost:
    """Accept every suggestion at once (one decision), check each (one G per suggestion),
    remove the wrong ones, draw the missing ones (a wrong type: removed, then drawn)."""
    cost = Cost()
    if accepted:
        cost = Cost(1, len(accepted), BULK_ACCEPT + REVIEW_STEP * len(accepted))
    made = set(accepted)
    return cost + remove_links(made - gold) + add_links(gold - made)


def links_with_suggestions(gold: set[Link], suggested: Sequence[Suggested]) -> Cost:
    """(b), (c): the suggestions taken in bulk and corrected."""
    return bulk_then_fix(gold, [s.link for s in suggested])


def links_with_questions(gold: set[Link], suggested: Sequence[Suggested], ask_from: float) -> Cost:
    """(d): Q asks every suggestion at least `ask_from` uncertain, most uncertain first, one
    key each: Y for a gold link, the right digit for a gold pair of another type (the link is
    then right), N otherwise. The rest, the ones the model is sure of, are taken in bulk and
    corrected as in (b)."""
    asked = [s for s in suggested if s.uncertainty >= ask_from]
    rest = [s.link for s in suggested if s.uncertainty < ask_from]
    gold_pairs = {(anaphor, antecedent): kind for kind, anaphor, antecedent in gold}
    cost = Cost(0, 0, ENTER_QUESTIONS) if asked else Cost()
    made: set[Link] = set()
    for s in asked:
        _, anaphor, antecedent = s.link
        right = gold_pairs.get((anaphor, antecedent))
        if right is not None:
            made.add((right, anaphor, antecedent))
        cost = cost + Cost(1, 1, ANSWER)  # accept_suggestion, or reject_suggestion for N
    fixed = bulk_then_fix(gold - made, [link for link in rest if link not in made])
    return cost + fixed


# Clusters and hierarchy (SciCo) ----------------------------------------------------------


def clusters_by_hand(gold: Sequence[int], edges: Iterable[tuple[int, int]]) -> Cost:
    """(a) for a hierarchy topic: every mention in reading order (J), its cluster picked unless
    it is the one selected, Space (Ctrl+Space: a new cluster, for the first of each); then each
    edge: pick the child, P, pick the parent. One decision and one operation each."""
    cost, seen, selected = Cost(), set(), None
    for cluster in gold:
        keys = 1 + ASSIGN
        if cluster in seen and cluster != selected:
            keys += PICK_CLUSTER
        seen.add(cluster)
        selected = cluster
        cost = cost + Cost(1, 1, keys)
    for _ in edges:
        cost = cost + Cost(1, 1, PICK_CLUSTER + SET_PARENT + PICK_CLUSTER)
    return cost


def matched_clusters(gold: Sequence[int], suggested: Sequence[int]) -> dict[int, int]:
    """Each suggested cluster -> the gold cluster it stands for: greedily by the largest
    overlap, one to one (an unmatched suggested cluster stands for none)."""
    overlap = Counter(zip(suggested, gold, strict=True))
    out: dict[int, int] = {}
    taken: set[int] = set()
    for (mine, theirs), _ in sorted(overlap.items(), key=lambda kv: (-kv[1], kv[0])):
        if mine not in out and theirs not in taken:
            out[mine] = theirs
            taken.add(theirs)
    return out


def clusters_bulk_then_fix(
    gold: Sequence[int],
    gold_edges: set[tuple[int, int]],
    suggested: Sequence[int],
    suggested_edges: Iterable[tuple[int, int]],
) -> Cost:
    """Accept every membership and edge at once, check each mention (one J), move every
    mention whose cluster stands for another gold cluster (pick, Space), then remove the wrong
    edges and add the missing ones (between the matched clusters)."""
    return clusters_with_questions(gold, gold_edges, suggested, suggested_edges, [], 2.0)


def clusters_with_questions(
    gold: Sequence[int],
    gold_edges: set[tuple[int, int]],
    suggested: Sequence[int],
    suggested_edges: Iterable[tuple[int, int]],
    uncertainty: Sequence[float],
    ask_from: float,
) -> Cost:
    """(d) for clusters: Q asks every mention whose membership is at least `ask_from`
    uncertain, "is it the same concept as its suggested cluster?": Y when that cluster stands
    for the mention's gold cluster, else N and the mention is placed by hand (pick, Space).
    The other memberships and the edges are taken in bulk and corrected as in
    `clusters_bulk_then_fix`. Clusters stand for the gold cluster they overlap most, as if
    every suggestion were taken (`matched_clusters`)."""
    edges = list(suggested_edges)
    mapping = matched_clusters(gold, suggested)
    asked = {i for i, u in enumerate(uncertainty) if u >= ask_from}
    cost = Cost(0, 0, ENTER_QUESTIONS) if asked else Cost()
    rest = [i for i in range(len(gold)) if i not in asked]
    if rest or edges:
        cost = cost + Cost(1, len(rest) + len(edges), BULK_ACCEPT + REVIEW_STEP * len(rest))
    for i in range(len(gold)):
        right = mapping.get(suggested[i]) == gold[i]
        if i in asked:
            cost = cost + Cost(1, 1, ANSWER)  # accept_suggestion, or reject_suggestion for N
        if not right:
            cost = cost + Cost(1, 1, PICK_CLUSTER + ASSIGN)
    made = {(mapping[p], mapping[c]) for p, c in edges if p in mapping and c in mapping}
    wrong = len(edges) - len(made & gold_edges)
    missing = len(gold_edges - made)
    cost = cost + Cost(wrong, wrong, wrong * (PICK_CLUSTER + REMOVE_EDGE))
    return cost + Cost(missing, missing, missing * (2 * PICK_CLUSTER + SET_PARENT))
