"""Positions for the bot tests: random self-play (seeded) plus the shared GNU Backgammon file."""

import json

import pytest

from games.bots.selfplay import move_states
from games.engine import Position
from games.engine.moves import legal_plays
from tests.support import shared_dir

SELFPLAY_POSITIONS = 1100


def selfplay_cases(count: int, seed: int = 20240607) -> list:
    """(position, dice) of the move phases of random self-play games."""
    return [(state.position, state.dice) for state in move_states(count, seed, cube=False)]


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
