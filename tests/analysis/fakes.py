"""A deterministic stand-in for the bgsage evaluator: fast, and its numbers are known.

Equity of a position for a player = (opponent's pips - own pips) / 100, from the side of
the player who just moved; cube equities follow from it. The analysis walks events the
same way whatever the evaluator, so the walk, the marks and the statistics can be
checked exactly against these numbers.
"""
from __future__ import annotations

from games.analysis.sage_eval import Candidate, CubeEval
from games.engine.moves import legal_plays
from games.engine.position import other


def pip_equity(position, color) -> float:
    return (position.pip_count(other(color)) - position.pip_count(color)) / 100.0


def blots(position, color) -> int:
    own = position.mover_points(color)
    return sum(1 for p in range(1, 25) if own[p] == 1)


def play_equity(position, color) -> float:
    """The fake's equity of a play's result for the mover: pips, and 0.05 per own blot."""
    return pip_equity(position, color) - 0.05 * blots(position, color)


class FakeEvaluator:
    ply = 1

    def __init__(self, luck=0.0, cube=None):
        self.positions = {}
        self.luck_value = luck
        self.cube_values = cube  # fixed (nd, dt, dp) or None for the pip formula
        self.calls = {"checker": 0, "cube": 0, "luck": 0}

    def board(self, position, color):
        token = ("board", position.key(), color)
        self.positions[token] = position
        return token

    def checker(self, board, dice, ctx, *, keep=(), zero_ply=None, ply=None):
        self.calls["checker"] += 1
        position = self.positions[board]
        color = board[2]
        out = []
        for play in legal_plays(position, dice):
            token = self.board(play.result, color)
            out.append(Candidate(token, play_equity(play.result, color), (0.5, 0.1, 0.0, 0.1, 0.0), 1))
        return sorted(out, key=lambda c: -c.equity)

    def cube(self, board, ctx, ply=None):
        self.calls["cube"] += 1
        if self.cube_values is not None:
            nd, dt, dp = self.cube_values
        else:
            nd = pip_equity(self.positions[board], board[2])
            dt, dp = 2 * nd - 0.2, 1.0
        return CubeEval(nd, dt, dp, (0.5, 0.1, 0.0, 0.1, 0.0), 1)

    def luck(self, position, color, dice, ctx, *, opening=False):
        self.calls["luck"] += 1
        return self.luck_value, None

    def mwc_per_equity(self, ctx):
        return 0.0 if ctx.is_money else 0.25
