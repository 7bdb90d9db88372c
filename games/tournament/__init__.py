"""Tournaments: the formats, their pairings, brackets and standings, as pure values.

Standard library only (no Django, no clock: times come in as arguments; no
randomness but an injected ``random.Random``). The rules are in
``docs/TOURNAMENTS.md``. Every format is an immutable event driven the same way
(:mod:`games.tournament.event`): ``pending()`` lists the matches to play,
``record(key, result)`` files a result, ``withdraw(player)`` takes a player out,
``is_over``, ``winner`` and ``standings()`` say where it stands, and ``to_dict()`` /
:func:`load` store it as plain JSON.

>>> ko = new_event("knockout", ["ann", "bob", "cy", "dee"], {"seeding": "given"})
>>> [(p.key, p.a, p.b, p.length) for p in ko.pending()]
[('M-R1-1', 'ann', 'dee', 7), ('M-R1-2', 'bob', 'cy', 7)]
>>> load(ko.record("M-R1-1", Result.played("dee", (7, 5))).to_dict()).pending()[0].key
'M-R1-2'
>>> new_event("ladder", ["ann", "bob"])
Traceback (most recent call last):
...
games.tournament.errors.TournamentError: A format is one of knockout, double, swiss, roundrobin, groups, arena.
"""

from .arena import Arena
from .double import DoubleElimination
from .entrants import GIVEN, RANDOM, RATING, bracket_order, bracket_size, seeded
from .errors import TournamentError
from .event import Event
from .groups import GroupsKnockout
from .knockout import Knockout
from .options import (
    ArenaOptions,
    DoubleOptions,
    GroupsOptions,
    KnockoutOptions,
    Lengths,
    RoundRobinOptions,
    SwissOptions,
)
from .records import (
    AWARDED,
    BYE,
    DOUBLE_FORFEIT,
    FORFEIT,
    PLAYED,
    Entrant,
    Pairing,
    Record,
    Result,
    Standing,
)
from .roundrobin import RoundRobin
from .swiss import Swiss
from games.engine.errors import gettext_noop

FORMATS = {cls.FORMAT: cls for cls in (Knockout, DoubleElimination, Swiss, RoundRobin, GroupsKnockout, Arena)}


def _format(name: str):
    try:
        return FORMATS[name]
    except (KeyError, TypeError):
        raise TournamentError("bad_format", gettext_noop("A format is one of %(value)s."),
                params={"value": ', '.join(FORMATS)}) from None


def new_event(format: str, entrants, options=None, *, rng=None) -> Event:
    """A new event of ``format`` (options as the format's options or their dict)."""
    cls = _format(format)
    if options is None or isinstance(options, dict):
        options = cls.OPTIONS.from_dict(options or {})
    return cls.new(entrants, options, rng=rng)


def load(data: dict) -> Event:
    """The event stored by its ``to_dict()``."""
    if not isinstance(data, dict):
        raise TournamentError("bad_state", gettext_noop("A stored event is a dict."))
    cls = _format(data.get("format"))
    try:
        return cls.from_dict(data)
    except TournamentError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise TournamentError("bad_state", gettext_noop("A stored %(FORMAT)s event that cannot be read (%(exc)s)."),
                params={"FORMAT": cls.FORMAT, "exc": repr(exc)}) from None


__all__ = [
    "new_event", "load", "FORMATS", "Event", "TournamentError",
    "Knockout", "DoubleElimination", "Swiss", "RoundRobin", "GroupsKnockout", "Arena",
    "KnockoutOptions", "DoubleOptions", "SwissOptions", "RoundRobinOptions", "GroupsOptions", "ArenaOptions", "Lengths",
    "Entrant", "Pairing", "Result", "Record", "Standing", "PLAYED", "FORFEIT", "DOUBLE_FORFEIT", "AWARDED", "BYE",
    "seeded", "RATING", "RANDOM", "GIVEN", "bracket_order", "bracket_size",
]
