"""Every format driven the same way, played to the end with random results (forfeits,
double forfeits, awards and withdrawals included), stored and read back at every step;
the common refusals."""

from __future__ import annotations

import json
import random

import pytest

from games.tournament import FORMATS, Arena, ArenaOptions, Result, TournamentError, load, new_event

from tests.tournament.drive import play_out, random_result, round_trip

BRACKETS = {"knockout", "double", "groups"}
OPTIONS = {
    "knockout": {"consolation": "progressive"},
    "double": {"reset": True},
    "swiss": {"rounds": 5},
    "roundrobin": {"cycles": 1},
    "groups": {"groupSize": 4, "advance": 2, "consolation": "simple"},
}


def check_table(event) -> None:
    table = event.standings()
    assert sorted(s.player for s in table) == sorted(event.players)
    ranks = [s.rank for s in table]
    assert all(r is not None for r in ranks)
    assert ranks == sorted(ranks)
    assert all(r <= i + 1 for i, r in enumerate(ranks))  # shared ranks skip, never jump ahead
    if event.winner is not None:
        assert table[0].player == event.winner and table[0].rank == 1
    gone = set(event.withdrawn)
    assert {s.player for s in table if s.status == "withdrawn"} == gone


@pytest.mark.parametrize("fmt", sorted(OPTIONS))
@pytest.mark.parametrize("seed", range(6))
def test_whole_events_with_random_results(fmt, seed):
    rng = random.Random(seed)
    n = rng.randint(2, 27)
    entrants = [{"id": f"p{i}", "rating": rng.choice([None, rng.randint(1200, 2100)])} for i in range(n)]
    event = new_event(fmt, entrants, {**OPTIONS[fmt], "seeding": rng.choice(["rating", "random"])}, rng=rng)
    trouble = seed % 2 == 1
    odds = {"forfeits": 0.1, "double_forfeits": 0.05, "awards": 0.05} if trouble else {}
    event = play_out(event, rng, withdraw=0.02 if trouble else 0, **odds)
    assert event.is_over and not event.pending()
    check_table(event)
    if not trouble:
        assert event.winner is not None
    with pytest.raises(TournamentError):
        event.record("M-R1-1", Result.played("p0"))


@pytest.mark.parametrize("seed", range(6))
def test_whole_arenas_with_random_results(seed):
    rng = random.Random(seed)
    arena = new_event("arena", range(rng.randint(2, 20)), {"start": 0, "end": 5400, "rematchWait": 60})
    now = 0
    while not arena.is_over:
        now += rng.choice([5, 30, 90])
        arena = arena.pair(now)
        for match in list(arena.matches):
            if rng.random() < 0.3:
                arena = arena.record(match.key, random_result(match, rng, forfeits=0.05), now=now)
        if arena.paused and rng.random() < 0.3:
            arena = arena.resume(arena.paused[0], now)
        arena = round_trip(arena)
    check_table(arena)
    assert arena.winner is not None and arena.records


def test_a_stored_event_is_plain_json():
    event = new_event("swiss", ["a", "b", "c"]).pair_next_round()
    data = event.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["format"] == "swiss" and data["version"] == 1


@pytest.mark.parametrize("bad, code", [
    ({"format": "ladder"}, "bad_format"),
    ({"format": "swiss", "version": 99}, "bad_state"),
    ({"format": "swiss", "version": 1}, "bad_state"),
    ({**new_event("knockout", ["a", "b"]).to_dict(), "records": [{"pairing": {}}]}, "bad_state"),
    ([], "bad_state"),
])
def test_bad_stored_events_are_refused(bad, code):
    with pytest.raises(TournamentError) as exc:
        load(bad)
    assert exc.value.code == code


@pytest.mark.parametrize("fmt, options, code", [
    ("knockout", {"consolation": "plate"}, "bad_option"),
    ("knockout", {"lengths": {"default": 0}}, "bad_option"),
    ("knockout", {"lengths": {"final": 200}}, "bad_option"),
    ("swiss", {"rounds": "five"}, "bad_option"),
    ("swiss", {"colour": True}, "bad_option"),
    ("groups", {"groupSize": 3, "advance": 4}, "bad_option"),
    ("double", {"reset": "yes"}, "bad_option"),
    ("roundrobin", {"seeding": "alphabetical"}, "bad_seeding"),
    ("knockout", {"seeding": "random"}, "no_random"),
    ("arena", {"start": 10, "end": 5}, "bad_option"),
])
def test_bad_options_are_refused(fmt, options, code):
    with pytest.raises(TournamentError) as exc:
        new_event(fmt, ["a", "b"], options)
    assert exc.value.code == code


def test_bad_entrants_are_refused():
    for entrants, code in [(["a", "a"], "duplicate_entrant"), (["a", ""], "bad_player"), (["a", None], "bad_player"),
                           ([{"id": "a", "rating": "high"}, "b"], "bad_rating")]:
        with pytest.raises(TournamentError) as exc:
            new_event("knockout", entrants)
        assert exc.value.code == code


def test_every_format_is_known_by_name():
    assert set(FORMATS) == set(OPTIONS) | {"arena"}
    assert FORMATS["arena"] is Arena and isinstance(new_event("arena", [], {"start": 0, "end": 1}).options,
                                                    ArenaOptions)


@pytest.mark.parametrize("make, code", [
    (lambda: Result("won", "a"), "bad_result"),
    (lambda: Result.played(None), "bad_result"),
    (lambda: Result("double_forfeit", "a"), "bad_result"),
    (lambda: Result.played("a", (7, 7)), "bad_score"),
    (lambda: Result.played("a", (7, -1)), "bad_score"),
    (lambda: Result.played("a", (7,)), "bad_score"),
    (lambda: Result("forfeit", "a", (7, 0)), "bad_score"),
])
def test_impossible_results_are_refused(make, code):
    with pytest.raises(TournamentError) as exc:
        make()
    assert exc.value.code == code


def test_an_award_may_keep_a_score_the_winner_trails():
    event = new_event("knockout", ["a", "b"]).record("M-R1-1", Result.awarded("b", score=(3, 5)))
    assert event.winner == "b" and [s.points_diff for s in event.standings()] == [-2, 2]
