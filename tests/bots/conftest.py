"""Positions for the bot tests: random self-play (seeded) plus the shared GNU Backgammon file."""

import json
import random

import pytest

from games.engine import GameRules, GameState, Position
from games.engine.game import MOVE, OPENING, OVER, TURN
from games.engine.moves import legal_plays
from tests.support import shared_dir

SELFPLAY_POSITIONS = 1100


def selfplay_cases(count: int, seed: int = 20240607) -> list:
    """(position, dice) of the move phases of random self-play games."""
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        state = GameState.new(GameRules(cube=False))
        while state.phase == OPENING:
            state = state.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        while state.phase != OVER and len(cases) < count:
            if state.phase == TURN:
                state = state.roll(state.actor, (rng.randint(1, 6), rng.randint(1, 6)))
                continue
            assert state.phase == MOVE
            cases.append((state.position, state.dice))
            plays = legal_plays(state.position, state.dice)
            state = state.move(state.actor, list(rng.choice(plays).steps))
    return cases


def gnubg_cases() -> list:
    path = shared_dir() / "data" / "gnubg_positions.jsonl"
    cases = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                cases.append((Position.from_dict(row), tuple(row["dice"])))
    return cases


@pytest.fixture(scope="session")
def all_cases():
    """At least 2000 (position, dice) cases: 1100 from self-play, 1000 from the shared file."""
    cases = selfplay_cases(SELFPLAY_POSITIONS) + gnubg_cases()
    assert len(cases) >= 2000
    return cases


@pytest.fixture(scope="session")
def legal_results(all_cases):
    """For each case, the set of positions its legal plays reach."""
    return [frozenset(p.result for p in legal_plays(pos, dice)) for pos, dice in all_cases]
