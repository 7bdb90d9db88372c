"""Fallback estimates used when bgsage is unavailable: a pip-count winning
chance and a small match equity table (single games and gammons at a fixed
rate, cube ignored). Crude, but they respect the score and are documented as such.
"""

from __future__ import annotations

import math
from functools import lru_cache

from games.engine.position import other

GAMMON_RATE = 0.2
RACE_K = 10.6  # logistic slope: an 8% pip lead gives ~70%, 12% ~78% (the 8-9-12 race rule)


def win_probability(position, color: str) -> float:
    """Rough chance that ``color`` wins, ``position.turn`` on roll (pre-roll)."""
    mine = position.pip_count(color)
    theirs = position.pip_count(other(color))
    if position.off(color) == 15:
        return 1.0
    if position.off(other(color)) == 15:
        return 0.0
    on_roll = 4 if position.turn == color else -4  # being on roll is worth about 4 pips
    lead = (theirs - mine + on_roll) / max(mine, 30)
    return 1.0 / (1.0 + math.exp(-RACE_K * lead))


@lru_cache(maxsize=None)
def met(away: int, opp_away: int, post_crawford: bool = False) -> float:
    """Chance that the side ``away`` from winning wins the match (1 = Crawford
    game when reached before post-Crawford)."""
    if away <= 0:
        return 1.0
    if opp_away <= 0:
        return 0.0
    g = GAMMON_RATE
    if away == 1 and opp_away == 1:
        return 0.5
    if away == 1 or opp_away == 1:
        if opp_away == 1:
            return 1.0 - met(opp_away, away, post_crawford)
        if post_crawford:
            # The trailer doubles at once: each game is worth 2 (4 with a gammon).
            return 0.5 + 0.5 * ((1 - g) * met(1, opp_away - 2, True) + g * met(1, opp_away - 4, True))
        # The Crawford game: no cube; afterwards post-Crawford.
        return 0.5 + 0.5 * ((1 - g) * met(1, opp_away - 1, True) + g * met(1, opp_away - 2, True))
    win = (1 - g) * met(away - 1, opp_away) + g * met(away - 2, opp_away)
    lose = (1 - g) * met(away, opp_away - 1) + g * met(away, opp_away - 2)
    return 0.5 * win + 0.5 * lose


def take_point(taker_away: int | None, doubler_away: int | None, cube: int, post_crawford: bool) -> float:
    """The winning chance the taker needs (dead-cube approximation; money 0.25)."""
    if taker_away is None:
        return 0.25
    pc = post_crawford
    drop = met(taker_away, doubler_away - cube, pc)
    win = met(taker_away - 2 * cube, doubler_away, pc)
    lose = met(taker_away, doubler_away - 2 * cube, pc)
    if win - lose <= 1e-9:
        return 0.0
    return min(1.0, max(0.0, (drop - lose) / (win - lose)))
