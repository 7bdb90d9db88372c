"""GNU Backgammon's marks and ratings, with its 1.07 default thresholds.

All thresholds are in normalised equity (EMG in match play), as gnubg applies them
(``show analysis`` in gnubg 1.07; ``Skill()``, ``Luck()`` and ``GetRating()`` in its
``analysis.c``)::

    equity lost  > 0.030  doubtful        luck  > +0.600  very lucky
                 > 0.060  bad                   > +0.300  lucky
                 > 0.120  very bad              < -0.300  unlucky
                                                < -0.600  very unlucky

A cube decision is *close* when the best action's equity is within 0.160 of doubling
(double/take capped at +1.000): gnubg's ``isCloseCubedecision``, which decides which
no-double decisions count in the cube error rate.

Ratings from the error rate per decision (normalised equity per decision)::

    < 0.002 supernatural   < 0.005 world class   < 0.008 expert   < 0.012 advanced
    < 0.018 intermediate   < 0.026 casual player < 0.035 beginner   else awful
"""

from __future__ import annotations

__all__ = ["SKILL", "LUCK", "CLOSE_CUBE", "skill_mark", "luck_mark", "rating", "is_close_cube"]

SKILL = {"doubtful": 0.030, "bad": 0.060, "very_bad": 0.120}
LUCK = {"lucky": 0.300, "very_lucky": 0.600}
CLOSE_CUBE = 0.160
RATINGS = ((0.002, "supernatural"), (0.005, "world_class"), (0.008, "expert"), (0.012, "advanced"),
           (0.018, "intermediate"), (0.026, "casual_player"), (0.035, "beginner"))


def skill_mark(equity_lost: float) -> str | None:
    """``None``, ``"doubtful"``, ``"bad"`` or ``"very_bad"`` for an error (>= 0).

    >>> skill_mark(0.02), skill_mark(0.05), skill_mark(0.1), skill_mark(0.2)
    (None, 'doubtful', 'bad', 'very_bad')
    """
    if equity_lost > SKILL["very_bad"]:
        return "very_bad"
    if equity_lost > SKILL["bad"]:
        return "bad"
    if equity_lost > SKILL["doubtful"]:
        return "doubtful"
    return None


def luck_mark(luck: float) -> str | None:
    """``"very_lucky"``, ``"lucky"``, ``None``, ``"unlucky"`` or ``"very_unlucky"``.

    >>> luck_mark(0.7), luck_mark(0.4), luck_mark(0.0), luck_mark(-0.4), luck_mark(-0.7)
    ('very_lucky', 'lucky', None, 'unlucky', 'very_unlucky')
    """
    if luck > LUCK["very_lucky"]:
        return "very_lucky"
    if luck > LUCK["lucky"]:
        return "lucky"
    if luck < -LUCK["very_lucky"]:
        return "very_unlucky"
    if luck < -LUCK["lucky"]:
        return "unlucky"
    return None


def rating(error_rate: float | None) -> str | None:
    """gnubg's rating for an error rate in normalised equity per decision (None: no decisions).

    >>> rating(0.001), rating(0.01), rating(0.05), rating(None)
    ('supernatural', 'advanced', 'awful', None)
    """
    if error_rate is None:
        return None
    for limit, name in RATINGS:
        if error_rate < limit:
            return name
    return "awful"


def is_close_cube(nd: float, dt: float, dp: float) -> bool:
    """gnubg's close cube decision: the best action within 0.16 of doubling (DT capped at +1)."""
    optimal = max(nd, min(dt, dp))
    return optimal - min(dt, 1.0) < CLOSE_CUBE
