"""Swiss: every round pairs everyone still in once, with no repeat while one is
avoidable; byes go to the lowest-placed of those with fewest byes; the table breaks
ties by Buchholz then points difference."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import Result, Swiss, SwissOptions, TournamentError
from games.tournament.standings import tally

from tests.tournament.brute import fewest_repeats, fewest_repeats_with_sitout
from tests.tournament.drive import play_out, random_result, round_trip

SETTINGS = settings(derandomize=True, max_examples=60, deadline=None)


def check_round(before: Swiss, after: Swiss) -> None:
    """The round just paired, against the state it was paired from."""
    counts = tally(before.players, before.records)
    active = set(before.active)
    pairings = after.rounds[-1]
    games = [p for p in pairings if not p.is_bye]
    byes = [p.a for p in pairings if p.is_bye]
    seen = [q for p in pairings for q in p.players]
    assert sorted(seen, key=str) == sorted(active, key=str), "everyone still in is paired exactly once"
    assert len(byes) == len(active) % 2
    met = {p: set(counts[p].opponents) for p in active}
    repeats = sum(1 for p in games if p.b in met[p.a])
    if byes:
        fewest = min(counts[p].byes for p in active)
        assert counts[byes[0]].byes == fewest, "nobody has a second bye while someone has none"
        candidates = [p for p in active if counts[p].byes == fewest]
        assert repeats == fewest_repeats_with_sitout(sorted(active, key=str), met, candidates)
        table = [s.player for s in before.standings() if s.player in active and counts[s.player].byes == fewest]
        lower = table[table.index(byes[0]) + 1:]
        assert all(fewest_repeats_with_sitout(list(active), met, [c]) > repeats for c in lower), \
            "the bye goes to the lowest placed unless that forces a repeat"
    else:
        assert repeats == fewest_repeats(sorted(active, key=str), met)


@SETTINGS
@given(st.integers(2, 10), st.integers(1, 9), st.integers(0, 10**6), st.booleans())
def test_rounds_pair_without_avoidable_repeats_and_spread_the_byes(n, rounds, seed, churn):
    rng = random.Random(seed)
    event = Swiss.new([f"p{i}" for i in range(n)], SwissOptions(rounds=rounds, seeding="random"), rng=rng)
    late = iter(f"late{i}" for i in range(3))
    while not event.is_over:
        if event.can_pair:
            if churn and rng.random() < 0.2:
                event = event.add_entrant(next(late, f"x{rng.random()}"))
            before, event = event, event.pair_next_round()
            check_round(before, event)
            continue
        if churn and len(event.active) > 2 and rng.random() < 0.05:
            event = event.withdraw(rng.choice(event.active))
            continue
        pairing = rng.choice(event.pending())
        event = event.record(pairing.key, random_result(pairing, rng, forfeits=0.1, double_forfeits=0.05))
    round_trip(event)
    assert event.current_round <= rounds


def test_the_table_breaks_ties_by_buchholz_then_points_difference():
    event = Swiss.new(["a", "b", "c", "d"], SwissOptions(rounds=2, seeding="given")).pair_next_round()
    assert [(p.a, p.b) for p in event.pending()] == [("a", "c"), ("b", "d")]
    event = event.record("R1-1", Result.played("a", (7, 0))).record("R1-2", Result.played("b", (7, 6)))
    event = event.pair_next_round()
    assert [(p.a, p.b) for p in event.pending()] == [("a", "b"), ("c", "d")]
    event = event.record("R2-1", Result.played("a", (7, 5))).record("R2-2", Result.played("c", (7, 1)))
    table = event.standings()
    assert [(s.player, s.score, s.buchholz, s.points_diff) for s in table] == [
        ("a", 2, 2, 9), ("b", 1, 2, -1), ("c", 1, 2, -1), ("d", 0, 2, -7)]
    assert [s.rank for s in table] == [1, 2, 2, 4]  # b and c level on everything: seed order, shared rank
    assert event.is_over and event.winner == "a"


def test_a_bye_is_a_win_and_withdrawn_players_are_paired_no_more():
    event = Swiss.new(["a", "b", "c"], SwissOptions(rounds=3, seeding="given")).pair_next_round()
    bye = [p for p in event.rounds[0] if p.is_bye][0]
    assert bye.a == "c" and event.results[bye.key].result.kind == "bye"
    event = event.withdraw("a")  # forfeits a v b
    assert event.results["R1-1"].result == Result.forfeit("b")
    event = event.pair_next_round()
    assert [(p.a, p.b) for p in event.pending()] == [("b", "c")]
    assert [s.wins for s in event.standings()] == [1, 1, 0]


def test_a_round_can_be_taken_back_until_a_result_comes_in():
    event = Swiss.new(["a", "b", "c"], SwissOptions(rounds=2)).pair_next_round()
    assert event.unpair_round() == Swiss.new(["a", "b", "c"], SwissOptions(rounds=2))
    event = event.record(event.pending()[0].key, Result.played("a"))
    with pytest.raises(TournamentError) as exc:
        event.unpair_round()
    assert exc.value.code == "round_started"


def test_rounds_wait_for_the_round_before_and_stop_at_the_last():
    event = Swiss.new(["a", "b"], SwissOptions(rounds=2))
    assert event.total_rounds == 2 and not event.is_over
    event = event.pair_next_round()
    with pytest.raises(TournamentError) as exc:
        event.pair_next_round()
    assert exc.value.code == "round_not_finished"
    event = event.record("R1-1", Result.played("b")).pair_next_round()
    assert [(p.a, p.b) for p in event.pending()] == [("b", "a")]  # a repeat: nobody else to meet
    event = event.record("R2-1", Result.played("b"))
    assert event.is_over and not event.can_pair and event.winner == "b"
    with pytest.raises(TournamentError) as exc:
        event.pair_next_round()
    assert exc.value.code == "event_over"


def test_the_default_number_of_rounds_finds_one_unbeaten_player():
    assert Swiss.new(range(1, 9)).total_rounds == 3
    assert Swiss.new(range(1, 10)).total_rounds == 4
    event = play_out(Swiss.new(range(1, 33)), random.Random(4))
    assert [s.score for s in event.standings()].count(5) == 1


def test_a_whole_swiss_of_64_with_forfeits_and_withdrawals():
    event = play_out(Swiss.new(range(64), SwissOptions(rounds=7)), random.Random(1), withdraw=0.01,
                     forfeits=0.05, double_forfeits=0.02, awards=0.02, trip_every=17)
    assert event.is_over and event.winner is not None
    assert len(event.standings()) == 64
