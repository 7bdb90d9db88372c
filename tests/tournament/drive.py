"""Playing whole events with random results (a seeded ``random.Random``): the helper
the tournament tests share."""

from __future__ import annotations

import json

from games.tournament import Result, load

MAX_STEPS = 20000


def random_result(pairing, rng, *, forfeits: float = 0.0, double_forfeits: float = 0.0, awards: float = 0.0):
    """A result for ``pairing``: mostly played (a random winner, a plausible score)."""
    roll = rng.random()
    winner = rng.choice(pairing.players)
    if roll < double_forfeits:
        return Result.double_forfeit()
    if roll < double_forfeits + forfeits:
        return Result.forfeit(winner)
    if roll < double_forfeits + forfeits + awards:
        return Result.awarded(winner, score=(rng.randint(0, pairing.length), rng.randint(0, pairing.length)))
    return Result.played(winner, score=(pairing.length, rng.randint(0, pairing.length - 1)))


def round_trip(event):
    """The event after a trip through JSON: it must come back equal."""
    again = load(json.loads(json.dumps(event.to_dict())))
    assert again == event
    return again


def one_pending_each(event) -> None:
    """Nobody is asked to play two matches at once, nobody plays themselves."""
    seen = set()
    for p in event.pending():
        assert p.a != p.b
        for player in p.players:
            assert player not in seen, f"{player} has two matches waiting"
            seen.add(player)


def play_out(event, rng, *, withdraw: float = 0.0, check=None, trip_every: int = 1, **odds):
    """Play ``event`` to its end: pair rounds when due, record random results for a
    random pending match at a time, withdraw a random active player now and then.
    ``check(event)`` runs after every step."""
    steps = 0
    while not event.is_over:
        steps += 1
        assert steps < MAX_STEPS, "the event never ends"
        if event.can_pair:
            event = event.pair_next_round()
        elif withdraw and event.active and rng.random() < withdraw:
            event = event.withdraw(rng.choice(event.active))
        else:
            pending = event.pending()
            assert pending, f"nothing to play and not over: {event.FORMAT}"
            pairing = rng.choice(pending)
            event = event.record(pairing.key, random_result(pairing, rng, **odds))
        one_pending_each(event)
        if check:
            check(event)
        if trip_every and steps % trip_every == 0:
            event = round_trip(event)
    assert not event.pending() and not event.can_pair
    return event
