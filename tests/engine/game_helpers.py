"""Builders shared by the game state machine tests (absolute frame of RULES.md)."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from games.engine import BLACK, OFF, TURN, WHITE, GameRules, GameState, IllegalAction, Position, Step

# -- helpers ---------------------------------------------------------------------------


def position(white=None, black=None, *, white_bar=0, black_bar=0, turn=WHITE) -> Position:
    """Checkers per absolute point for each side; whatever is not placed is borne off."""
    white, black = white or {}, black or {}
    board = [0] * 25
    for p, n in white.items():
        board[p] += n
    for p, n in black.items():
        assert board[p] == 0
        board[p] -= n
    pos = Position(
        tuple(board),
        white_bar,
        black_bar,
        15 - sum(white.values()) - white_bar,
        15 - sum(black.values()) - black_bar,
        turn,
    )
    pos.validate()
    return pos


def at_turn(rules: GameRules, pos: Position, first_mover: str = WHITE, **changes) -> GameState:
    """A game in the ``turn`` phase of ``pos.turn`` (before rolling), some turns in."""
    state = GameState.new(rules, pos)
    return replace(state, phase=TURN, first_mover=first_mover, turn_number=5, **changes)


def refused(state: GameState, action, code: str):
    """``action(state)`` must raise IllegalAction ``code`` and leave ``state`` as it was."""
    before = copy.deepcopy(state)
    before_dict = state.to_dict()
    with pytest.raises(IllegalAction) as info:
        action(state)
    assert isinstance(info.value, ValueError)
    assert info.value.code == code, info.value.message
    assert state == before and state.to_dict() == before_dict
    return info.value


def play_first(state: GameState, dice) -> GameState:
    """Roll ``dice`` for the side on roll and play the first legal play."""
    color = state.position.turn
    state = state.roll(color, dice)
    return state.move(color, list(state.legal_plays()[0].steps))


def opened() -> GameState:
    """White wins the opening 3-1 and makes its 5-point: Black is on roll, cube centred."""
    g = GameState.new(GameRules()).opening_roll(3, 1)
    g = g.move(WHITE, [Step(8, 5), Step(6, 5)])
    assert g.phase == TURN and g.actor == BLACK
    return g


# White: one checker on its 1-point (14 off). Bearing it off ends the game.
# Black, the loser, in four shapes:
BLACK_ONE_OFF = {19: 14}  # 1 checker off: single
BLACK_NONE_OFF = {19: 8, 20: 7}  # none off, all in its own home board: gammon
BLACK_IN_WHITES_HOME = {19: 14, 3: 1}  # none off, one on White's 3-point: backgammon


def white_to_finish(rules: GameRules, black: dict, black_bar: int = 0, **changes) -> GameState:
    return at_turn(rules, position({1: 1}, black, black_bar=black_bar), **changes)


def finish(state: GameState) -> GameState:
    state = state.roll(WHITE, (2, 1))
    return state.move(WHITE, [Step(1, OFF)])


LAST_ROLL = GameRules(last_roll=True)


def white_bears_off_first(black: dict, rules: GameRules = LAST_ROLL) -> GameState:
    """White wins the opening roll (2-1) and bears off its last checker: Black's last roll."""
    g = GameState.new(rules, position({1: 1}, black))
    g = g.opening_roll(2, 1)
    assert g.first_mover == WHITE
    return g.move(WHITE, [Step(1, OFF)])
