"""Entrants and seeding: by rating, at random (through an injected ``random.Random``)
or as given; and the standard seeding positions of a bracket.

>>> [e.id for e in seeded([Entrant("ann", 1500), Entrant("bob", 1720), Entrant("cy")])]
['bob', 'ann', 'cy']
>>> import random
>>> [e.id for e in seeded(["ann", "bob", "cy", "dee"], RANDOM, rng=random.Random(3))]
['dee', 'ann', 'cy', 'bob']
>>> bracket_order(8)
(1, 8, 4, 5, 2, 7, 3, 6)
>>> bracket_size(5), bracket_size(2), bracket_size(16)
(8, 2, 16)
"""

from __future__ import annotations

from .errors import TournamentError
from .records import Entrant
from games.engine.errors import gettext_noop

RATING = "rating"  # highest rating first; equal ratings keep the order of registration
RANDOM = "random"  # a draw from the injected ``random.Random``
GIVEN = "given"  # the order the entrants come in (a director's own seeding)
SEEDINGS = (RATING, RANDOM, GIVEN)


def as_entrant(value) -> Entrant:
    """An :class:`Entrant`, from itself, a plain id or a dict of :meth:`Entrant.to_dict`."""
    if isinstance(value, Entrant):
        return value
    if isinstance(value, dict):
        return Entrant.from_dict({"rating": None, "seed": None, **value})
    return Entrant(value)


def seeded(entrants, method: str = RATING, *, rng=None) -> tuple:
    """The entrants numbered by seed (1 first), ordered by ``method``.

    By rating, entrants without a rating come last; ties keep the order given. At
    random, ``rng`` (a ``random.Random``, seeded by the caller) shuffles them.
    """
    field = tuple(as_entrant(e) for e in entrants)
    ids = [e.id for e in field]
    if len(set(ids)) != len(ids):
        raise TournamentError("duplicate_entrant", gettext_noop("A player can enter an event only once."))
    if method == RATING:
        order = sorted(field, key=lambda e: (e.rating is None, -(e.rating or 0)))
    elif method == RANDOM:
        if rng is None or not hasattr(rng, "shuffle"):
            raise TournamentError("no_random", gettext_noop("A random draw needs a random.Random (seeded by the caller)."))
        order = list(field)
        rng.shuffle(order)
    elif method == GIVEN:
        order = list(field)
    else:
        raise TournamentError("bad_seeding", gettext_noop("Seeding is one of %(value)s."),
                params={"value": ', '.join(SEEDINGS)})
    return tuple(Entrant(e.id, e.rating, i) for i, e in enumerate(order, 1))


def bracket_size(count: int) -> int:
    """The smallest power of two that holds ``count`` entrants (2 at least)."""
    size = 2
    while size < count:
        size *= 2
    return size


def bracket_order(size: int) -> tuple:
    """The seed in each position of a bracket of ``size`` (a power of two): 1 meets
    ``size``, 8 meets 9 in a 16..., and the top two seeds can meet only in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return tuple(order)


def meeting_round(pos_a: int, pos_b: int) -> int:
    """The round in which the players in positions ``pos_a`` and ``pos_b`` (from 0) of a
    bracket would meet if both kept winning.

    >>> meeting_round(0, 1), meeting_round(0, 3), meeting_round(0, 7)
    (1, 2, 3)
    """
    return (pos_a ^ pos_b).bit_length()


__all__ = ["RATING", "RANDOM", "GIVEN", "SEEDINGS", "as_entrant", "seeded", "bracket_size", "bracket_order",
           "meeting_round"]
