"""Double elimination: nobody is out before two losses (but for withdrawals, double
forfeits and a grand final without reset), the losers' bracket fed in the right
places, the grand final and its reset."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import DoubleElimination, DoubleOptions, Result
from games.tournament.bracket import DONE
from games.tournament.standings import tally

from tests.tournament.drive import play_out

SETTINGS = settings(derandomize=True, max_examples=80, deadline=None)


def nobody_out_before_two_losses(event: DoubleElimination) -> None:
    counts = tally(event.players, event.records)
    double_forfeits = {p for r in event.records if r.result.kind == "double_forfeit" for p in r.pairing.players}
    first_final = event.slots["GF-1"]
    for line in event.standings():
        if line.status != "out" or line.player in double_forfeits:
            continue
        no_reset = not event.options.reset and first_final.status == DONE and line.player == first_final.loser
        assert counts[line.player].losses >= 2 or no_reset, f"{line.player} is out after one loss"


@SETTINGS
@given(st.integers(2, 40), st.integers(0, 10**6), st.booleans(), st.booleans())
def test_nobody_is_out_before_two_losses(n, seed, reset, trouble):
    rng = random.Random(seed)
    odds = {"forfeits": 0.1, "double_forfeits": 0.05} if trouble else {}
    event = play_out(DoubleElimination.new(range(n), DoubleOptions(reset=reset)), rng, withdraw=0.02 if trouble else 0,
                     check=nobody_out_before_two_losses, trip_every=0, **odds)
    assert event.is_over
    nobody_out_before_two_losses(event)
    if not trouble:
        assert [s.rank for s in event.standings()][:3] == [1, 2, 3][:n]
        counts = tally(event.players, event.records)
        assert counts[event.winner].losses <= 1
        if reset:
            assert all(counts[p].losses == 2 for p in event.players if p != event.winner)


def test_the_losers_bracket_takes_each_winners_round_in_turn():
    event = DoubleElimination.new(range(1, 17))
    rounds = {}
    for node in event.nodes:
        if node.stage == "losers":
            rounds.setdefault(node.round, []).append(node)
    assert {r: len(v) for r, v in rounds.items()} == {1: 4, 2: 4, 3: 2, 4: 2, 5: 1, 6: 1}
    assert rounds[2][0].b == ("loser", "W-R2-4")  # reversed: no rematch at once
    assert rounds[4][0].b == ("loser", "W-R3-1")  # not reversed
    assert rounds[6][0].b == ("loser", "W-R4-1")  # the winners' final's loser meets the survivor


def test_the_grand_final_reset_is_played_only_when_the_losers_side_wins():
    def final(first_winner):
        event = DoubleElimination.new(["a", "b"], DoubleOptions(seeding="given"))
        event = event.record("W-R1-1", Result.played("a")).record("GF-1", Result.played(first_winner))
        return event

    held = final("a")
    assert held.is_over and held.winner == "a" and held.slots["GF-2"].status == "skipped"
    reset = final("b")
    assert not reset.is_over and [p.key for p in reset.pending()] == ["GF-2"]
    assert reset.record("GF-2", Result.played("b")).winner == "b"
    plain = DoubleElimination.new(["a", "b"], DoubleOptions(reset=False))
    plain = plain.record("W-R1-1", Result.played("a")).record("GF-1", Result.played("b"))
    assert plain.is_over and plain.winner == "b"


def test_a_whole_double_elimination_of_48_round_trips():
    event = play_out(DoubleElimination.new(range(48)), random.Random(9), forfeits=0.05, trip_every=5)
    assert event.is_over and event.winner is not None and len(event.standings()) == 48
