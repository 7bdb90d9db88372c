"""Random matches played through the engine and the event recorder (no database).

The policy is random but seeded: checker plays, doubles, takes, drops and resignation
offers (accepted or rejected) all happen, so every way a game can end is exercised.
"""
from __future__ import annotations

import random

from games.engine import CUBE_OFFERED, MOVE, RESIGN_OFFERED, TURN, MatchState
from games.interchange.record import GameRecorder


def play_random_match(seed: int, rules, *, max_games: int = 30):
    """``(final MatchState, [events of each game])`` of a seeded random match."""
    rng = random.Random(seed)

    def dice():
        return rng.randint(1, 6), rng.randint(1, 6)

    match = MatchState.new(rules)
    games = []
    while not match.is_over and len(games) < max_games:
        rec = GameRecorder.start(match, number=len(games) + 1)
        while rec.state.phase == "opening":
            rec.opening(rng.randint(1, 6), rng.randint(1, 6))
        turns = 0
        while not rec.is_over:
            state = rec.state
            turns += 1
            if state.phase == MOVE and turns > 8 and rng.random() < 0.02:
                rec.resign_offer(rng.choice(["white", "black"]), rng.choice([1, 2, 3]))
            elif state.phase == MOVE:
                rec.move(rng.choice(state.legal_plays()).steps, dice)
            elif state.phase == TURN:
                actor = state.actor
                if state.can_double(actor) and rng.random() < 0.08:
                    rec.double()
                elif state.can_raccoon(actor) and rng.random() < 0.5:
                    rec.raccoon(dice)
                elif turns > 6 and rng.random() < 0.04:
                    rec.resign_offer(actor, rng.choice([1, 2, 3]))
                else:
                    rec.roll(dice())
            elif state.phase == CUBE_OFFERED:
                r = rng.random()
                if state.can_beaver(state.actor) and r < 0.3:
                    rec.beaver(dice)
                elif r < 0.5:
                    rec.drop()
                else:
                    rec.take(dice)
            elif state.phase == RESIGN_OFFERED:
                if rng.random() < 0.6:
                    rec.resign_accept()
                else:
                    rec.resign_reject(dice)
        match = rec.finish()
        games.append(rec.events)
    return match, games
