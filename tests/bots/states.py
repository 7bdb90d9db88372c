"""Hand-built states for the cube, resignation and decide tests."""

from dataclasses import replace

from games.engine import GameRules, GameState, MatchRules, MatchState, Position
from games.engine.game import CUBE_OFFERED, RESIGN_OFFERED, TURN


def position(white: dict, black: dict, *, white_off=0, black_off=0, white_bar=0, black_bar=0, turn="white"):
    """``white``/``black``: {absolute point: checkers}."""
    board = [0] * 25
    for p, n in white.items():
        board[p] = n
    for p, n in black.items():
        board[p] = -n
    return Position(tuple(board), white_bar, black_bar, white_off, black_off, turn)


# White on roll, last roll: wins with any 5 or 6 or 2-2/3-3/4-4 (64%): double/take.
LAST_ROLL_64 = position({5: 1, 1: 1}, {24: 2}, white_off=13, black_off=13)
# White on roll needing 6-5 or 3-3..6-6 (17%), Black certain next roll: Black beavers.
LAST_ROLL_17 = position({6: 1, 5: 1}, {24: 2}, white_off=13, black_off=13)
# White is bearing off its last two checkers; Black has 14 far from home: a pass (and no gammon).
CRUSHING = position({6: 1, 5: 1}, {7: 14}, white_off=13, black_off=1)
# Black has no checker off and 15 far away; White nearly done: a gammon is likely.
GAMMONISH = position({1: 3, 2: 3}, {7: 15}, white_off=9)


def match(length=0, score=(0, 0), crawford_game=False, crawford_done=False, **rules):
    return MatchState(
        MatchRules(length=length, **rules),
        white_score=score[0],
        black_score=score[1],
        is_crawford_game=crawford_game,
        crawford_done=crawford_done,
    )


def turn_state(pos, m: MatchState, *, cube_value=1, cube_owner=None, phase=TURN, rules: GameRules | None = None):
    state = GameState.new(rules or m.game_rules(), pos)
    return replace(state, phase=phase, cube_value=cube_value, cube_owner=cube_owner, turn_number=5)


def offered_state(pos, m, **kw):
    """``pos.turn`` has doubled; the other side must answer."""
    return turn_state(pos, m, phase=CUBE_OFFERED, **kw)


def resign_state(pos, m, resigner, level):
    state = turn_state(pos, m)
    return replace(state, phase=RESIGN_OFFERED, resign_offer=(resigner, level), resume_phase=TURN)
