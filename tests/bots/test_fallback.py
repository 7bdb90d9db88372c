"""Without bgsage (its wheel needs AVX2) every level falls back to pubeval, logged once."""

import logging
import sys

import pytest

from games.bots import LEVELS, choose_play, decide, pubeval, should_double, take_decision
from games.analysis import sage
from games.engine.moves import legal_plays
from tests.bots.states import CRUSHING, LAST_ROLL_64, match, offered_state, resign_state, turn_state


@pytest.fixture
def no_bgsage(monkeypatch):
    sage.reset()
    monkeypatch.setitem(sys.modules, "bgsage", None)  # "import bgsage" now raises ImportError
    yield
    monkeypatch.undo()
    sage.reset()


def test_import_error_logs_once_and_uses_pubeval(no_bgsage, caplog, all_cases):
    with caplog.at_level(logging.WARNING, logger="games.analysis.sage"):
        assert not sage.available()
        for position, dice in all_cases[::20]:
            plays = legal_plays(position, dice)
            got = choose_play("world_class", position, dice)
            scores = pubeval.score_plays(position, plays)
            assert scores[[p.result for p in plays].index(got.result)] == scores.max()
            assert choose_play("casual", position, dice).result in {p.result for p in plays}
        assert not sage.available()
    lines = [r for r in caplog.records if r.name == "games.analysis.sage"]
    assert len(lines) == 1 and "fall back to pubeval" in lines[0].getMessage()


def test_fallback_cube_and_decide(no_bgsage):
    money = match(0)
    assert should_double("world_class", turn_state(LAST_ROLL_64, money), money, "white") in (True, False)
    assert take_decision("world_class", offered_state(CRUSHING, money), money, "black") == "drop"
    crawford = match(5, (4, 2), crawford_game=True)
    assert not should_double("expert", turn_state(CRUSHING, crawford), crawford, "white")
    for level in [lv.name for lv in LEVELS]:
        out = decide(level, resign_state(CRUSHING, money, "black", 1).to_dict(), money.to_dict())
        assert out["action"] == "accept"  # Black has borne off: a single is everything
        out = decide(level, turn_state(CRUSHING, money).to_dict(), money.to_dict())
        assert out["action"] in ("double", "roll")
