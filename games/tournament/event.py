"""What every format shares: the field, the options, the decided pairings (records),
the withdrawals; recording a result; withdrawing a player; storage as a plain dict.

A format subclasses :class:`Event` and says which pairings are waiting for a result
(:meth:`Event.pending`), whether the event is over, who won and the standings. The
server drives every format the same way::

    event = Format.new(entrants, options)
    while not event.is_over:
        if event.can_pair:                  # Swiss: the next round is due
            event = event.pair_next_round()
        for pairing in event.pending():     # create each match, tell both players...
            ...
        event = event.record(key, result)   # ...and record each result as it comes
    event.winner, event.standings()

Every call returns a new event (events are immutable) or raises
:class:`~games.tournament.errors.TournamentError` and changes nothing.

>>> from games.tournament import Result, RoundRobin
>>> event = RoundRobin.new(["ann", "bob", "cy"])
>>> while not event.is_over:
...     for p in event.pending():
...         event = event.record(p.key, Result.played(p.a, (7, 3)))
>>> event.winner, [(s.rank, s.player, s.wins) for s in event.standings()]
('ann', [(1, 'ann', 2), (2, 'bob', 1), (3, 'cy', 0)])
>>> event.record("R1-1", Result.played("ann"))
Traceback (most recent call last):
...
games.tournament.errors.TournamentError: R1-1 has its result already.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import ClassVar

from .entrants import seeded
from .errors import TournamentError, check_player
from .options import Options
from .records import Entrant, Pairing, Record, Result
from games.engine.errors import gettext_noop

VERSION = 1  # of the stored dict


@dataclass(frozen=True)
class Event:
    """The state of one event. Subclasses add their own fields and rules."""

    FORMAT: ClassVar[str] = ""
    OPTIONS: ClassVar[type] = Options
    MIN_ENTRANTS: ClassVar[int] = 2

    entrants: tuple  # Entrant, in seed order
    options: Options
    records: tuple = ()  # Record, in the order the results came in
    withdrawn: tuple = ()  # player ids, in the order they withdrew

    # -- building ---------------------------------------------------------------------
    @classmethod
    def new(cls, entrants, options=None, *, rng=None) -> "Event":
        """The event with its draw made: ``entrants`` (Entrant, plain ids or their dicts)
        seeded by ``options.seeding`` (``rng``: a ``random.Random`` for a random draw);
        ``options`` default to the format's defaults."""
        options = cls.OPTIONS() if options is None else options
        return cls(cls.seed_field(entrants, options, rng), options)

    @classmethod
    def seed_field(cls, entrants, options: Options, rng=None) -> tuple:
        """The entrants seeded by ``options.seeding`` (``rng``: a random.Random for a
        random draw), checked against the format's minimum field."""
        if not isinstance(options, cls.OPTIONS):
            raise TournamentError("bad_option", gettext_noop("A %(FORMAT)s event takes %(name)s."),
                    params={"FORMAT": cls.FORMAT, "name": cls.OPTIONS.__name__})
        field = seeded(entrants, options.seeding, rng=rng)
        if len(field) < cls.MIN_ENTRANTS:
            raise TournamentError("too_few_entrants", gettext_noop("A %(FORMAT)s event needs at least %(MIN_ENTRANTS)s entrants."),
                    params={"FORMAT": cls.FORMAT, "MIN_ENTRANTS": cls.MIN_ENTRANTS})
        return field

    # -- queries ----------------------------------------------------------------------
    @property
    def players(self) -> tuple:
        """Every entrant's id, in seed order."""
        return tuple(e.id for e in self.entrants)

    @property
    def seeds(self) -> dict:
        return {e.id: e.seed for e in self.entrants}

    @property
    def active(self) -> tuple:
        """The entrants who have not withdrawn, in seed order."""
        gone = set(self.withdrawn)
        return tuple(p for p in self.players if p not in gone)

    @cached_property
    def results(self) -> dict:
        """``{key: Record}`` of every decided pairing."""
        return {r.key: r for r in self.records}

    @property
    def can_pair(self) -> bool:
        """Whether :meth:`pair_next_round` has a round to pair now (only the Swiss waits
        to be told; the other formats pair as results come in)."""
        return False

    def pair_next_round(self) -> "Event":
        raise TournamentError("nothing_to_pair", gettext_noop("This event pairs its matches as results come in."))

    def pending(self) -> tuple:
        """The pairings ready to play and not yet decided (both players known)."""
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    @property
    def winner(self):
        """The winner once the event is over (None before, or when nobody won)."""
        raise NotImplementedError

    def standings(self) -> tuple:
        raise NotImplementedError

    def pairing(self, key: str) -> Pairing:
        """The pending pairing ``key``."""
        for p in self.pending():
            if p.key == key:
                return p
        if key in self.results:
            raise TournamentError("already_decided", gettext_noop("%(key)s has its result already."),
                    params={"key": key})
        raise TournamentError("not_pending", gettext_noop("%(key)s is not a match waiting for a result."),
                params={"key": key})

    def check_entrant(self, player) -> object:
        check_player(player)
        if player not in self.seeds:
            raise TournamentError("not_entered", gettext_noop("%(player)s is not in this event."),
                    params={"player": repr(player)})
        return player

    # -- actions ----------------------------------------------------------------------
    def record(self, key: str, result: Result) -> "Event":
        """Record the result of the pending pairing ``key`` (played, forfeit, double
        forfeit or awarded)."""
        if not isinstance(result, Result):
            raise TournamentError("bad_result", gettext_noop("A result is a Result."))
        record = Record(self.pairing(key), result)
        return self.with_records((record,))

    def withdraw(self, player) -> "Event":
        """``player`` leaves the event: each match of theirs waiting for a result is
        forfeited to the opponent (a double forfeit if both have gone), they are paired
        no more, and their results so far stand."""
        self.check_entrant(player)
        if player in self.withdrawn:
            raise TournamentError("already_withdrawn", gettext_noop("%(player)s has withdrawn already."),
                    params={"player": repr(player)})
        return replace(self, withdrawn=self.withdrawn + (player,)).settled()

    def with_records(self, records: tuple) -> "Event":
        return replace(self, records=self.records + tuple(records)).settled()

    def walkovers(self) -> tuple:
        """The undecided pairings a withdrawal decides (forfeited at once)."""
        gone = set(self.withdrawn)
        return tuple(p for p in self.pending() if gone & set(p.players))

    def settled(self) -> "Event":
        """This event with every walkover recorded (a forfeit can make another match
        ready in which a withdrawn player stands: repeated until none is left)."""
        event = self
        gone = set(self.withdrawn)
        while True:
            due = event.walkovers()
            if not due:
                return event
            records = []
            for p in due:
                present = [q for q in p.players if q not in gone]
                result = Result.forfeit(present[0]) if present else Result.double_forfeit()
                records.append(Record(p, result))
            event = replace(event, records=event.records + tuple(records))

    # -- storage ----------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "format": self.FORMAT,
            "version": VERSION,
            "options": self.options.to_dict(),
            "entrants": [e.to_dict() for e in self.entrants],
            "records": [r.to_dict() for r in self.records],
            "withdrawn": list(self.withdrawn),
            **self.extra_to_dict(),
        }

    def extra_to_dict(self) -> dict:
        return {}

    @classmethod
    def base_from_dict(cls, data: dict) -> dict:
        """The shared fields, as keyword arguments, from :meth:`to_dict`'s dict."""
        if data.get("format") != cls.FORMAT:
            raise TournamentError("bad_state", gettext_noop("That is not a %(FORMAT)s event."),
                    params={"FORMAT": cls.FORMAT})
        if data.get("version") != VERSION:
            raise TournamentError("bad_state", gettext_noop("Unknown version %(value)s of a stored event."),
                    params={"value": repr(data.get('version'))})
        return {
            "entrants": tuple(Entrant.from_dict(e) for e in data["entrants"]),
            "options": cls.OPTIONS.from_dict(data["options"]),
            "records": tuple(Record.from_dict(r) for r in data["records"]),
            "withdrawn": tuple(data["withdrawn"]),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Event":
        return cls(**cls.base_from_dict(data))


__all__ = ["Event", "VERSION"]
