"""Chi-square goodness-of-fit helpers for auditing dice (standard library only).

``battery(rolls)`` runs three Pearson chi-square tests on a list of two-dice
rolls ``(d1, d2)``:

* ``faces``    -- frequency of each face over all ``2n`` dice
                  (6 cells, expected ``2n/6`` each, df 5);
* ``outcomes`` -- the 21 unordered roll outcomes: each double has probability
                  1/36, each non-double {a, b} (a < b) 2/36 (21 cells, df 20);
* ``doubles``  -- doubles vs. non-doubles (2 cells, 1/6 vs 5/6, df 1).

A test *passes* when its p-value is >= ``alpha``.  The p-values come from
:func:`chi_square_sf`, the chi-square survival function computed via the
regularized upper incomplete gamma function ``Q(df/2, x/2)``.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Iterable, Sequence

__all__ = ["chi_square", "chi_square_sf", "battery", "OUTCOMES"]

_EPS = 1e-15
_FPMIN = 1e-300
_MAX_ITER = 100_000

#: The 21 unordered outcomes, canonical order: (1,1), (1,2), ..., (6,6).
OUTCOMES: tuple[tuple[int, int], ...] = tuple(
    (a, b) for a in range(1, 7) for b in range(a, 7)
)


def chi_square(observed: Sequence[float], expected: Sequence[float]) -> float:
    """Pearson's statistic ``sum((o - e)**2 / e)``."""
    if len(observed) != len(expected):
        raise ValueError("observed and expected must have the same length")
    total = 0.0
    for o, e in zip(observed, expected):
        if e <= 0:
            raise ValueError("expected counts must be positive")
        total += (o - e) * (o - e) / e
    return total


def _log_prefactor(a: float, x: float) -> float:
    # log(x**a * exp(-x) / Gamma(a))
    return a * math.log(x) - x - math.lgamma(a)


def _lower_series(a: float, x: float) -> float:
    """Regularized lower incomplete gamma P(a, x) by its power series."""
    term = 1.0 / a
    total = term
    ap = a
    for _ in range(_MAX_ITER):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    else:  # pragma: no cover - not reached for sane inputs
        raise ArithmeticError("incomplete gamma series did not converge")
    return total * math.exp(_log_prefactor(a, x))


def _upper_continued_fraction(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) by its continued fraction
    (modified Lentz's method)."""
    b = x + 1.0 - a
    c = 1.0 / _FPMIN
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < _FPMIN:
            d = _FPMIN
        c = b + an / c
        if abs(c) < _FPMIN:
            c = _FPMIN
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    else:  # pragma: no cover - not reached for sane inputs
        raise ArithmeticError("incomplete gamma continued fraction did not converge")
    return math.exp(_log_prefactor(a, x)) * h


def chi_square_sf(x: float, df: float) -> float:
    """P(X >= x) for X ~ chi-square(df): the p-value of statistic ``x``.

    Equal to ``Q(df/2, x/2)``.  With ``a = df/2`` and ``y = x/2`` the series
    for ``P`` is used when ``y < a + 1`` (i.e. ``x < df + 2``) and
    ``Q = 1 - P`` returned; otherwise the continued fraction for ``Q`` is used
    directly, which keeps tail probabilities accurate.
    """
    if df <= 0:
        raise ValueError("df must be positive")
    if math.isnan(x):
        raise ValueError("x is NaN")
    if x <= 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    a = df / 2.0
    y = x / 2.0
    if y < a + 1.0:
        return min(1.0, max(0.0, 1.0 - _lower_series(a, y)))
    return min(1.0, max(0.0, _upper_continued_fraction(a, y)))


def _result(observed: list[int], expected: list[float], df: int, alpha: float) -> dict:
    stat = chi_square(observed, expected)
    p = chi_square_sf(stat, df)
    return {
        "statistic": stat,
        "df": df,
        "p_value": p,
        "passed": p >= alpha,
        "observed": observed,
        "expected": expected,
    }


def battery(rolls: Iterable[Sequence[int]], alpha: float = 0.001) -> dict:
    """Run the face / 21-outcome / doubles chi-square tests on ``(d1, d2)`` rolls.

    Returns ``{"n_rolls", "alpha", "faces", "outcomes", "doubles",
    "passed_all"}``; each test entry holds ``statistic``, ``df``, ``p_value``,
    ``passed`` and the ``observed`` / ``expected`` cell counts (outcome cells in
    :data:`OUTCOMES` order).
    """
    if not 0 < alpha < 1:
        raise ValueError("alpha must be in (0, 1)")
    try:
        pair_counts = Counter(rolls)
    except TypeError:  # unhashable entries such as lists
        pair_counts = Counter(tuple(r) for r in rolls)

    outcome_counts = dict.fromkeys(OUTCOMES, 0)
    face_counts = [0] * 6
    n = 0
    for pair, count in pair_counts.items():
        try:
            d1, d2 = pair
        except (TypeError, ValueError):
            raise ValueError(f"not a two-dice roll: {pair!r}") from None
        if not (isinstance(d1, int) and isinstance(d2, int) and 1 <= d1 <= 6 and 1 <= d2 <= 6):
            raise ValueError(f"die values must be ints 1..6: {pair!r}")
        n += count
        face_counts[d1 - 1] += count
        face_counts[d2 - 1] += count
        outcome_counts[(d1, d2) if d1 <= d2 else (d2, d1)] += count
    if n == 0:
        raise ValueError("no rolls given")

    faces = _result(face_counts, [2 * n / 6] * 6, 5, alpha)
    outcomes = _result(
        [outcome_counts[o] for o in OUTCOMES],
        [n / 36 if a == b else 2 * n / 36 for a, b in OUTCOMES],
        20,
        alpha,
    )
    n_doubles = sum(outcome_counts[(a, a)] for a in range(1, 7))
    doubles = _result([n_doubles, n - n_doubles], [n / 6, 5 * n / 6], 1, alpha)
    return {
        "n_rolls": n,
        "alpha": alpha,
        "faces": faces,
        "outcomes": outcomes,
        "doubles": doubles,
        "passed_all": faces["passed"] and outcomes["passed"] and doubles["passed"],
    }
