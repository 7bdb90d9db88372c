"""Arena: nobody is paired with themselves or twice at once; no immediate rematch
while another opponent waits; points with the streak bonus; the end."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import Arena, ArenaOptions, Result, TournamentError

from tests.tournament.brute import fewest_repeats, fewest_repeats_with_sitout
from tests.tournament.drive import one_pending_each, random_result, round_trip

SETTINGS = settings(derandomize=True, max_examples=60, deadline=None)
HOUR = 3600


def rematches(arena: Arena) -> dict:
    met = {}
    for a, b in arena.last_opponent().items():
        met.setdefault(a, set()).add(b)
        met.setdefault(b, set()).add(a)
    return met


def check_pairing(before: Arena, after: Arena, now: float) -> None:
    new = after.matches[len(before.matches):]
    pool = list(before.waiting)
    met = rematches(before)
    made = [(p.a, p.b) for p in new]
    assert all(a != b for a, b in made)
    assert {q for pair in made for q in pair} <= set(pool)
    again = sum(1 for a, b in made if b in met.get(a, ()))
    if len(pool) % 2 == 0:
        best = fewest_repeats(pool, met)
    else:
        best = fewest_repeats_with_sitout(pool, met, pool)
    assert again <= best, "an immediate rematch while another opponent was waiting"
    if len(made) < len(pool) // 2:  # a pair held back: only a rematch too early
        assert best > 0 or len(pool) < 2


@SETTINGS
@given(st.integers(2, 9), st.integers(0, 10**6))
def test_random_arenas_pair_the_pool_as_they_should(n, seed):
    rng = random.Random(seed)
    options = ArenaOptions(start=0, end=HOUR, rematch_wait=rng.choice([0, 30, 120]), seeding="random")
    arena = Arena.new([{"id": f"p{i}", "rating": rng.randint(1000, 2000)} for i in range(n)], options, rng=rng)
    now = 0.0
    while not arena.is_over:
        now += rng.choice([1, 10, 60, 240])
        move = rng.random()
        if move < 0.45 and arena.matches:
            match = rng.choice(arena.matches)
            arena = arena.record(match.key, random_result(match, rng, forfeits=0.05, double_forfeits=0.02), now=now)
        elif move < 0.5 and arena.paused:
            arena = arena.resume(rng.choice(arena.paused), now)
        elif move < 0.52 and arena.waiting:
            arena = arena.pause(rng.choice(arena.waiting))
        elif move < 0.53:
            arena = arena.join(f"late{now}", now) if now < HOUR else arena.tick(now)
        else:
            before = arena.tick(now)
            arena = before.pair(now)
            if not before.closed:
                check_pairing(before, arena, now)
        one_pending_each(arena)
        assert not set(arena.waiting) & {q for m in arena.matches for q in m.players}
        assert len(set(arena.waiting)) == len(arena.waiting)
    round_trip(arena)
    board = arena.standings()
    assert [s.score for s in board] == sorted((s.score for s in board), reverse=True)


def test_points_and_the_streak():
    arena = Arena.new(["a", "b", "c", "d"], ArenaOptions(start=0, end=HOUR, seeding="given"))
    results = ["a", "a", "a", "a", "b", "a"]
    now = 0
    for winner in results:
        arena = arena.pair(now)
        match = next(m for m in arena.matches if winner in m.players)
        arena = arena.record(match.key, Result.played(winner), now=now)
        for m in arena.matches:
            arena = arena.record(m.key, Result.played(m.b), now=now)
        now += 60
    sheet = arena.sheet("a")
    assert [p for p in sheet if p] == [2, 2, 4, 4, 2]  # the third and fourth wins in a row double


def test_forfeit_losers_are_paused_and_the_arena_ends_after_its_last_match():
    arena = Arena.new(["a", "b", "c"], ArenaOptions(start=100, end=200, seeding="given"))
    assert arena.pair(50).matches == ()  # not started
    arena = arena.pair(100)
    arena = arena.record("A-1", Result.forfeit("a"), now=150)
    assert arena.paused == ("b",) and set(arena.waiting) == {"a", "c"}
    arena = arena.pair(160)
    arena = arena.tick(200)
    assert arena.closed and not arena.is_over and arena.waiting == ()
    arena = arena.record("A-2", Result.played("c"), now=230)
    assert arena.is_over and arena.waiting == () and arena.winner == "a"
    with pytest.raises(TournamentError) as exc:
        arena.join("zed", 240)
    assert exc.value.code == "event_over"


def test_a_rematch_waits_for_the_rematch_time():
    arena = Arena.new(["a", "b"], ArenaOptions(start=0, end=HOUR, rematch_wait=30)).pair(0)
    arena = arena.record("A-1", Result.played("a"), now=10)
    assert arena.pair(20).matches == ()
    assert [(m.a, m.b) for m in arena.pair(40).matches] == [("a", "b")]


def test_a_withdrawal_forfeits_the_match_in_play():
    arena = Arena.new(["a", "b", "c"], ArenaOptions(start=0, end=HOUR, seeding="given")).pair(0)
    arena = arena.withdraw("b")
    assert arena.records[0].result == Result.forfeit("a") and "b" not in arena.waiting
    assert arena.pair(5).matches[0].players == ("a", "c")
