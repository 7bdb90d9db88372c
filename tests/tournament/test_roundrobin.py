"""Round robin and groups: everyone meets everyone exactly once (per cycle); group
qualifiers seeded into the knock-out so that players of a group meet as late as
possible."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import GroupsKnockout, GroupsOptions, Result, RoundRobin, RoundRobinOptions
from games.tournament.entrants import bracket_order, meeting_round
from games.tournament.groups import knockout_seeds, snake
from games.tournament.roundrobin import circle

from tests.tournament.drive import play_out

SETTINGS = settings(derandomize=True, max_examples=60, deadline=None)


@SETTINGS
@given(st.integers(2, 30), st.integers(1, 3))
def test_everyone_meets_everyone_once_a_cycle(n, cycles):
    event = RoundRobin.new(range(n), RoundRobinOptions(cycles=cycles))
    met = Counter(frozenset(p.players) for p in event.schedule)
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(range(n), 2)}
    assert set(met.values()) == {cycles}
    rounds = circle(range(n))
    assert len(rounds) == (n if n % 2 else n - 1)
    for pairs in rounds:
        seen = [p for pair in pairs if None not in pair for p in pair]
        assert len(seen) == len(set(seen)) == n - (n % 2)
    rests = Counter(a for pairs in rounds for a, b in pairs if b is None)
    assert set(rests.values()) <= {1}


@SETTINGS
@given(st.integers(2, 12), st.integers(0, 10**6))
def test_a_whole_round_robin_with_withdrawals_ends(n, seed):
    event = play_out(RoundRobin.new(range(n)), random.Random(seed), withdraw=0.03, forfeits=0.1,
                     double_forfeits=0.05, trip_every=3)
    assert len(event.records) == len(event.schedule)
    assert [s.rank for s in event.standings()][0] == 1


def test_the_table_breaks_ties_by_head_to_head():
    event = RoundRobin.new(["a", "b", "c", "d"], RoundRobinOptions(seeding="given"))
    wins = {("a", "d"): "a", ("b", "c"): "c", ("a", "c"): "c", ("b", "d"): "b", ("a", "b"): "a", ("c", "d"): "d"}
    while not event.is_over:
        for p in event.pending():
            event = event.record(p.key, Result.played(wins[(p.a, p.b)], (5, 4)))
    table = [(s.rank, s.player, s.score, s.head_to_head) for s in event.standings()]
    # a, c: 2 wins each, c beat a; b, d: 1 win each, b beat d
    assert table == [(1, "c", 2, 1), (2, "a", 2, 0), (3, "b", 1, 1), (4, "d", 1, 0)]


def test_groups_are_dealt_in_a_snake():
    assert snake(range(1, 9), 3) == [[1, 6, 7], [2, 5, 8], [3, 4]]


@SETTINGS
@given(st.sampled_from([1, 2, 4, 8, 16]), st.integers(0, 10**6))
def test_group_mates_meet_only_in_the_final_when_the_groups_are_a_power_of_two(groups, seed):
    rng = random.Random(seed)
    qualifiers = [[f"{g}-1", f"{g}-2"] for g in range(groups)]
    if groups > 1 and rng.random() < 0.3:
        qualifiers[rng.randrange(groups)].pop()  # a group short of a runner-up: a bye
    draw = knockout_seeds(qualifiers, 2)
    assert sorted(p for p in draw if p) == sorted(p for q in qualifiers for p in q)
    assert [draw[g] for g in range(groups)] == [q[0] for q in qualifiers]  # winners take the top seeds
    order = bracket_order(len(draw) if len(draw) > 1 else 2)
    position = {s: i for i, s in enumerate(order)}
    where = {p: position[s] for s, p in enumerate(draw, 1) if p}
    final = len(order).bit_length() - 1
    for q in qualifiers:
        if len(q) == 2:
            assert meeting_round(where[q[0]], where[q[1]]) == final


def test_group_mates_meet_as_late_as_possible_with_three_groups():
    draw = knockout_seeds([["A1", "A2"], ["B1", "B2"], ["C1", "C2"]], 2)
    assert draw == ("A1", "B1", "C1", "C2", "B2", "A2")  # seeds 7 and 8 empty: byes for A1 and B1
    position = {s: i for i, s in enumerate(bracket_order(8))}
    where = {p: position[s] for s, p in enumerate(draw, 1) if p}
    assert [meeting_round(where[f"{g}1"], where[f"{g}2"]) for g in "ABC"] == [3, 3, 3]


@SETTINGS
@given(st.integers(2, 24), st.integers(2, 6), st.integers(1, 3), st.integers(0, 10**6))
def test_a_whole_groups_and_knockout_event_ends(n, size, advance, seed):
    advance = min(advance, size)
    event = GroupsKnockout.new(range(n), GroupsOptions(group_size=size, advance=advance, consolation="simple"))
    event = play_out(event, random.Random(seed), withdraw=0.01, forfeits=0.05, trip_every=4)
    table = event.standings()
    assert sorted(s.player for s in table) == list(range(n))
    groups = event.groups
    assert max(len(g.players) for g in groups) - min(len(g.players) for g in groups) <= 1
    assert all(len(g.players) <= size for g in groups)
    if event.knockout:
        assert event.knockout.offset == max(g.rounds_total for g in groups)
        assert all(r.pairing.round > event.knockout.offset for r in event.knockout.records)
        assert event.winner in {p for p in event.knockout_draw if p is not None} | {None}
