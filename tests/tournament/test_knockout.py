"""Knock-out: the draw (every entrant placed once, byes only to the top seeds, the
standard positions), the winner's path, the consolations, forfeits and withdrawals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import Knockout, KnockoutOptions, Lengths, Result, TournamentError, bracket_order
from games.tournament.bracket import BYE, DONE

from tests.tournament.drive import play_out

SETTINGS = settings(derandomize=True, max_examples=80, deadline=None)


def first_round(ko: Knockout) -> list:
    return [s for s in ko.slots.values() if s.node.stage == "main" and s.node.round == 1]


@SETTINGS
@given(st.integers(2, 80), st.integers(0, 10**6), st.sampled_from(["rating", "random", "given"]))
def test_every_entrant_is_placed_once_and_byes_go_to_the_top_seeds(n, seed, seeding):
    rng = random.Random(seed)
    entrants = [{"id": f"p{i}", "rating": rng.choice([None, rng.randint(1000, 2000)])} for i in range(n)]
    ko = Knockout.new(entrants, KnockoutOptions(seeding=seeding), rng=rng)
    size = ko.size
    assert size // 2 < n <= size
    placed = [p for s in first_round(ko) for p in (s.a, s.b) if p is not None]
    assert sorted(placed) == sorted(ko.players)
    byes = {s.a if s.b is None else s.b for s in first_round(ko) if s.status == BYE}
    assert {ko.seeds[p] for p in byes} == set(range(1, size - n + 1))
    for s in first_round(ko):  # the standard positions: seeds in a first-round match add up to size + 1
        j = int(s.key.rsplit("-", 1)[1])
        assert bracket_order(size)[2 * j - 2] + bracket_order(size)[2 * j - 1] == size + 1


@SETTINGS
@given(st.integers(2, 70), st.integers(0, 10**6))
def test_the_winner_comes_through_every_round(n, seed):
    ko = play_out(Knockout.new(range(n)), random.Random(seed), trip_every=0)
    rounds = ko.size.bit_length() - 1
    path = [s for s in ko.slots.values() if s.has(ko.winner)]
    assert [s.node.round for s in path] == list(range(1, rounds + 1))
    assert all(s.winner == ko.winner for s in path)
    assert sum(1 for s in path if s.status == DONE) >= rounds - 1  # a bye in round 1 at most
    places = [s.rank for s in ko.standings()]
    assert places[0] == 1 and places[1] == 2 and sorted(places) == places


def test_places_are_shared_by_round():
    ko = play_out(Knockout.new(range(16)), random.Random(3))
    assert [s.rank for s in ko.standings()] == [1, 2, 3, 3] + [5] * 4 + [9] * 8


def test_lengths_per_round_and_a_longer_final():
    options = KnockoutOptions(lengths=Lengths(default=5, rounds=(3,), final=11, consolation=1), consolation="simple")
    ko = Knockout.new(range(8), options)
    assert {p.length for p in ko.pending()} == {3}
    ko = play_out(ko, random.Random(1))
    lengths = {r.key: r.pairing.length for r in ko.records}
    assert lengths["M-R1-1"] == 3 and lengths["M-R2-1"] == 5 and lengths["M-R3-1"] == 11
    assert lengths["C-R1-1"] == 1 and lengths["C-R2-1"] == 1


@SETTINGS
@given(st.integers(4, 40), st.integers(0, 10**6))
def test_a_simple_consolation_is_for_first_round_losers(n, seed):
    ko = play_out(Knockout.new(range(n), KnockoutOptions(consolation="simple")), random.Random(seed),
                  trip_every=0)
    first_losers = {s.loser for s in first_round(ko) if s.status == DONE}
    entered = {p for s in ko.slots.values() if s.node.stage == "consolation" for p in (s.a, s.b) if p is not None}
    assert entered == first_losers
    if first_losers:
        assert ko.consolation_winner in first_losers


@SETTINGS
@given(st.integers(8, 40), st.integers(0, 10**6))
def test_a_progressive_consolation_takes_losers_of_rounds_one_and_two(n, seed):
    ko = play_out(Knockout.new(range(n), KnockoutOptions(consolation="progressive")), random.Random(seed),
                  trip_every=0)
    main = [s for s in ko.slots.values() if s.node.stage == "main"]
    losers = {r: {s.loser for s in main if s.node.round == r and s.status == DONE} for r in (1, 2)}
    cons = [s for s in ko.slots.values() if s.node.stage == "consolation"]
    enter_1 = {p for s in cons if s.node.round == 1 for p in (s.a, s.b) if p is not None}
    enter_2 = {s.b for s in cons if s.node.round == 2 and s.b is not None}
    assert enter_1 == losers[1] and enter_2 == losers[2]
    for s in cons:  # nobody meets at once the player who just beat them
        if s.node.round == 2 and s.status == DONE:
            beaten_by_b = {m.loser for m in main if m.winner == s.b and m.status == DONE}
            assert s.a not in beaten_by_b


def test_a_small_progressive_consolation_is_a_simple_one():
    small = Knockout.new(range(4), KnockoutOptions(consolation="progressive"))
    assert [n.key for n in small.nodes if n.stage == "consolation"] == ["C-R1-1"]


def test_a_double_forfeit_puts_both_out_and_gives_the_next_opponent_a_bye():
    ko = Knockout.new(["a", "b", "c", "d"], KnockoutOptions(seeding="given", consolation="simple"))
    ko = ko.record("M-R1-1", Result.double_forfeit()).record("M-R1-2", Result.played("b"))
    assert ko.slots["M-R2-1"].status == BYE and ko.winner == "b" and ko.is_over
    assert ko.slots["C-R1-1"].status == BYE and ko.consolation_winner == "c"
    # nobody reached the final against b: everyone else went out in round 1
    assert [(s.rank, s.player, s.status) for s in ko.standings()] == [
        (1, "b", "active"), (2, "a", "out"), (2, "c", "out"), (2, "d", "out")]


def test_a_withdrawal_forfeits_the_match_in_play_and_the_next_ones():
    ko = Knockout.new(["a", "b", "c", "d", "e", "f", "g", "h"], KnockoutOptions(seeding="given"))
    ko = ko.record("M-R1-1", Result.played("a"))
    ko = ko.withdraw("a")  # waiting for the winner of M-R1-2
    assert "a" in ko.withdrawn and not ko.results.get("M-R2-1")
    ko = ko.record("M-R1-2", Result.played("d"))
    assert ko.results["M-R2-1"].result == Result.forfeit("d")
    ko = ko.withdraw("b")
    assert ko.results["M-R1-3"].result == Result.forfeit("g")
    with pytest.raises(TournamentError) as exc:
        ko.withdraw("b")
    assert exc.value.code == "already_withdrawn"


def test_a_withdrawn_player_never_wins_by_a_bye():
    ko = Knockout.new(["a", "b", "c"], KnockoutOptions(seeding="given")).withdraw("a")
    assert ko.slots["M-R1-1"].status == "void"
    ko = ko.record("M-R1-2", Result.played("b"))
    assert ko.winner == "b" and ko.is_over


def test_bad_results_are_refused_and_change_nothing():
    ko = Knockout.new(["a", "b", "c", "d"], KnockoutOptions(seeding="given"))
    for key, result, code in [("M-R1-1", Result.played("b"), "bad_winner"), ("M-R2-1", Result.played("a"), "not_pending"),
                              ("nope", Result.played("a"), "not_pending"), ("M-R1-1", "a", "bad_result")]:
        with pytest.raises(TournamentError) as exc:
            ko.record(key, result)
        assert exc.value.code == code
    with pytest.raises(TournamentError) as exc:
        ko.withdraw("zed")
    assert exc.value.code == "not_entered"
    with pytest.raises(TournamentError) as exc:
        Knockout.new(["a"])
    assert exc.value.code == "too_few_entrants"
