"""Cube and resignation decisions: match score, Crawford, dead cube, beaver."""

from dataclasses import replace

import pytest

from games.bots import LEVELS, accept_resignation, get_bot, should_double, take_decision
from games.engine import GameRules, Position
from tests.bots.states import (
    CRUSHING,
    GAMMONISH,
    LAST_ROLL_17,
    LAST_ROLL_64,
    match,
    offered_state,
    resign_state,
    turn_state,
)

ALL = [lv.name for lv in LEVELS]
STRONG = ["expert", "world_class"]  # bgsage 0-ply (lower levels) misjudges these end positions


@pytest.mark.parametrize("level", ALL)
def test_never_doubles_in_the_crawford_game(level, all_cases):
    m = match(5, (4, 2), crawford_game=True)
    for pos, _dice in [(LAST_ROLL_64, None), (CRUSHING, None)] + all_cases[::200]:
        for color in ("white", "black"):
            p = pos.with_turn(color)
            # the engine's own Crawford flag...
            assert not should_double(level, turn_state(p, m), m, color)
            # ...and even if a caller forgot it on the game rules
            loose = turn_state(p, m, rules=GameRules(cube=True))
            assert not should_double(level, loose, m, color)


@pytest.mark.parametrize("level", ALL)
def test_post_crawford_trailer_doubles_at_once_and_leader_never(level):
    m = match(5, (4, 2), crawford_done=True)  # White leads 4-2, post-Crawford
    start = Position.initial("black")
    assert should_double(level, turn_state(start, m), m, "black")
    assert not should_double(level, turn_state(LAST_ROLL_64, m), m, "white")  # 1-away: dead cube


@pytest.mark.parametrize("level", ALL)
def test_dead_cube_is_not_redoubled(level):
    m = match(7, (5, 0))  # White needs 2; a 2-cube already covers it
    state = turn_state(LAST_ROLL_64, m, cube_value=2, cube_owner="white")
    assert state.can_double("white")
    assert not should_double(level, state, m, "white")


@pytest.mark.parametrize("level", ALL)
def test_take_when_dropping_loses_the_match(level):
    m = match(7, (5, 3))  # White 2-away doubles the 2-cube to 4: dropping gives White the match
    state = offered_state(CRUSHING, m, cube_value=2, cube_owner="white")
    assert take_decision(level, state, m, "black") == "take"


@pytest.mark.parametrize("level", STRONG)
def test_money_cube_actions(level):
    money = match(0)
    assert should_double(level, turn_state(LAST_ROLL_64, money), money, "white")
    assert take_decision(level, offered_state(LAST_ROLL_64, money), money, "black") == "take"
    assert take_decision(level, offered_state(CRUSHING, money), money, "black") == "drop"


@pytest.mark.parametrize("level", ALL)
def test_crushed_side_drops_at_every_level(level):
    money = match(0)
    assert take_decision(level, offered_state(CRUSHING, money), money, "black") == "drop"


@pytest.mark.parametrize("level", STRONG)
def test_beaver_only_when_allowed_and_clearly_good(level):
    plain = match(0)
    beavers = match(0, beaver=True)
    assert take_decision(level, offered_state(LAST_ROLL_17, beavers), beavers, "black") == "beaver"
    assert take_decision(level, offered_state(LAST_ROLL_17, plain), plain, "black") == "take"
    # a real double/take is a take, not a beaver
    assert take_decision(level, offered_state(LAST_ROLL_64, beavers), beavers, "black") == "take"


@pytest.mark.parametrize("level", ALL)
def test_no_beaver_in_match_play(level, all_cases):
    m = match(7)
    for pos, _ in [(LAST_ROLL_17, None)] + all_cases[::250]:
        assert take_decision(level, offered_state(pos, m), m, pos.turn == "white" and "black" or "white") != "beaver"


@pytest.mark.parametrize("level", STRONG)
def test_resignations(level):
    money = match(0)
    # Black has borne off: a single is all White can win.
    single_only = LAST_ROLL_64.with_turn("black")
    assert accept_resignation(level, resign_state(single_only, money, "black", 1), money, "white")
    # Black is likely gammoned: a single is not enough, a gammon is.
    assert not accept_resignation(level, resign_state(GAMMONISH, money, "black", 1), money, "white")
    assert accept_resignation(level, resign_state(GAMMONISH, money, "black", 2), money, "white")


@pytest.mark.parametrize("level", ALL)
def test_cube_decisions_are_deterministic(level, all_cases):
    money = match(0, beaver=True)
    bot = get_bot(level)
    for pos, _ in all_cases[::700]:
        doubler = pos.turn
        state = turn_state(pos, money)
        assert bot.should_double(state, money, doubler) == bot.should_double(state, money, doubler)
        offered = replace(offered_state(pos, money))
        taker = "black" if doubler == "white" else "white"
        assert bot.take_decision(offered, money, taker) == bot.take_decision(offered, money, taker)
