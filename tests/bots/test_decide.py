"""decide(): the worker entry point answers every phase for the actor, from plain dicts."""

import pickle
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

import pytest

from games.bots import LEVELS, decide
from games.engine import GameRules, GameState, MatchRules, MatchState, Position
from games.engine.game import TURN
from games.engine.moves import check_play
from tests.bots.states import GAMMONISH, LAST_ROLL_64, match, offered_state, resign_state, turn_state

ALL = [lv.name for lv in LEVELS]


def money_game(**rules):
    return GameState.new(GameRules(cube=True, **rules))


@pytest.mark.parametrize("level", ALL)
def test_every_phase(level):
    m = MatchState.new(MatchRules(length=0))
    md = m.to_dict()
    opening = money_game()
    assert decide(level, opening.to_dict(), md)["action"] == "none"

    moving = opening.opening_roll(3, 1)
    out = decide(level, moving.to_dict(), md)
    assert out["action"] == "move" and out["color"] == "white"
    check_play(moving.position, moving.dice, out["moves"])  # raises if illegal
    after = moving.move("white", out["moves"])

    out = decide(level, after.to_dict(), md)
    assert out["color"] == "black" and out["action"] in ("double", "roll")

    no_cube = GameState.new(GameRules(cube=False)).opening_roll(3, 1)
    no_cube = no_cube.move("white", [{"from": 8, "to": 5}, {"from": 6, "to": 5}])
    assert decide(level, no_cube.to_dict(), md)["action"] == "roll"

    offered = after.double("black")
    out = decide(level, offered.to_dict(), md)
    assert out["color"] == "white" and out["action"] in ("take", "drop")

    resign = after.offer_resignation("black", 3)  # a backgammon offered at the start: accept
    out = decide(level, resign.to_dict(), md)
    assert out == {"color": "white", "level": level, "action": "accept"}

    over = after.resign("black")
    assert decide(level, over.to_dict(), md)["action"] == "none"


@pytest.mark.parametrize("level", ALL)
def test_beaver_and_raccoon_phases(level):
    m = match(0, beaver=True, raccoon=True)
    state = offered_state(Position.initial(), m)
    out = decide(level, state.to_dict(), m.to_dict())
    assert out["action"] in ("take", "drop", "beaver")
    beavered = state.beaver("black")
    assert beavered.phase == TURN and beavered.can_raccoon("white")
    out = decide(level, beavered.to_dict(), m.to_dict())
    assert out["color"] == "white" and out["action"] in ("raccoon", "roll")


@pytest.mark.parametrize("level", ["expert", "world_class"])
def test_strong_levels_cube_and_resign_through_decide(level):
    m = match(0)
    assert decide(level, turn_state(LAST_ROLL_64, m).to_dict(), m.to_dict())["action"] == "double"
    assert decide(level, offered_state(LAST_ROLL_64, m).to_dict(), m.to_dict())["action"] == "take"
    single = resign_state(GAMMONISH, m, "black", 1)
    assert decide(level, single.to_dict(), m.to_dict())["action"] == "reject"


def test_crawford_game_never_doubles_through_decide():
    m = match(5, (4, 2), crawford_game=True)
    for level in ALL:
        state = turn_state(LAST_ROLL_64, m)
        assert decide(level, state.to_dict(), m.to_dict())["action"] == "roll"


def test_match_state_is_optional_and_result_is_plain():
    state = money_game().opening_roll(6, 1)
    out = decide("intermediate", state.to_dict())
    assert out["action"] == "move"
    assert pickle.loads(pickle.dumps(out)) == out


@pytest.mark.slow
def test_callable_from_a_worker_process():
    state = money_game().opening_roll(6, 1)
    m = match(0)
    with ProcessPoolExecutor(max_workers=1) as pool:
        remote = pool.submit(decide, "expert", state.to_dict(), m.to_dict()).result(timeout=120)
    assert remote == decide("expert", state.to_dict(), m.to_dict())
    assert remote["moves"] == [{"from": 13, "to": 7}, {"from": 8, "to": 7}]
