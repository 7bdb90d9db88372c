"""The options of each format, chosen when an event is created, and the match length
of each round (finals may be longer, consolation and losers' matches shorter).

>>> lengths = Lengths(default=5, rounds=(3, 3), final=11)
>>> [lengths.length(r) for r in (1, 2, 3)], lengths.length(6, final=True)
([3, 3, 5], 11)
>>> KnockoutOptions(consolation="progressive").to_dict()["consolation"]
'progressive'
>>> SwissOptions.from_dict({"rounds": 5, "lengths": {"default": 7}}).rounds
5
>>> SwissOptions(rounds=0)
Traceback (most recent call last):
...
games.tournament.errors.TournamentError: rounds must be a whole number from 1 to 99.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from games.engine.wire import camel
from .entrants import SEEDINGS
from .errors import TournamentError, check_int
from games.engine.errors import gettext_noop

MAX_LENGTH = 99  # points: a match longer than this is not a tournament match
NONE, SIMPLE, PROGRESSIVE = "none", "simple", "progressive"
CONSOLATIONS = (NONE, SIMPLE, PROGRESSIVE)


@dataclass(frozen=True)
class Lengths:
    """Match lengths in points: ``rounds[i]`` for round ``i + 1`` when given, else
    ``default``; ``final`` for a final (knock-out final, grand final); ``consolation``
    for the consolation and losers' brackets (their own rounds use it too)."""

    default: int = 7
    rounds: tuple = ()
    final: int | None = None
    consolation: int | None = None

    def __post_init__(self):
        object.__setattr__(self, "rounds", tuple(self.rounds))
        for name, value in (("default", self.default), *((f"rounds[{i}]", v) for i, v in enumerate(self.rounds))):
            check_int(name, value, 1, MAX_LENGTH)
        for name in ("final", "consolation"):
            if getattr(self, name) is not None:
                check_int(name, getattr(self, name), 1, MAX_LENGTH)

    def length(self, round: int, *, final: bool = False, secondary: bool = False) -> int:
        """The length of a match of ``round`` (a final; a consolation or losers' match)."""
        if final and self.final is not None:
            return self.final
        if secondary and self.consolation is not None:
            return self.consolation
        return self.rounds[round - 1] if 0 < round <= len(self.rounds) else self.default

    def to_dict(self) -> dict:
        return {"default": self.default, "rounds": list(self.rounds), "final": self.final,
                "consolation": self.consolation}

    @classmethod
    def from_dict(cls, data: dict) -> "Lengths":
        return cls(**_known(cls, data))


def _known(cls, data) -> dict:
    """Keyword arguments of dataclass ``cls`` from a camelCase dict; missing keys take the
    defaults, unknown keys are refused."""
    if not isinstance(data, dict):
        raise TournamentError("bad_option", gettext_noop("Options are a dict."))
    names = {camel(f.name): f.name for f in fields(cls)}
    unknown = set(data) - set(names)
    if unknown:
        raise TournamentError("bad_option", gettext_noop("Unknown options: %(value)s."),
                params={"value": ', '.join(sorted(unknown))})
    return {names[key]: value for key, value in data.items()}


@dataclass(frozen=True, kw_only=True)
class Options:
    """What every format has: match lengths and how the entrants are seeded."""

    lengths: Lengths = field(default_factory=Lengths)
    seeding: str = "rating"

    def __post_init__(self):
        if isinstance(self.lengths, dict):
            object.__setattr__(self, "lengths", Lengths.from_dict(self.lengths))
        if not isinstance(self.lengths, Lengths):
            raise TournamentError("bad_option", gettext_noop("lengths must be match lengths."))
        if self.seeding not in SEEDINGS:
            raise TournamentError("bad_seeding", gettext_noop("Seeding is one of %(value)s."),
                    params={"value": ', '.join(SEEDINGS)})
        self.check()

    def check(self) -> None:
        """Each format's own checks."""

    def to_dict(self) -> dict:
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[camel(f.name)] = value.to_dict() if isinstance(value, Lengths) else value
        return out

    @classmethod
    def from_dict(cls, data: dict):
        return cls(**_known(cls, data))


def _check_flag(name: str, value) -> None:
    if type(value) is not bool:
        raise TournamentError("bad_option", gettext_noop("%(name)s must be true or false."), params={"name": name})


@dataclass(frozen=True, kw_only=True)
class KnockoutOptions(Options):
    """Single elimination; ``consolation``: none, simple or progressive."""

    consolation: str = NONE

    def check(self):
        if self.consolation not in CONSOLATIONS:
            raise TournamentError("bad_option", gettext_noop("consolation is one of %(value)s."),
                    params={"value": ', '.join(CONSOLATIONS)})


@dataclass(frozen=True, kw_only=True)
class DoubleOptions(Options):
    """Double elimination; ``reset``: a second grand final when the losers' side wins the first."""

    reset: bool = True

    def check(self):
        _check_flag("reset", self.reset)


@dataclass(frozen=True, kw_only=True)
class SwissOptions(Options):
    """Swiss; ``rounds`` None: enough rounds to find a sole winner (log2 of the field)."""

    rounds: int | None = None

    def check(self):
        if self.rounds is not None:
            check_int("rounds", self.rounds, 1, 99)


@dataclass(frozen=True, kw_only=True)
class RoundRobinOptions(Options):
    """Round robin; ``cycles`` 2: everyone meets everyone twice."""

    cycles: int = 1

    def check(self):
        check_int("cycles", self.cycles, 1, 4)


@dataclass(frozen=True, kw_only=True)
class GroupsOptions(Options):
    """Groups of about ``group_size`` playing a round robin, the best ``advance`` of each
    into a knock-out (``consolation`` as in :class:`KnockoutOptions`)."""

    group_size: int = 4
    advance: int = 2
    consolation: str = NONE

    def check(self):
        check_int("groupSize", self.group_size, 2, 32)
        check_int("advance", self.advance, 1, self.group_size)
        KnockoutOptions.check(self)


@dataclass(frozen=True, kw_only=True)
class ArenaOptions(Options):
    """An arena from ``start`` to ``end`` (seconds, any epoch the caller keeps to).
    A win scores ``win_points``; after ``streak`` wins in a row each further win scores
    double, until a loss. Two players who just met are paired again only when nobody
    else has come for ``rematch_wait`` seconds."""

    start: float
    end: float
    win_points: int = 2
    streak: int = 2
    rematch_wait: float = 30.0

    def check(self):
        for name in ("start", "end", "rematch_wait"):
            if type(getattr(self, name)) not in (int, float):
                raise TournamentError("bad_option", gettext_noop("%(camel)s must be a number of seconds."),
                        params={"camel": camel(name)})
        if self.end <= self.start:
            raise TournamentError("bad_option", gettext_noop("An arena ends after it starts."))
        if self.rematch_wait < 0:
            raise TournamentError("bad_option", gettext_noop("rematchWait cannot be negative."))
        check_int("winPoints", self.win_points, 1, 100)
        check_int("streak", self.streak, 1, 100)


__all__ = ["Lengths", "Options", "KnockoutOptions", "DoubleOptions", "SwissOptions", "RoundRobinOptions",
           "GroupsOptions", "ArenaOptions", "NONE", "SIMPLE", "PROGRESSIVE", "CONSOLATIONS", "MAX_LENGTH"]
