"""gnubg ids of a game state (``state_ids``), including finished games and the Jacoby bit.

The expected ids were read from GNU Backgammon 1.07 itself after importing the same
moments as .mat files (``tests/test_gnubg_interchange.py`` checks every game end of
several matches against gnubg; these are fixed cases that need no gnubg).
"""
from __future__ import annotations

from games.engine import GameRules, GameState
from games.engine.gnubgid import match_from_id, match_id, state_ids

BEST_31 = [{"from": 8, "to": 5}, {"from": 6, "to": 5}]


def _after_31(rules=None):
    return GameState.new(rules or GameRules()).opening_roll(3, 1).move("white", BEST_31)


def test_jacoby_bit():
    # gnubg: money with Jacoby on ...AAAA, money without Jacoby and every match ...AAAE
    assert match_id(on_roll="white") == "cAkAAAAAAAAA"
    assert match_id(on_roll="white", jacoby=False) == "cAkAAAAAAAAE"
    assert match_from_id("cAkAAAAAAAAE", extended=True)["jacoby"] is False
    assert match_from_id("cAkAAAAAAAAA", extended=True)["jacoby"] is True
    assert "jacoby" not in match_from_id("cAkAAAAAAAAE")
    state = _after_31(GameRules(jacoby=True))
    assert state_ids(state)["matchId"].endswith("AAAA")
    assert state_ids(_after_31(GameRules(jacoby=False)))["matchId"].endswith("AAAE")
    assert state_ids(state, match_length=5)["matchId"].endswith("AAAE")  # no Jacoby in a match


def test_a_running_game():
    """Black on roll after White's opening (gnubg's running-game ids are checked against
    gnubg by tests/test_export.py); the score is the one at the start of the game."""
    ids = state_ids(_after_31(), match_length=5, score=(1, 3))
    fields = match_from_id(ids["matchId"], extended=True)
    assert (fields["on_roll"], fields["turn"], fields["game_state"], fields["dice"]) == ("black", "black", 1, (0, 0))
    assert (fields["score"], fields["match_length"], fields["jacoby"]) == ((1, 3), 5, False)


def test_a_drop_as_gnubg_shows_it():
    """5-point match: White opens 31 8/5 6/5, Black doubles, White drops (gnubg 1.07:
    sGfwATDgc/ABMA:MAygABAAAAAE -- the doubler on roll, the dropper to act, the score after)."""
    state = _after_31().double("black").drop("white")
    ids = state_ids(state, match_length=5, score=(0, 0))
    assert ids["gnubgId"] == "sGfwATDgc/ABMA:MAygABAAAAAE"
    fields = match_from_id(ids["matchId"])
    assert (fields["game_state"], fields["on_roll"], fields["turn"], fields["score"]) == (4, "black", "white", (0, 1))


def test_a_resignation_keeps_the_unplayed_dice():
    state = _after_31().roll("black", (6, 4)).offer_resignation("white", 2).accept_resignation("black")
    fields = match_from_id(state_ids(state, match_length=7, score=(1, 2), rolled=(6, 4))["matchId"])
    assert fields["game_state"] == 3 and fields["resign_offered"] == 2 and fields["dice"] == (6, 4)
    assert fields["score"] == (1, 4) and fields["on_roll"] == fields["turn"] == "black"
    # with only one legal play gnubg plays it (and shows the other side on roll, no dice)
    forced = GameState.new(GameRules()).opening_roll(3, 1)
    forced = forced.move("white", BEST_31).roll("black", (6, 6))
    assert len(forced.legal_plays()) > 1  # 6-6 here has choices: dice kept
    over = forced.offer_resignation("black", 1).accept_resignation("white")
    assert match_from_id(state_ids(over, rolled=(6, 6))["matchId"])["dice"] == (6, 6)
