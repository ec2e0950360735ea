"""Mention boundaries corrected between the two steps (docs/mentions.md): brackets balanced, on the
tagger's real errors seen on held-out ChEMU-Ref snippets."""

from __future__ import annotations

from modelserve.backends.chemu_boundaries import REACH, correct


def words(text: str) -> list[str]:
    return text.split(" ")


def test_an_open_bracket_is_closed_by_extending_the_end():
    tokens = words("Elution with a mixed solution of acetic acid and hexane ( 1 : 9 ) gave X .")
    end = tokens.index("9")
    assert correct(tokens, [(((2, end),), 0.8)]) == [(((2, end + 1),), 0.8)]


def test_a_chemical_name_cut_inside_its_own_brackets_is_completed():
    tokens = words("To N-((2,4-dichloropyrimidin-5-yl) methyl)-2-methyl-5-nitroaniline was added")
    assert correct(tokens, [(((1, 1),), 0.5)]) == [(((1, 2),), 0.5)]


def test_an_unopened_closing_bracket_is_opened_by_extending_the_start():
    tokens = words("To N-((2,4-dichloropyrimidin-5-yl) methyl)-2-methyl-5-nitroaniline was added")
    assert correct(tokens, [(((2, 2),), 0.5)]) == [(((1, 2),), 0.5)]


def test_balanced_mentions_and_discontinuous_ones_are_left_as_they_are():
    tokens = words("the title compound as a white solid ( 277.6 mg , 58% yield ) .")
    mentions = [(((0, 2),), 0.9), (((4, 6), (8, 8)), 0.4), (((4, 13),), 0.7)]
    assert correct(tokens, mentions) == mentions


def test_no_boundary_moves_over_a_full_stop_or_further_than_its_reach():
    stopped = words("silica gel ( 40 g . Then ) the rest")
    assert correct(stopped, [(((0, 4),), 0.6)]) == [(((0, 4),), 0.6)]
    far = ["water", "("] + ["x"] * (REACH + 1) + [")"]
    assert correct(far, [(((0, 2),), 0.6)]) == [(((0, 2),), 0.6)]


def test_two_mentions_that_become_one_keep_the_higher_score():
    tokens = words("a solution of ( 1S,3R)-1-(4-bromo-2 , 6-difluorophenyl)-amine in water")
    mentions = [(((3, 4),), 0.3), (((3, 6),), 0.7)]
    assert correct(tokens, mentions) == [(((3, 6),), 0.7)]
