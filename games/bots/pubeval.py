"""Tesauro's public-domain ``pubeval`` evaluator, vectorised with numpy.

pubeval scores a position *after* a move, seen by the side that just moved
(the "mover"): its checkers move from its 24-point toward its 1-point. In our
absolute frame that is White's own numbering; for Black the mover's point ``p``
is absolute point ``25 - p`` (see :meth:`Position.mirror`). The higher the
score, the better the move. The contact or race weights are chosen once per
decision, from the position *before* the move (as the original driver did).

Implementation: the original 122 inputs are one-hot per point, so each point's
contribution depends only on (point, signed checker count). We precompute a
``(24, 31)`` table per weight set and score all candidates with one gather.
"""

from __future__ import annotations

import numpy as np

from games.engine.position import WHITE

from .pubeval_weights import WC, WR

WIN_SCORE = 99999999.0  # the original's score for bearing off the last checker


def _table(weights) -> tuple:
    w = np.asarray(weights, dtype=np.float64)
    table = np.zeros((24, 31))  # [mover point - 1, count + 15]
    for p in range(1, 25):
        base = 5 * (24 - p)
        for n in range(-15, 16):
            v = 0.0
            if n == -1:
                v = w[base]
            elif n == 1:
                v = w[base + 1]
            elif n >= 2:
                v = w[base + 2]
                if n == 3:
                    v += w[base + 3]
                elif n >= 4:
                    v += w[base + 4] * (n - 3) / 2.0
            table[p - 1, n + 15] = v
    return table, w[120] / 2.0, w[121] / 15.0


_CONTACT = _table(WC)
_RACE = _table(WR)
_POINTS = np.arange(24)


def mover_arrays(positions, color: str):
    """``(points, opp_bar, own_off)`` for positions seen by ``color``:
    ``points[:, p - 1]`` is the count on the mover's point p (own > 0, opponent < 0)."""
    boards = np.array([pos.board for pos in positions], dtype=np.int64).reshape(len(positions), 25)
    if color == WHITE:
        points = boards[:, 1:25]
        opp_bar = np.array([pos.black_bar for pos in positions], dtype=np.int64)
        own_off = np.array([pos.white_off for pos in positions], dtype=np.int64)
    else:
        points = -boards[:, 24:0:-1]
        opp_bar = np.array([pos.white_bar for pos in positions], dtype=np.int64)
        own_off = np.array([pos.black_off for pos in positions], dtype=np.int64)
    return points, opp_bar, own_off


def score_arrays(points, opp_bar, own_off, race: bool) -> np.ndarray:
    """pubeval scores of the encoded positions (one per row)."""
    table, w_bar, w_off = _RACE if race else _CONTACT
    scores = table[_POINTS, points + 15].sum(axis=1) + w_bar * opp_bar + w_off * own_off
    return np.where(own_off >= 15, WIN_SCORE, scores)


def score_positions(positions, color: str, race: bool) -> np.ndarray:
    """pubeval scores of ``positions`` (post-move) for the mover ``color``."""
    if not positions:
        return np.zeros(0)
    return score_arrays(*mover_arrays(positions, color), race)


def score_plays(position, plays) -> np.ndarray:
    """pubeval score of each legal play from ``position`` (the side on roll moves)."""
    return score_positions([p.result for p in plays], position.turn, position.is_race())


def best_play_index(position, plays) -> int:
    """Index of pubeval's choice (the first of equal scores, in generation order)."""
    if len(plays) <= 1:
        return 0
    return int(np.argmax(score_plays(position, plays)))


__all__ = ["score_plays", "score_positions", "score_arrays", "mover_arrays", "best_play_index", "WIN_SCORE"]
