"""FIBS ratings: match-length aware, with an experience factor.

The formula of the First Internet Backgammon Server:

* the underdog's chance in an N-point match between ratings differing by D is
  ``P = 1 / (10 ** (D * sqrt(N) / 2000) + 1)``;
* the winner gains, and the loser loses, ``4 * sqrt(N) * P_loser`` where
  ``P_loser`` is the chance the *loser* had of winning — an upset moves more;
* a player with under 400 experience (points of rated matches played) has
  the change multiplied by ``max(1, 5 - experience / 100)``; experience grows
  by N after each match.

>>> round(win_probability(1600, 1500, 5), 4)
0.564
>>> a, b = rating_changes(1500, 1500, 5, winner_experience=400, loser_experience=400)
>>> round(a, 3), round(b, 3)
(4.472, -4.472)
"""

from __future__ import annotations

import math


def win_probability(rating: float, opponent: float, length: int) -> float:
    """Chance that ``rating`` beats ``opponent`` in a ``length``-point match."""
    d = opponent - rating
    return 1.0 / (10 ** (d * math.sqrt(length) / 2000.0) + 1.0)


def experience_factor(experience: int) -> float:
    return max(1.0, 5.0 - experience / 100.0)


def rating_changes(winner: float, loser: float, length: int, *, winner_experience: int = 400,
                   loser_experience: int = 400) -> tuple:
    """``(winner's change, loser's change)`` after a rated ``length``-point match."""
    if length < 1:
        raise ValueError("Only matches to a number of points are rated.")
    loser_chance = win_probability(loser, winner, length)
    base = 4.0 * math.sqrt(length) * loser_chance
    return base * experience_factor(winner_experience), -base * experience_factor(loser_experience)
