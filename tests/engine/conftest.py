"""Fixtures for the engine tests: the GNU Backgammon reference positions."""

import json

import pytest

from games.engine import Position
from tests.support import shared_dir


@pytest.fixture(scope="session")
def reference_lines():
    """The 1000 lines of shared/data/gnubg_positions.jsonl, parsed."""
    path = shared_dir() / "data" / "gnubg_positions.jsonl"
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture(scope="session")
def reference_positions(reference_lines):
    """``(line, Position, dice)`` for every reference line."""
    return [(line, Position.from_dict(line), tuple(line["dice"])) for line in reference_lines]
