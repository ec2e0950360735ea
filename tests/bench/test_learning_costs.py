"""The counting rules of `python -m bench learning` (bench/learning_costs.py), by hand-worked
cases: what reaching gold costs with each strategy."""

from __future__ import annotations

from bench.learning_costs import (
    ASSIGN,
    BULK_ACCEPT,
    ENTER_QUESTIONS,
    PICK_CLUSTER,
    Cost,
    Suggested,
    add_links,
    clusters_bulk_then_fix,
    clusters_by_hand,
    clusters_with_questions,
    links_by_hand,
    links_with_questions,
    links_with_suggestions,
    matched_clusters,
    total,
)

GOLD = {("COREFERENCE", 3, 1), ("WORK_UP", 6, 2)}


def test_a_link_by_hand_costs_the_moves_the_mark_and_the_digit():
    # 0 -> 3 (3 keys), A, 3 -> 1 (2 keys), the digit; then 1 -> 6 (5), A, 6 -> 2 (4), digit.
    assert add_links(GOLD) == Cost(2, 2, (3 + 1 + 2 + 1) + (5 + 1 + 4 + 1))
    assert links_by_hand(set()) == Cost()


def test_perfect_suggestions_cost_one_bulk_decision_and_a_check_of_each():
    suggested = [Suggested(link, 0.1) for link in sorted(GOLD)]
    assert links_with_suggestions(GOLD, suggested) == Cost(1, 2, BULK_ACCEPT + 2)


def test_a_wrong_suggestion_is_removed_and_a_wrong_type_is_removed_and_drawn_again():
    suggested = [
        Suggested(("COREFERENCE", 3, 1), 0.1),  # right
        Suggested(("TRANSFORMED", 6, 2), 0.1),  # the right pair, the wrong type
        Suggested(("COREFERENCE", 5, 4), 0.1),  # no such link
    ]
    cost = links_with_suggestions(GOLD, suggested)
    # bulk (1) + remove 2 wrong (2) + draw the WORK_UP link (1)
    assert cost.decisions == 4
    assert cost.operations == 3 + 2 + 1


def test_questions_answer_the_unsure_ones_with_one_key_and_fix_a_wrong_type_in_that_key():
    suggested = [
        Suggested(("COREFERENCE", 3, 1), 0.2),  # sure: taken in bulk
        Suggested(("TRANSFORMED", 6, 2), 0.9),  # asked: answered 4 (WORK_UP)
        Suggested(("COREFERENCE", 5, 4), 0.7),  # asked: answered N
    ]
    cost = links_with_questions(GOLD, suggested, ask_from=0.5)
    assert cost == Cost(2, 2, ENTER_QUESTIONS + 2) + Cost(1, 1, BULK_ACCEPT + 1)
    # The same suggestions in bulk cost more: the wrong type is removed and drawn again.
    assert links_with_suggestions(GOLD, suggested).decisions > cost.decisions


def test_nothing_uncertain_means_no_question_and_the_bulk_rules():
    suggested = [Suggested(link, 0.0) for link in sorted(GOLD)]
    assert links_with_questions(GOLD, suggested, 0.5) == links_with_suggestions(GOLD, suggested)


def test_clusters_by_hand_pick_a_cluster_only_when_it_is_not_the_selected_one():
    # mentions in clusters 0 0 1 0: new, same (selected), new, pick 0 again; one edge.
    cost = clusters_by_hand([0, 0, 1, 0], [(1, 0)])
    assert cost.decisions == 5
    assert cost.keystrokes == 2 + 2 + 2 + (2 + 3) + (3 + 1 + 3)


def test_matching_is_one_to_one_by_overlap_and_fixing_moves_the_mismatched_mentions():
    gold = [0, 0, 0, 1, 1]
    suggested = [7, 7, 8, 8, 8]  # 7 stands for gold 0, 8 for gold 1 (2 of its 3)
    assert matched_clusters(gold, suggested) == {7: 0, 8: 1}
    cost = clusters_bulk_then_fix(gold, set(), suggested, [])
    assert cost.decisions == 1 + 1  # the bulk acceptance, then mention 2 moved
    perfect = clusters_bulk_then_fix(gold, {(0, 1)}, [3, 3, 3, 4, 4], [(3, 4)])
    assert perfect.decisions == 1
    assert clusters_bulk_then_fix(gold, {(0, 1)}, [3, 3, 3, 4, 4], []).decisions == 2


def test_total_adds_every_count():
    assert total([Cost(1, 2, 3), Cost(4, 5, 6)]) == Cost(5, 7, 9)


def test_a_cluster_question_costs_one_key_and_a_no_also_the_placing_by_hand():
    gold = [0, 0, 0, 1, 1]
    suggested = [7, 7, 8, 8, 8]  # mention 2 is in the wrong cluster
    unsure = [0.9, 0.1, 0.9, 0.1, 0.1]  # mentions 0 (right) and 2 (wrong) are asked
    cost = clusters_with_questions(gold, set(), suggested, [], unsure, ask_from=0.5)
    # Y for 0, N for 2 and its placing, one bulk acceptance of the other three.
    assert cost.decisions == 1 + 2 + 1
    assert cost.keystrokes == ENTER_QUESTIONS + 1 + 1 + (PICK_CLUSTER + ASSIGN) + BULK_ACCEPT + 3
    # Asking nothing is the bulk rule.
    assert clusters_with_questions(gold, set(), suggested, [], unsure, 2.0) == (
        clusters_bulk_then_fix(gold, set(), suggested, [])
    )
