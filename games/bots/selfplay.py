"""Random self-play: the positions met in games of random legal plays.

Used by the bot tests and the benchmarks to sample realistic positions
(``random.Random`` instances only: deterministic for a seed).
"""

from __future__ import annotations

import random

from games.engine import GameRules, GameState
from games.engine.game import OPENING, OVER, TURN


def move_states(count: int, seed: int, *, cube: bool = True, games: int | None = None) -> list:
    """The states of every checker-play decision of random games, until ``count`` states
    (or ``games`` whole games, when given) have been collected."""
    rng = random.Random(seed)
    states = []
    played = 0
    while (games is None and len(states) < count) or (games is not None and played < games):
        state = GameState.new(GameRules(cube=cube))
        while state.phase == OPENING:
            state = state.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        while state.phase != OVER and (games is not None or len(states) < count):
            if state.phase == TURN:
                state = state.roll(state.actor, (rng.randint(1, 6), rng.randint(1, 6)))
                continue
            states.append(state)
            state = state.move(state.actor, rng.choice(state.legal_plays()).steps)
        played += 1
    return states
