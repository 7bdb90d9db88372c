"""How much a game is worth: single, gammon, backgammon (and the options of RULES.md).

>>> from .position import Position, WHITE
>>> win_kind(Position.initial(), WHITE)  # Black has no checker off and sits in White's home
'backgammon'
>>> KIND_MULTIPLIER['gammon']
2
"""

from __future__ import annotations

from .position import BLACK, WHITE, Position, other

SINGLE = "single"
GAMMON = "gammon"
BACKGAMMON = "backgammon"
DOUBLE_BACKGAMMON = "double_backgammon"
TIE = "tie"

KIND_MULTIPLIER = {SINGLE: 1, GAMMON: 2, BACKGAMMON: 3, DOUBLE_BACKGAMMON: 4, TIE: 0}
RESIGN_LEVELS = {1: SINGLE, 2: GAMMON, 3: BACKGAMMON}
LEVEL_OF_KIND = {SINGLE: 1, GAMMON: 2, BACKGAMMON: 3, DOUBLE_BACKGAMMON: 4}


def win_kind(position: Position, winner: str, *, double_backgammon: bool = False) -> str:
    """What ``winner`` wins if the game ended now, judged by the loser's checkers.

    Single when the loser has borne off a checker; gammon when not; backgammon
    when the loser also still has a checker on the bar or in the winner's home
    board; with the double-backgammon option a checker on the bar makes it 4.
    """
    loser = other(winner)
    if position.off(loser) > 0:
        return SINGLE
    bar = position.bar(loser)
    if double_backgammon and bar:
        return DOUBLE_BACKGAMMON
    board = position.board
    if winner == WHITE:
        in_home = any(board[p] < 0 for p in range(1, 7))
    else:
        in_home = any(board[p] > 0 for p in range(19, 25))
    if bar or in_home:
        return BACKGAMMON
    return GAMMON


def points_for(kind: str, cube_value: int, *, jacoby: bool = False, cube_turned: bool = False) -> int:
    """A game's value: the result times the cube, gammons single under Jacoby
    unless the cube was turned."""
    multiplier = KIND_MULTIPLIER[kind]
    if jacoby and not cube_turned and multiplier > 1:
        multiplier = 1
    return multiplier * cube_value


__all__ = [
    "SINGLE",
    "GAMMON",
    "BACKGAMMON",
    "DOUBLE_BACKGAMMON",
    "TIE",
    "KIND_MULTIPLIER",
    "RESIGN_LEVELS",
    "LEVEL_OF_KIND",
    "win_kind",
    "points_for",
    "BLACK",
]
