"""The pairing of a round (games.tournament.pairing): the preferred pairing, and the
maximum matching that keeps repeats to the fewest possible (checked against an
exhaustive search on small fields)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import TournamentError
from games.tournament.pairing import ADJACENT, DUTCH, pair_field

from tests.tournament.brute import fewest_repeats, fewest_repeats_with_sitout

SETTINGS = settings(derandomize=True, max_examples=300, deadline=None)


@st.composite
def fields(draw, even=True):
    n = draw(st.integers(1, 6)) * 2 - (0 if even else 1)
    players = list(range(n))
    density = draw(st.floats(0, 1))
    rng = random.Random(draw(st.integers(0, 10**6)))
    met = {p: set() for p in players}
    for a, b in itertools.combinations(players, 2):
        if rng.random() < density:
            met[a].add(b)
            met[b].add(a)
    groups = sorted((rng.randint(0, 3) for _ in players), reverse=True)
    return players, met, groups


def check_draw(draw, players):
    paired = [p for pair in draw.pairs for p in pair]
    assert sorted(paired + ([draw.sitout] if draw.sitout is not None else [])) == sorted(players)
    assert all(a != b for a, b in draw.pairs)


@SETTINGS
@given(fields(), st.sampled_from([DUTCH, ADJACENT]))
def test_the_fewest_repeats_possible(field, style):
    players, met, groups = field
    draw = pair_field(players, met, style=style, groups=groups if style == DUTCH else None)
    check_draw(draw, players)
    assert draw.repeats == sum(1 for a, b in draw.pairs if b in met[a])
    assert draw.repeats == fewest_repeats(players, met)


@SETTINGS
@given(fields(even=False))
def test_an_odd_field_sits_out_the_first_candidate_that_avoids_repeats(field):
    players, met, groups = field
    candidates = list(reversed(players))
    draw = pair_field(players, met, groups=groups, sitout=candidates)
    check_draw(draw, players)
    assert draw.repeats == fewest_repeats_with_sitout(players, met, candidates)
    before = candidates[: candidates.index(draw.sitout)]
    assert all(fewest_repeats_with_sitout(players, met, [c]) > draw.repeats for c in before)


def test_dutch_pairs_top_half_against_bottom_half_in_each_score_group():
    order = list("abcdefgh")
    draw = pair_field(order, {}, groups=[2, 2, 2, 2, 1, 1, 1, 1])
    assert draw.pairs == (("a", "c"), ("b", "d"), ("e", "g"), ("f", "h"))


def test_an_odd_score_group_floats_its_lowest_player_down():
    draw = pair_field(list("abcdef"), {}, groups=[1, 1, 1, 0, 0, 0])
    assert draw.pairs == (("a", "b"), ("c", "e"), ("d", "f"))


def test_a_player_who_met_everyone_in_the_group_floats():
    met = {"a": {"c", "d"}, "c": {"a"}, "d": {"a"}}
    draw = pair_field(list("abcdef"), met, groups=[1, 1, 1, 1, 0, 0])
    assert draw.repeats == 0
    assert ("a", "b") in draw.pairs


def test_a_large_field_that_the_groups_cannot_pair_is_completed_without_repeats():
    # 40 players; everyone in the top 20 has met everyone else in the top 20 but one
    players = list(range(40))
    met = {p: set() for p in players}
    for a, b in itertools.combinations(range(20), 2):
        if b != a + 10:
            met[a].add(b)
            met[b].add(a)
    draw = pair_field(players, met, groups=[0 if p < 20 else 1 for p in players])
    assert draw.repeats == 0


def test_bad_input_is_refused():
    with pytest.raises(TournamentError) as exc:
        pair_field(["a", "a"], {})
    assert exc.value.code == "duplicate_player"
    with pytest.raises(TournamentError) as exc:
        pair_field(["a", "b", "c"], {})
    assert exc.value.code == "odd_field"
    with pytest.raises(TournamentError) as exc:
        pair_field(["a", "b"], {}, style="monrad")
    assert exc.value.code == "bad_style"
